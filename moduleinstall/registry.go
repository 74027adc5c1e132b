package moduleinstall

import (
	"context"
	"sync"

	"github.com/tfdeps/tfdeps/moduleaddr"
	"github.com/tfdeps/tfdeps/registry"
)

// Registry is what the installer needs of the module registry protocol
// (modules.md §3); *registry.Client implements it.
type Registry interface {
	ModuleVersions(ctx context.Context, pkg moduleaddr.Registry) ([]string, error)
	ModuleLocation(ctx context.Context, src moduleaddr.Registry, version string) (registry.ModulePackageLocation, error)
	FetchModulePackage(ctx context.Context, loc *registry.DirectModuleLocation, tmpDir, targetDir string) (string, error)
}

var _ Registry = (*registry.Client)(nil)

// resolver memoises registry answers for one run: versions once per
// package (§3.2), locations once per (package, version, subdirectory)
// (§3.4); the prefetcher and the walk both go through it, so each is
// requested once. Failures are remembered too, so the walk reports what
// the prefetcher saw without asking again.
type resolver struct {
	reg Registry

	mu        sync.Mutex
	versions  map[moduleaddr.Registry]*onceResult[[]string]
	locations map[string]*onceResult[registry.ModulePackageLocation]
}

type onceResult[T any] struct {
	once sync.Once
	val  T
	err  error
}

func newResolver(reg Registry) *resolver {
	return &resolver{reg: reg, versions: map[moduleaddr.Registry]*onceResult[[]string]{}, locations: map[string]*onceResult[registry.ModulePackageLocation]{}}
}

func (r *resolver) Versions(ctx context.Context, src moduleaddr.Registry) ([]string, error) {
	pkg := src.Package()
	r.mu.Lock()
	o := r.versions[pkg]
	if o == nil {
		o = &onceResult[[]string]{}
		r.versions[pkg] = o
	}
	r.mu.Unlock()
	o.once.Do(func() { o.val, o.err = r.reg.ModuleVersions(ctx, pkg) })
	return o.val, o.err
}

func (r *resolver) Location(ctx context.Context, src moduleaddr.Registry, v string) (registry.ModulePackageLocation, error) {
	k := src.String() + "@" + v
	r.mu.Lock()
	o := r.locations[k]
	if o == nil {
		o = &onceResult[registry.ModulePackageLocation]{}
		r.locations[k] = o
	}
	r.mu.Unlock()
	o.once.Do(func() { o.val, o.err = r.reg.ModuleLocation(ctx, src, v) })
	return o.val, o.err
}
