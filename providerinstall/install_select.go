package providerinstall

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// builtInProviderTypes are the provider types built into OpenTofu.
var builtInProviderTypes = map[string]bool{"terraform": true}

// candidate is a provider that goes on to version selection.
type candidate struct {
	provider    addrs.Provider
	constraints versions.Constraints
	// locked is set when the lock file fixes the version.
	locked        bool
	lockedVersion versions.Version
}

// selection is a provider with its chosen version.
type selection struct {
	candidate
	version versions.Version
}

// candidates is phase A: built-in and unmanaged providers are settled,
// locked versions checked against the constraints. It runs sequentially,
// in address order, and returns the rest in that order.
func (r *installRun) candidates(reqs Requirements) []candidate {
	var out []candidate
	for _, p := range slices.SortedFunc(maps.Keys(reqs), addrs.Provider.Compare) {
		c := reqs[p]
		switch {
		case p.IsBuiltIn():
			r.builtIn(p, c)
			continue
		case r.in.Unmanaged[p]:
			continue
		}
		cand := candidate{provider: p, constraints: c}
		if lock := r.old.Provider(p); lock != nil && r.mode != Upgrade {
			if !c.Allows(lock.Version()) {
				r.ev.ReusingPreviousVersion(p)
				err := &LockedMismatchError{Provider: p, Version: lock.Version(), Constraints: c, Flavour: r.in.Flavour}
				r.ev.QueryFailure(p, err)
				r.fail(p, &ProviderError{Provider: p, Phase: PhaseQuery, Err: err})
				continue
			}
			cand.locked, cand.lockedVersion = true, lock.Version()
		}
		out = append(out, cand)
	}
	return out
}

func (r *installRun) builtIn(p addrs.Provider, c versions.Constraints) {
	var err error
	switch {
	case !builtInProviderTypes[p.Type]:
		err = &BuiltInError{Provider: p, Flavour: r.in.Flavour}
	case len(c) > 0:
		err = &BuiltInError{Provider: p, Constrained: true, Flavour: r.in.Flavour}
	default:
		r.ev.BuiltInAvailable(p)
		return
	}
	r.ev.BuiltInFailure(p, err)
	r.fail(p, err)
}

// chooseVersions is phase B: one task per candidate, concurrently, each
// choosing a version. Failed candidates are left out of the result, which
// keeps address order.
func (r *installRun) chooseVersions(ctx context.Context, cands []candidate) []selection {
	results := make([]*selection, len(cands))
	r.forEach(len(cands), func(i int, pe providerEvents) {
		c := cands[i]
		v, err := r.chooseVersion(ctx, c, pe)
		if err != nil {
			pe.send(func(ev *Events) { ev.QueryFailure(c.provider, err) })
			r.fail(c.provider, &ProviderError{Provider: c.provider, Phase: PhaseQuery, Err: err})
			return
		}
		pe.send(func(ev *Events) { ev.VersionSelected(c.provider, v) })
		results[i] = &selection{candidate: c, version: v}
	})
	var out []selection
	for _, s := range results {
		if s != nil {
			out = append(out, *s)
		}
	}
	return out
}

func (r *installRun) chooseVersion(ctx context.Context, c candidate, pe providerEvents) (versions.Version, error) {
	p := c.provider
	switch {
	case c.locked:
		pe.send(func(ev *Events) { ev.ReusingPreviousVersion(p) })
	default:
		pe.send(func(ev *Events) { ev.FindingVersions(p, c.constraints) })
	}
	if c.locked && c.lockedVersion.IsZero() {
		return versions.Version{}, versions.ZeroVersionError{}
	}
	if c.locked && r.installedLocally(p, c.lockedVersion) {
		r.warmQuery(ctx, p, pe)
		return c.lockedVersion, nil
	}
	if err := ctx.Err(); err != nil {
		return versions.Version{}, err
	}
	available, warnings, err := r.in.Source.AvailableVersions(ctx, p)
	if len(warnings) > 0 {
		pe.send(func(ev *Events) { ev.QueryWarnings(p, warnings) })
	}
	if err != nil {
		return versions.Version{}, err
	}
	if c.locked {
		return versions.SelectLocked(available, c.lockedVersion)
	}
	return versions.SelectNewest(available, c.constraints)
}

// warmQueryTimeout bounds warmQuery.
const warmQueryTimeout = 10 * time.Second

// warmQuery asks for p's versions list when the lock file and an installed
// package already decide, only for the registry's warnings: OpenTofu asks
// on every init and shows them. Unlike OpenTofu, a failure here does not
// stop init (the answer is not needed).
func (r *installRun) warmQuery(ctx context.Context, p addrs.Provider, pe providerEvents) {
	ctx, cancel := context.WithTimeout(ctx, warmQueryTimeout)
	defer cancel()
	_, warnings, err := r.in.Source.AvailableVersions(ctx, p)
	if err == nil && len(warnings) > 0 {
		pe.send(func(ev *Events) { ev.QueryWarnings(p, warnings) })
	}
}

// installedLocally reports whether the locked version v of p is already
// in the plugin cache (OpenTofu's rule) or in the target directory (a
// tfdeps addition: a second init makes no request at all; the package is
// still checked against the lock's hashes before it is used).
func (r *installRun) installedLocally(p addrs.Provider, v versions.Version) bool {
	if r.in.Cache != nil {
		if _, ok := r.in.Cache.Lookup(p, v, r.in.Platform); ok {
			return true
		}
	}
	_, ok := r.in.Target.Lookup(p, v, r.in.Platform)
	return ok
}
