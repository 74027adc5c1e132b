package providersource

import (
	"context"
	"sync"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// Memoize asks its source at most once per provider for versions and once
// per (provider, version, platform) for package metadata, remembering errors
// too. Concurrent first calls for the same key wait for one answer; calls
// for different keys run in parallel.
type Memoize struct {
	source Source

	mu       sync.Mutex
	versions map[addrs.Provider]*memoVersions
	packages map[packageKey]*memoPackage
}

var _ Source = (*Memoize)(nil)

type packageKey struct {
	provider addrs.Provider
	version  versions.Version
	target   addrs.Platform
}

type memoVersions struct {
	once     sync.Once
	list     versions.List
	warnings Warnings
	err      error
}

type memoPackage struct {
	once sync.Once
	meta PackageMeta
	err  error
}

// NewMemoize wraps source.
func NewMemoize(source Source) *Memoize {
	return &Memoize{
		source:   source,
		versions: map[addrs.Provider]*memoVersions{},
		packages: map[packageKey]*memoPackage{},
	}
}

// AvailableVersions returns the remembered answer, asking the source once.
// The caller must not modify the returned list.
func (m *Memoize) AvailableVersions(ctx context.Context, provider addrs.Provider) (versions.List, Warnings, error) {
	m.mu.Lock()
	e := m.versions[provider]
	if e == nil {
		e = &memoVersions{}
		m.versions[provider] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.list, e.warnings, e.err = m.source.AvailableVersions(ctx, provider) })
	return e.list, e.warnings, e.err
}

// PackageMeta returns the remembered answer, asking the source once.
func (m *Memoize) PackageMeta(ctx context.Context, provider addrs.Provider, version versions.Version, target addrs.Platform) (PackageMeta, error) {
	key := packageKey{provider, version, target}
	m.mu.Lock()
	e := m.packages[key]
	if e == nil {
		e = &memoPackage{}
		m.packages[key] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.meta, e.err = m.source.PackageMeta(ctx, provider, version, target) })
	return e.meta, e.err
}

// ForDisplay is the source's.
func (m *Memoize) ForDisplay(provider addrs.Provider) string { return m.source.ForDisplay(provider) }
