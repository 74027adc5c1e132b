package providerinstall

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestInstallRemovesStaleStaging: issue #14. A staging directory left in
// the plugin cache by a killed install (its download inside) is removed by
// the next run that reuses the cached package — unless a live process
// holds the package's lock, whose staging entries it is.
func TestInstallRemovesStaleStaging(t *testing.T) {
	e := newInstallEnv(t)
	cache := NewDir(t.TempDir())
	e.in.Cache = &cache
	reqs := Requirements{provFoo: nil}
	_, first, err := e.install(t, reqs, nil, NewProvidersOnly)
	if err != nil {
		t.Fatal(err)
	}
	v := instVersion("2.0.0")
	pkg := cache.PackageDir(provFoo, v, testPlatform)
	stale := filepath.Join(filepath.Dir(pkg), stagingPrefix(pkg)+"42")

	// Held by a live install: kept.
	lock, err := cache.Lock(context.Background(), provFoo, v, testPlatform, LockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, stale, map[string]string{"terraform-provider-foo.zip": "a download"})
	cache.cleanStaleStaging(provFoo, v, testPlatform)
	if _, err := os.Stat(stale); err != nil {
		t.Fatalf("staging directory of a live lock holder removed: %v", err)
	}
	lock.Unlock()

	// Nobody holds it: the next run removes it.
	e.in.Target = NewDir(filepath.Join(t.TempDir(), "providers"))
	if _, _, err := e.install(t, reqs, first.Locks, NewProvidersOnly); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale staging directory still there (%v)", err)
	}
}
