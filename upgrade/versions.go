package upgrade

import (
	"context"
	"sync"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/moduleaddr"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/versions"
)

// ProviderVersions lists a provider's available versions: a
// providersource.Source (registry, mirrors, as the CLI configuration's
// provider_installation says) has the method.
type ProviderVersions interface {
	AvailableVersions(ctx context.Context, p addrs.Provider) (versions.List, providersource.Warnings, error)
}

// ModuleVersions lists a registry module package's versions: a
// registry.Client has the method.
type ModuleVersions interface {
	ModuleVersions(ctx context.Context, pkg moduleaddr.Registry) ([]string, error)
}

// Versions asks each provider's and each module package's versions once
// and remembers the answer (errors included) for the rest of the run:
// one Versions shared by the Outdated calls of many root modules makes
// one request per provider and per module package in all. It is safe
// for concurrent use; concurrent asks for the same address wait for the
// one request.
type Versions struct {
	providers ProviderVersions
	modules   ModuleVersions

	mu   sync.Mutex
	prov map[addrs.Provider]*answer[versions.List]
	mods map[moduleaddr.Registry]*answer[[]string]
}

type answer[T any] struct {
	done     chan struct{}
	value    T
	warnings []string
	err      error
}

// NewVersions answers from providers and modules (either may be nil: its
// questions then fail).
func NewVersions(providers ProviderVersions, modules ModuleVersions) *Versions {
	return &Versions{
		providers: providers, modules: modules,
		prov: map[addrs.Provider]*answer[versions.List]{},
		mods: map[moduleaddr.Registry]*answer[[]string]{},
	}
}

// Provider is p's available versions and the source's warnings.
func (v *Versions) Provider(ctx context.Context, p addrs.Provider) (versions.List, []string, error) {
	a := remember(v, v.prov, p, func() (versions.List, []string, error) {
		if v.providers == nil {
			return nil, nil, errNoSource
		}
		list, w, err := v.providers.AvailableVersions(ctx, p)
		return list, w, err
	})
	return a.value, a.warnings, a.err
}

// Module is the versions the registry lists for the module package pkg
// (its subdirectory ignored).
func (v *Versions) Module(ctx context.Context, pkg moduleaddr.Registry) ([]string, error) {
	pkg = pkg.Package()
	a := remember(v, v.mods, pkg, func() ([]string, []string, error) {
		if v.modules == nil {
			return nil, nil, errNoSource
		}
		list, err := v.modules.ModuleVersions(ctx, pkg)
		return list, nil, err
	})
	return a.value, a.err
}

func remember[K comparable, T any](v *Versions, m map[K]*answer[T], key K, ask func() (T, []string, error)) *answer[T] {
	v.mu.Lock()
	a, ok := m[key]
	if !ok {
		a = &answer[T]{done: make(chan struct{})}
		m[key] = a
	}
	v.mu.Unlock()
	if ok {
		<-a.done
		return a
	}
	a.value, a.warnings, a.err = ask()
	close(a.done)
	return a
}
