package providerinstall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestInstallWarmUsesMemo: once a cached package has been hashed, later
// inits in new working directories take its "h1:" from the memo without
// reading the package, and record the same lock.
func TestInstallWarmUsesMemo(t *testing.T) {
	requireMemo(t)
	e := newInstallEnv(t)
	cache := NewDir(t.TempDir())
	e.in.Cache = &cache
	c := newCountingHasher(t)
	e.in.hasher = *c.hasher(time.Hour)
	reqs := Requirements{provBar: nil, provFoo: nil}
	_, first, err := e.install(t, reqs, nil, NewProvidersOnly)
	if err != nil {
		t.Fatal(err)
	}

	wantLines := []string{
		"reusing example.com/acme/foo",
		"reusing hashicorp/bar",
		"detected-in-cache example.com/acme/foo 2.0.0",
		"linked example.com/acme/foo 2.0.0",
		"detected-in-cache hashicorp/bar 0.3.0",
		"linked hashicorp/bar 0.3.0",
	}
	// Extraction writes the memo from the bytes it wrote (trusted at
	// once), so no warm run reads a package, the first one included.
	for run, wantHashed := range []int{0, 0, 0} {
		e.in.Target = NewDir(filepath.Join(t.TempDir(), "providers"))
		before := c.count()
		lines, res, err := e.install(t, reqs, first.Locks, NewProvidersOnly)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantLines, lines); diff != "" {
			t.Errorf("warm run %d events (-want +got):\n%s", run, diff)
		}
		if diff := cmp.Diff(lockText(first.Locks), lockText(res.Locks)); diff != "" {
			t.Errorf("warm run %d lock (-want +got):\n%s", run, diff)
		}
		if got := c.count() - before; got != wantHashed {
			t.Errorf("warm run %d read %d packages, want %d", run, got, wantHashed)
		}
	}

	// The working directory's own packages (links to the cache) share
	// the cache's memos: inits there read nothing either.
	for run, wantHashed := range []int{0, 0} {
		before := c.count()
		lines, _, err := e.install(t, reqs, first.Locks, NewProvidersOnly)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"reusing example.com/acme/foo", "reusing hashicorp/bar", "using-installed example.com/acme/foo 2.0.0", "using-installed hashicorp/bar 0.3.0"}
		if diff := cmp.Diff(want, lines); diff != "" {
			t.Errorf("same-directory run %d events (-want +got):\n%s", run, diff)
		}
		if got := c.count() - before; got != wantHashed {
			t.Errorf("same-directory run %d read %d packages, want %d", run, got, wantHashed)
		}
	}
}

// TestInstallMemoCatchesTampering: the memo written at install time does
// not hide a later change to the cached package, even one that keeps the
// size and restores the times: the next init finds that the cache no
// longer matches the lock file and fails where OpenTofu does, on the
// downloaded package not matching the cached one.
func TestInstallMemoCatchesTampering(t *testing.T) {
	requireMemo(t)
	e := newInstallEnv(t)
	cache := NewDir(t.TempDir())
	e.in.Cache = &cache
	e.in.MemoDir = t.TempDir()
	reqs := Requirements{provFoo: nil}
	_, first, err := e.install(t, reqs, nil, NewProvidersOnly)
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(cache.PackageDir(provFoo, instVersion("2.0.0"), testPlatform), "terraform-provider-foo_v2.0.0")
	info, err := os.Stat(exe)
	if err != nil {
		t.Fatal(err)
	}
	content, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	content[0] ^= 1
	if err := os.WriteFile(exe, content, info.Mode()); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(exe, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	e.in.Target = NewDir(filepath.Join(t.TempDir(), "providers"))
	lines, _, err := e.install(t, reqs, first.Locks, NewProvidersOnly)
	if err == nil || !strings.Contains(err.Error(), "does not match the content of the downloaded package") {
		t.Errorf("init after tampering: %v, events %q; want the cached package refused", err, lines)
	}
}
