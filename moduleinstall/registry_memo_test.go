package moduleinstall

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tfdeps/tfdeps/moduleaddr"
	"github.com/tfdeps/tfdeps/registry"
)

// countingRegistry answers every question after release is closed, and
// counts them; while fail is set, it fails.
type countingRegistry struct {
	versions, locations atomic.Int32
	fail                atomic.Bool
	release             chan struct{}
}

func (c *countingRegistry) ModuleVersions(ctx context.Context, pkg moduleaddr.Registry) ([]string, error) {
	c.versions.Add(1)
	<-c.release
	if c.fail.Load() {
		return nil, errors.New("registry down")
	}
	return []string{"1.0.0", "1.1.0"}, nil
}

func (c *countingRegistry) ModuleLocation(ctx context.Context, src moduleaddr.Registry, version string) (registry.ModulePackageLocation, error) {
	c.locations.Add(1)
	<-c.release
	return registry.ModulePackageLocation{Direct: &registry.DirectModuleLocation{Package: src.Package()}}, nil
}

func (c *countingRegistry) FetchModulePackage(ctx context.Context, loc *registry.DirectModuleLocation, tmpDir, targetDir string) (string, error) {
	return "", errors.New("not here")
}

func TestSharedRegistryAsksOnce(t *testing.T) {
	src, err := moduleaddr.ParseRegistry("acme/net/aws")
	if err != nil {
		t.Fatal(err)
	}
	other, err := moduleaddr.ParseRegistry("acme/dns/aws")
	if err != nil {
		t.Fatal(err)
	}
	reg := &countingRegistry{release: make(chan struct{})}
	s := NewSharedRegistry(reg)
	ctx := context.Background()
	var wg sync.WaitGroup
	const roots = 20
	for range roots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if list, err := s.ModuleVersions(ctx, src); err != nil || len(list) != 2 {
				t.Errorf("versions: %v, %v", list, err)
			}
			if _, err := s.ModuleLocation(ctx, src, "1.1.0"); err != nil {
				t.Errorf("location: %v", err)
			}
			if _, err := s.ModuleVersions(ctx, other); err != nil {
				t.Errorf("versions of another package: %v", err)
			}
		}()
	}
	close(reg.release)
	wg.Wait()
	if v, l := reg.versions.Load(), reg.locations.Load(); v != 2 || l != 1 {
		t.Fatalf("%d versions and %d location requests for %d roots, want 2 (one per package) and 1", v, l, roots)
	}

	// A failure is not shared with later installations: each asks again.
	failing, err := moduleaddr.ParseRegistry("acme/down/aws")
	if err != nil {
		t.Fatal(err)
	}
	reg.fail.Store(true)
	for i := range 2 {
		if _, err := s.ModuleVersions(ctx, failing); err == nil {
			t.Fatalf("call %d: no error", i)
		}
	}
	reg.fail.Store(false)
	if _, err := s.ModuleVersions(ctx, failing); err != nil {
		t.Fatalf("after the registry recovered: %v", err)
	}
	if got := reg.versions.Load(); got != 5 {
		t.Fatalf("%d versions requests, want 5 (2 shared, 2 failures, 1 after)", got)
	}
}
