package providerinstall

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"sync"
	"testing"
)

// TestConcurrentInitsShareWorkingDirectory: issue #14. Eight inits of one
// working directory at once, with a warm plugin cache and no lock file,
// all succeed: linking a cached package into the working directory happens
// under the package's lock there, so no init removes a link another one is
// checking.
func TestConcurrentInitsShareWorkingDirectory(t *testing.T) {
	e := newInstallEnv(t)
	cache := NewDir(t.TempDir())
	e.in.Cache = &cache
	reqs := Requirements{provBar: nil, provFoo: nil}
	if _, _, err := e.install(t, reqs, nil, NewProvidersOnly); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 10; round++ {
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				in := &Installer{Source: e.src, Target: e.in.Target, Cache: &cache, Platform: testPlatform}
				_, errs[i] = in.Install(context.Background(), reqs, nil, NewProvidersOnly, nil)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("round %d, init %d: %v", round, i, err)
			}
		}
	}
}

// TestCacheLinkWritesNoTargetLock: linking a cached package into the
// working directory takes the cache's package lock, not the target's, so
// the working directory gets no OS_ARCH.lock file (OpenTofu takes no lock
// to link from the cache); the cache has its own, as OpenTofu's.
func TestCacheLinkWritesNoTargetLock(t *testing.T) {
	e := newInstallEnv(t)
	cache := NewDir(t.TempDir())
	e.in.Cache = &cache
	reqs := Requirements{provBar: nil}
	for run := 0; run < 2; run++ { // a fresh install, then a cache hit
		if err := os.RemoveAll(e.in.Target.Base()); err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.install(t, reqs, nil, NewProvidersOnly); err != nil {
			t.Fatal(err)
		}
		v := mustVersion(t, "0.3.0")
		if _, err := os.Lstat(e.in.Target.PackageDir(provBar, v, testPlatform)); err != nil {
			t.Fatalf("run %d: package not linked: %v", run, err)
		}
		if _, err := os.Lstat(e.in.Target.LockFile(provBar, v, testPlatform)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("run %d: target lock file: %v, want none", run, err)
		}
		if _, err := os.Lstat(cache.LockFile(provBar, v, testPlatform)); err != nil {
			t.Errorf("run %d: cache lock file: %v", run, err)
		}
	}
}
