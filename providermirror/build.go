package providermirror

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// Problem is an error to report, with OpenTofu's summary and detail.
type Problem struct {
	Summary, Detail string
}

// Events receives the builder's progress lines. Every field is optional;
// calls are serialised, providers in address order, platforms as given,
// except DownloadProgress and DownloadEnded, which are for a live
// display: they come from the goroutines that download, as bytes arrive,
// in no fixed order and concurrently.
type Events struct {
	Skipping  func(p addrs.Provider)
	Mirroring func(p addrs.Provider)
	// Selected: v was chosen; locked says it comes from the lock file,
	// otherwise c are the constraints (empty for none).
	Selected      func(p addrs.Provider, v versions.Version, locked bool, c versions.Constraints)
	Downloading   func(p addrs.Provider, platform addrs.Platform)
	Authenticated func(p addrs.Provider, platform addrs.Platform, auth *registry.AuthResult)
	// DownloadProgress: done of total bytes (total <= 0: unknown) of the
	// package of p v for platform are in. A package already in the target
	// that passes authentication is not downloaded and has none.
	DownloadProgress func(p addrs.Provider, v versions.Version, platform addrs.Platform, done, total int64)
	// DownloadEnded: that download ended, successfully or not.
	DownloadEnded func(p addrs.Provider, v versions.Version, platform addrs.Platform)
	// Pushed: p v was stored in the OCI registry (Builder.OCI), after
	// its platforms' lines.
	Pushed func(p addrs.Provider, v versions.Version, res providersource.OCIPushResult)
}

// Builder fills a mirror directory. Fill the fields, then call Build.
type Builder struct {
	// Source is the origin registries.
	Source providersource.Source
	// Client downloads packages; its settings' flavour words the
	// problems.
	Client *registry.Client
	// Target is the mirror directory; "" with OCI set: a temporary
	// directory, removed when Build returns.
	Target string
	// OCI, when set, also receives every provider version whose
	// platforms were all mirrored, in OpenTofu's OCI layout (oci.go).
	OCI *providersource.OCIMirror
	// Parallelism bounds the platforms of one provider handled at once
	// (default 4).
	Parallelism int
}

// Request is what to mirror.
type Request struct {
	Requirements map[addrs.Provider]versions.Constraints
	// Locked are the lock file's selections; when not empty, every
	// provider must have one and its version is used.
	Locked    map[addrs.Provider]versions.Version
	Platforms []addrs.Platform
}

// Build mirrors every provider, then writes the JSON indexes of every
// provider found in the target directory. Problems of one provider or
// platform do not stop the others.
func (b *Builder) Build(ctx context.Context, req Request, ev *Events) []Problem {
	ev = ev.withDefaults()
	var problems []Problem
	cleanup, err := b.temporaryTarget()
	if err != nil {
		return []Problem{{"Cannot create a temporary directory", fmt.Sprintf("Failed to create a directory for the downloads: %s.", err)}}
	}
	defer cleanup()
	fresh := map[archiveKey][]hashes.Hash{}
	providers := make([]addrs.Provider, 0, len(req.Requirements))
	for p := range req.Requirements {
		providers = append(providers, p)
	}
	slices.SortFunc(providers, addrs.Provider.Compare)
	for _, p := range providers {
		if p.IsBuiltIn() {
			ev.Skipping(p)
			continue
		}
		ev.Mirroring(p)
		v, prob := b.chooseVersion(ctx, p, req, ev)
		if prob != nil {
			problems = append(problems, *prob)
			continue
		}
		problems = append(problems, b.mirrorVersion(ctx, p, v, req.Platforms, ev, fresh)...)
	}
	return append(problems, b.writeIndexes(fresh)...)
}

func (b *Builder) chooseVersion(ctx context.Context, p addrs.Provider, req Request, ev *Events) (versions.Version, *Problem) {
	c := req.Requirements[p]
	available, _, err := b.Source.AvailableVersions(ctx, p)
	var candidates versions.List
	for _, v := range available {
		if c.Allows(v) {
			candidates = append(candidates, v)
		}
	}
	if err == nil && len(candidates) == 0 {
		err = fmt.Errorf("no releases match the given constraints %s", c)
	}
	if err != nil {
		return versions.Version{}, &Problem{"Provider not available", fmt.Sprintf("Failed to download %s from its origin registry: %s.", p, err)}
	}
	if len(req.Locked) > 0 {
		v, ok := req.Locked[p]
		if !ok {
			return versions.Version{}, &Problem{"Provider not found in lockfile", fmt.Sprintf("Failed to find %s in the lock file", p)}
		}
		ev.Selected(p, v, true, c)
		return v, nil
	}
	v, err := versions.SelectNewest(candidates, nil)
	if err != nil {
		return versions.Version{}, &Problem{"Provider not available", fmt.Sprintf("Failed to download %s from its origin registry: %s.", p, err)}
	}
	ev.Selected(p, v, false, c)
	return v, nil
}

// platformOutcome is one platform's result, reported in order.
type platformOutcome struct {
	auth    *registry.AuthResult
	problem *Problem
}

// mirrorVersion places p v for every platform, concurrently, and reports
// the platforms in the order given.
func (b *Builder) mirrorVersion(ctx context.Context, p addrs.Provider, v versions.Version, platforms []addrs.Platform, ev *Events, fresh map[archiveKey][]hashes.Hash) []Problem {
	outs := make([]platformOutcome, len(platforms))
	sem := make(chan struct{}, b.parallelism())
	var wg sync.WaitGroup
	for i, pl := range platforms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			outs[i] = b.mirrorPackage(ctx, p, v, pl, ev)
		}()
	}
	wg.Wait()
	var problems []Problem
	for i, pl := range platforms {
		ev.Downloading(p, pl)
		if outs[i].problem != nil {
			problems = append(problems, *outs[i].problem)
			continue
		}
		ev.Authenticated(p, pl, outs[i].auth)
		fresh[archiveKey{p, v.String(), pl}] = indexHashes(outs[i].auth, pl)
	}
	if b.OCI != nil && len(problems) == 0 {
		if prob := b.pushVersion(ctx, p, v, platforms, outs, ev); prob != nil {
			problems = append(problems, *prob)
		}
	}
	return problems
}

func (b *Builder) parallelism() int {
	if b.Parallelism > 0 {
		return b.Parallelism
	}
	return 4
}

// indexHashes are the hashes of an authentication result that belong to
// the platform and were verified or reported (OpenTofu's choice).
func indexHashes(auth *registry.AuthResult, pl addrs.Platform) []hashes.Hash {
	return auth.Where(func(d registry.Disposition) bool {
		return d.Platform == pl && (d.VerifiedLocally || d.ReportedByRegistry || d.ReportedByTrustedMirror)
	})
}

// archivePath is where the package of p v for pl goes.
func (b *Builder) archivePath(p addrs.Provider, v versions.Version, pl addrs.Platform) string {
	name := fmt.Sprintf("terraform-provider-%s_%s_%s.zip", p.Type, v, pl)
	return filepath.Join(b.typeDir(p), name)
}

func (b *Builder) typeDir(p addrs.Provider) string {
	return filepath.Join(b.Target, addrs.HostnameForDisplay(p.Hostname), p.Namespace, p.Type)
}

func (e *Events) withDefaults() *Events {
	out := &Events{}
	if e != nil {
		*out = *e
	}
	if out.Skipping == nil {
		out.Skipping = func(addrs.Provider) {}
	}
	if out.Mirroring == nil {
		out.Mirroring = func(addrs.Provider) {}
	}
	if out.Selected == nil {
		out.Selected = func(addrs.Provider, versions.Version, bool, versions.Constraints) {}
	}
	if out.Downloading == nil {
		out.Downloading = func(addrs.Provider, addrs.Platform) {}
	}
	if out.Authenticated == nil {
		out.Authenticated = func(addrs.Provider, addrs.Platform, *registry.AuthResult) {}
	}
	if out.Pushed == nil {
		out.Pushed = func(addrs.Provider, versions.Version, providersource.OCIPushResult) {}
	}
	if out.DownloadEnded == nil {
		out.DownloadEnded = func(addrs.Provider, versions.Version, addrs.Platform) {}
	}
	return out
}
