package installer

import (
	"context"
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
