package moduleinstall

import (
	"context"
	"sync"

	"github.com/tfdeps/tfdeps/moduleaddr"
	"github.com/tfdeps/tfdeps/registry"
)

// SharedRegistry answers, for many installations in one process (the roots
// of a fleet), each package's versions list and each package version's
// location once: the first installation to ask waits for the registry,
// those asking meanwhile wait for that answer, later ones get it at once.
// Only answers are shared: after a failure the next installation asks
// again, so each reports its own error as a single installation would.
// Package downloads go to the wrapped registry. It is safe for concurrent
// use.
type SharedRegistry struct {
	reg Registry

	mu        sync.Mutex
	versions  map[moduleaddr.Registry]*sharedCall[[]string]
	locations map[string]*sharedCall[registry.ModulePackageLocation]
}

var _ Registry = (*SharedRegistry)(nil)

// NewSharedRegistry shares reg's answers.
func NewSharedRegistry(reg Registry) *SharedRegistry {
	return &SharedRegistry{
		reg:       reg,
		versions:  map[moduleaddr.Registry]*sharedCall[[]string]{},
		locations: map[string]*sharedCall[registry.ModulePackageLocation]{},
	}
}

// Underlying returns the registry whose answers are shared.
func (s *SharedRegistry) Underlying() Registry { return s.reg }

type sharedCall[T any] struct {
	done chan struct{}
	val  T
	err  error
}

// share returns calls[key]'s answer, running ask when nobody holds one;
// a failed call is forgotten once its waiters have it.
func share[K comparable, T any](ctx context.Context, mu *sync.Mutex, calls map[K]*sharedCall[T], key K, ask func() (T, error)) (T, error) {
	mu.Lock()
	c, ok := calls[key]
	if !ok {
		c = &sharedCall[T]{done: make(chan struct{})}
		calls[key] = c
	}
	mu.Unlock()
	if ok {
		select {
		case <-c.done:
			if c.err == nil {
				return c.val, nil
			}
			// The holder failed: ask for ourselves.
			return ask()
		case <-ctx.Done():
			var zero T
			return zero, ctx.Err()
		}
	}
	c.val, c.err = ask()
	if c.err != nil {
		mu.Lock()
		delete(calls, key)
		mu.Unlock()
	}
	close(c.done)
	return c.val, c.err
}

// ModuleVersions returns pkg's available versions.
func (s *SharedRegistry) ModuleVersions(ctx context.Context, pkg moduleaddr.Registry) ([]string, error) {
	return share(ctx, &s.mu, s.versions, pkg, func() ([]string, error) { return s.reg.ModuleVersions(ctx, pkg) })
}

// ModuleLocation returns where src's package of version is.
func (s *SharedRegistry) ModuleLocation(ctx context.Context, src moduleaddr.Registry, version string) (registry.ModulePackageLocation, error) {
	return share(ctx, &s.mu, s.locations, src.String()+"@"+version, func() (registry.ModulePackageLocation, error) {
		return s.reg.ModuleLocation(ctx, src, version)
	})
}

// FetchModulePackage downloads a package from the registry itself (not
// shared: the module package cache does that).
func (s *SharedRegistry) FetchModulePackage(ctx context.Context, loc *registry.DirectModuleLocation, tmpDir, targetDir string) (string, error) {
	return s.reg.FetchModulePackage(ctx, loc, tmpDir, targetDir)
}
