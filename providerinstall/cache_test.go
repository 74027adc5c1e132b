package providerinstall

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/versions"
)

// cacheFixture is a plugin cache, a package archive and the package's
// identity.
type cacheFixture struct {
	cache  Dir
	zip    string
	p      addrs.Provider
	v      versions.Version
	wantH1 hashes.Hash
}

func newCacheFixture(t *testing.T) cacheFixture {
	t.Helper()
	zipPath := writeZip(t,
		zipEntry{name: "terraform-provider-foo_v1.0.0", content: strings.Repeat("binary", 50_000), mode: 0o755},
		zipEntry{name: "LICENSE", content: "license"},
	)
	wantH1, err := hashes.HashZipFile(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	return cacheFixture{
		cache:  NewDir(filepath.Join(t.TempDir(), "plugin-cache")),
		zip:    zipPath,
		p:      mustProvider(t, "example.com/acme/foo"),
		v:      mustVersion(t, "1.0.0"),
		wantH1: wantH1,
	}
}

// fillOptions reuses a package matching the archive's h1 and extracts the
// archive otherwise, counting the extractions.
func (f cacheFixture) fillOptions(produced *atomic.Int32) FillOptions {
	return FillOptions{
		Reuse: func(existing *Installed) (bool, error) {
			return existing.MatchesAny([]hashes.Hash{f.wantH1})
		},
		Produce: func(ctx context.Context, dir string) (hashes.Hash, error) {
			produced.Add(1)
			h1, _, err := InstallZip(ctx, f.zip, dir, ExtractOptions{})
			return h1, err
		},
	}
}

func (f cacheFixture) check(t *testing.T) {
	t.Helper()
	dir := f.cache.PackageDir(f.p, f.v, linuxAMD64)
	if got, err := hashes.HashDir(dir); err != nil || got != f.wantH1 {
		t.Errorf("cache entry h1 = %s, %v; want %s", got, err, f.wantH1)
	}
	checkNoStaging(t, filepath.Dir(dir))
	if _, err := os.Stat(f.cache.LockFile(f.p, f.v, linuxAMD64)); err != nil {
		t.Errorf("lock sidecar: %v", err)
	}
}

func TestFillConcurrentGoroutines(t *testing.T) {
	f := newCacheFixture(t)
	var produced atomic.Int32
	var wg sync.WaitGroup
	results := make([]Filled, 8)
	errs := make([]error, 8)
	for i := range results {
		wg.Go(func() {
			results[i], errs[i] = f.cache.Fill(context.Background(), f.p, f.v, linuxAMD64, f.fillOptions(&produced))
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if n := produced.Load(); n != 1 {
		t.Errorf("package produced %d times, want once", n)
	}
	var producedResults int
	for _, r := range results {
		if r.Produced {
			producedResults++
		}
		if h1, err := r.Package.H1(); err != nil || h1 != f.wantH1 {
			t.Errorf("result h1 = %s, %v; want %s", h1, err, f.wantH1)
		}
	}
	if producedResults != 1 {
		t.Errorf("%d results say Produced, want 1", producedResults)
	}
	f.check(t)
}

func TestFillProduceFailureLeavesNothing(t *testing.T) {
	f := newCacheFixture(t)
	failing := FillOptions{Produce: func(ctx context.Context, dir string) (hashes.Hash, error) {
		staging, err := newStagingDir(dir)
		if err != nil {
			return "", err
		}
		mustWrite(t, filepath.Join(staging, "half-written"), "x")
		return "", errors.New("download interrupted")
	}}
	if _, err := f.cache.Fill(context.Background(), f.p, f.v, linuxAMD64, failing); err == nil {
		t.Fatal("Fill succeeded although Produce failed")
	}
	if _, ok := f.cache.Lookup(f.p, f.v, linuxAMD64); ok {
		t.Fatal("a failed Fill left a package directory")
	}
	// The next Fill removes the leftover staging directory and produces
	// the package.
	var produced atomic.Int32
	res, err := f.cache.Fill(context.Background(), f.p, f.v, linuxAMD64, f.fillOptions(&produced))
	if err != nil || !res.Produced || produced.Load() != 1 {
		t.Fatalf("Fill = %+v, %v after %d productions", res, err, produced.Load())
	}
	f.check(t)
}

func TestLockWaitNoticeAndCancel(t *testing.T) {
	f := newCacheFixture(t)
	held, err := f.cache.Lock(context.Background(), f.p, f.v, linuxAMD64, LockOptions{})
	if err != nil {
		t.Fatal(err)
	}

	// A waiter is told about the contention, then gets the lock once it
	// is released.
	waiting := make(chan struct{})
	acquired := make(chan error, 1)
	go func() {
		lock, err := f.cache.Lock(context.Background(), f.p, f.v, linuxAMD64, LockOptions{
			WaitNotice: 1, OnWait: func() { close(waiting) },
		})
		if err == nil {
			err = lock.Unlock()
		}
		acquired <- err
	}()
	<-waiting

	// A cancelled waiter gives up with OpenTofu's error text.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = f.cache.Lock(ctx, f.p, f.v, linuxAMD64, LockOptions{})
	want := `unable to acquire file lock on "` + f.cache.LockFile(f.p, f.v, linuxAMD64) + `": context canceled`
	if err == nil || err.Error() != want {
		t.Errorf("cancelled Lock error = %v, want %q", err, want)
	}

	if err := held.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := <-acquired; err != nil {
		t.Fatalf("waiter: %v", err)
	}
	if err := held.Unlock(); err != nil {
		t.Errorf("second Unlock: %v", err)
	}
}

// TestLockSidecarErrors: when the sidecar cannot be made, Lock fails with
// the file system's error alone, as OpenTofu's (which says "unable to
// acquire file lock" only when waiting for the lock fails).
func TestLockSidecarErrors(t *testing.T) {
	f := newCacheFixture(t)
	tests := []struct {
		name  string
		setup func(t *testing.T, base string) Dir
		want  func(d Dir) string
	}{
		{
			name: "base is a file",
			setup: func(t *testing.T, base string) Dir {
				file := filepath.Join(base, "cache")
				if err := os.WriteFile(file, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				return NewDir(file)
			},
			want: func(d Dir) string { return "mkdir " + d.Base() + ": not a directory" },
		},
		{
			name: "sidecar is a directory",
			setup: func(t *testing.T, base string) Dir {
				d := NewDir(base)
				if err := os.MkdirAll(d.LockFile(f.p, f.v, linuxAMD64), 0o755); err != nil {
					t.Fatal(err)
				}
				return d
			},
			want: func(d Dir) string { return "open " + d.LockFile(f.p, f.v, linuxAMD64) + ": is a directory" },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.setup(t, t.TempDir())
			_, err := d.Lock(context.Background(), f.p, f.v, linuxAMD64, LockOptions{})
			if want := tt.want(d); err == nil || err.Error() != want {
				t.Errorf("got %v, want %s", err, want)
			}
		})
	}
}
