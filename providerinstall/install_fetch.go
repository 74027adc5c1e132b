package providerinstall

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/versions"
)

// freshInstall is a provider installed from its source in this run (not
// found already installed), with what the recorded hashes were made of.
type freshInstall struct {
	provider addrs.Provider
	auth     *AuthResult
	hashes   recordedHashes
}

// installAll is phase C: one task per selected provider, concurrently. It
// returns the fresh installs in address order.
func (r *installRun) installAll(ctx context.Context, reqs Requirements, sel []selection) []freshInstall {
	results := make([]*freshInstall, len(sel))
	r.forEach(len(sel), func(i int, pe providerEvents) {
		s := sel[i]
		task := &fetchTask{run: r, pe: pe, p: s.provider, v: s.version}
		newHashes, fresh, err := task.install(ctx)
		if err != nil {
			r.fail(s.provider, err)
			return
		}
		if fresh != nil {
			results[i] = fresh
		}
		if len(newHashes) > 0 {
			r.mu.Lock()
			r.locks.SetProvider(s.provider, s.version, reqs[s.provider], newHashes)
			r.mu.Unlock()
		}
	})
	var out []freshInstall
	for _, f := range results {
		if f != nil {
			out = append(out, *f)
		}
	}
	return out
}

// fetchTask installs one provider version (init.md §5).
type fetchTask struct {
	run *installRun
	pe  providerEvents
	p   addrs.Provider
	v   versions.Version
}

func (t *fetchTask) platform() addrs.Platform { return t.run.in.Platform }

// preferred returns the lock's h1:/zh: hashes when it locks this version,
// and the lock's hashes as they are.
func (t *fetchTask) preferred() (preferred, asIs []hashes.Hash) {
	lock := t.run.old.Provider(t.p)
	if lock == nil || lock.Version() != t.v {
		return nil, nil
	}
	return lock.PreferredHashes(), lock.Hashes()
}

// install runs steps 1–9 and returns the hashes to record (nil: leave the
// lock entry alone) and, for a fresh install, what they were made of.
func (t *fetchTask) install(ctx context.Context) ([]hashes.Hash, *freshInstall, error) {
	in := t.run.in
	preferred, asIs := t.preferred()
	if t.run.mode == Force {
		preferred = nil
	}

	if in.Cache != nil {
		in.Target.cleanStaleStaging(t.p, t.v, t.platform(), *in.Cache)
		in.Cache.cleanStaleStaging(t.p, t.v, t.platform())
	} else {
		in.Target.cleanStaleStaging(t.p, t.v, t.platform())
	}

	// Step 1: already in the target directory.
	if ok, err := t.matchesInstalled(in.Target, preferred); err != nil {
		return nil, nil, t.fetchErr(err)
	} else if ok {
		t.pe.send(func(ev *Events) { ev.UsingPreviouslyInstalled(t.p, t.v) })
		return asIs, nil, nil
	}

	// Steps 2–3: the plugin cache, when configured, receives the install.
	installTo, toCache := in.Target, in.Cache != nil
	if toCache {
		installTo = *in.Cache
		if ok, err := t.matchesInstalled(installTo, preferred); err != nil {
			return nil, nil, t.fetchErr(err)
		} else if ok {
			t.pe.send(func(ev *Events) { ev.DetectedInCache(t.p, t.v) })
			return asIs, nil, t.linkFromCache(ctx)
		}
	}

	// Steps 4–7: a fresh install.
	fresh, err := t.fetch(ctx, installTo, toCache, preferred)
	if err != nil {
		return nil, nil, err
	}
	if toCache {
		if err := t.linkFromCache(ctx); err != nil {
			return nil, nil, err
		}
	}
	return fresh.hashes.all(), fresh, nil
}

// fetch is steps 4–7: package metadata, install into installTo, checks,
// hashes to record.
func (t *fetchTask) fetch(ctx context.Context, installTo Dir, toCache bool, preferred []hashes.Hash) (*freshInstall, error) {
	if err := ctx.Err(); err != nil {
		return nil, t.fetchErr(err)
	}
	meta, err := t.run.in.Source.PackageMeta(ctx, t.p, t.v, t.platform())
	if err != nil {
		return nil, t.fetchErr(err)
	}
	t.pe.send(func(ev *Events) { ev.Installing(t.p, t.v, toCache) })
	pkg := &packageInstall{task: t, meta: meta, into: installTo, toCache: toCache, allowed: preferred}
	auth, h1, err := pkg.run(ctx)
	if err != nil {
		return nil, t.fetchErr(err)
	}
	dir := installTo.PackageDir(t.p, t.v, t.platform())
	if err := checkInstalled(t.p, dir, t.run.in.Flavour); err != nil {
		return nil, t.fetchErr(err)
	}
	if h1 == "" {
		if h1, err = t.run.in.hasher.H1(dir, t.run.in.hasher.memoPath(dir)); err != nil {
			return nil, t.fetchErr(fmt.Errorf("after installing %s, failed to compute a checksum for it: %w", t.p, err))
		}
	}
	rec := t.run.recordedHashes(t.p, h1, preferred, auth)
	t.pe.send(func(ev *Events) { ev.Installed(t.p, t.v, auth) })
	return &freshInstall{provider: t.p, auth: auth, hashes: rec}, nil
}

// linkFromCache is step 8: the cache's package directory is linked into
// the target.
func (t *fetchTask) linkFromCache(ctx context.Context) error {
	in := t.run.in
	t.pe.send(func(ev *Events) { ev.LinkedFromCache(t.p, t.v) })
	src := in.Cache.PackageDir(t.p, t.v, t.platform())
	dst := in.Target.PackageDir(t.p, t.v, t.platform())
	// Under the cached package's lock: another init of the same working
	// directory may be linking the same package, and Link replaces what is
	// at dst (issue #14: without the lock, one process could remove the
	// link another had just made and was checking). The cache's lock, not
	// the target's: OpenTofu takes no lock to link from the cache, so the
	// target gets no OS_ARCH.lock file.
	lock, err := in.Cache.Lock(ctx, t.p, t.v, t.platform(), LockOptions{})
	if err == nil {
		err = Link(src, dst)
		if err == nil {
			err = checkInstalled(t.p, dst, t.run.in.Flavour)
		}
		_ = lock.Unlock()
	}
	if err != nil {
		err = &ProviderError{Provider: t.p, Version: t.v, Phase: PhaseCacheLink, Err: err}
		if !errors.Is(err, context.Canceled) {
			t.pe.send(func(ev *Events) { ev.CacheLinkFailure(t.p, t.v, err) })
		}
	}
	return err
}

// fetchErr wraps err as a fetch-phase failure and reports it, unless it
// is a cancellation.
func (t *fetchTask) fetchErr(err error) error {
	pe := &ProviderError{Provider: t.p, Version: t.v, Phase: PhaseFetch, Err: err}
	if !errors.Is(err, context.Canceled) {
		t.pe.send(func(ev *Events) { ev.FetchFailure(t.p, t.v, pe) })
	}
	return pe
}

// matchesInstalled reports whether dir holds the task's package matching
// one of preferred (never when preferred is empty).
func (t *fetchTask) matchesInstalled(dir Dir, preferred []hashes.Hash) (bool, error) {
	if len(preferred) == 0 {
		return false, nil
	}
	inst, ok := dir.lookup(t.p, t.v, t.platform(), &t.run.in.hasher)
	if !ok {
		return false, nil
	}
	// A directory that cannot be hashed is not trusted; it is reinstalled.
	ok, err := inst.MatchesAny(preferred)
	return ok && err == nil, nil
}

// checkInstalled is step 7's check: the package directory exists and
// holds the provider's executable.
func checkInstalled(p addrs.Provider, dir string, f flavour.Flavour) error {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return fmt.Errorf("after installing %s it is still not detected in %s; this is a bug in %s", p, dir, f.Product())
	}
	if _, err := FindExecutable(dir, p.Type); err != nil {
		return fmt.Errorf("provider binary not found: %s", err)
	}
	return nil
}
