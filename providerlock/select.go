package providerlock

import (
	"context"
	"sync"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/versions"
)

// choice is a provider's chosen version, or why there is none.
type choice struct {
	version versions.Version
	err     error
}

// chooseVersions picks every provider's version concurrently, as the
// installer's force mode does: a locked version is kept (and must still
// meet the constraints and be available), otherwise the newest version
// meeting the constraints is taken.
func (l *Locker) chooseVersions(ctx context.Context, providers []addrs.Provider, reqs Requirements, old *lockfile.Locks) []choice {
	out := make([]choice, len(providers))
	sem := make(chan struct{}, l.parallelism())
	var wg sync.WaitGroup
	for i, p := range providers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			v, err := l.chooseVersion(ctx, p, reqs[p], old.Provider(p))
			out[i] = choice{version: v, err: err}
		}()
	}
	wg.Wait()
	return out
}

func (l *Locker) chooseVersion(ctx context.Context, p addrs.Provider, c versions.Constraints, lock *lockfile.ProviderLock) (versions.Version, error) {
	if lock != nil {
		if !c.Allows(lock.Version()) {
			return versions.Version{}, &providerinstall.LockedMismatchError{Provider: p, Version: lock.Version(), Constraints: c, Flavour: l.Flavour}
		}
		if lock.Version().IsZero() {
			return versions.Version{}, versions.ZeroVersionError{}
		}
	}
	if err := ctx.Err(); err != nil {
		return versions.Version{}, err
	}
	available, _, err := l.Source.AvailableVersions(ctx, p)
	if err != nil {
		return versions.Version{}, err
	}
	if lock != nil {
		return versions.SelectLocked(available, lock.Version())
	}
	return versions.SelectNewest(available, c)
}
