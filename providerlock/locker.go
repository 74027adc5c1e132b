package providerlock

import (
	"context"
	"maps"
	"slices"
	"sync"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// Requirements maps every lockable required provider to its constraints.
type Requirements map[addrs.Provider]versions.Constraints

// Locker collects the hashes of provider packages for several platforms.
// Fill the fields, then call Collect (any number of times, also
// concurrently: packages are shared between calls).
type Locker struct {
	// Source answers version and package queries: the origin registries or
	// exactly one mirror.
	Source providersource.Source
	// Client downloads packages over HTTP.
	Client *registry.Client
	// Cache is the persistent hash cache; nil for none.
	Cache *HashCache
	// Parallelism bounds the packages handled at once (default
	// DefaultParallelism). The per-host request limit is the transport's
	// (LimitHosts).
	Parallelism int
	// DownloadAll downloads and hashes every package, as OpenTofu does:
	// neither the hash cache nor registry-reported hashes are used (the
	// cache is still filled).
	DownloadAll bool
	// TrustMirrorHashes takes a network mirror's hashes for a platform
	// without downloading the archive to check them (package_frommirror.go).
	// Set it only when the user trusts the mirror: OpenTofu's
	// "providers lock -net-mirror" always downloads.
	TrustMirrorHashes bool
	// Getenv reads OPENTOFU_ENFORCE_GPG_VALIDATION (nil: nothing set).
	Getenv func(string) string
	// Flavour is the product whose rules apply: the Terraform flavour
	// ignores the OPENTOFU_ENFORCE_GPG_* variables, as Terraform has none.
	Flavour flavour.Flavour
	// TempDir holds temporary archives and extracted packages ("": the OS
	// default).
	TempDir string
	// Extract bounds package archives.
	Extract providerinstall.ExtractOptions
	// OCIHashPlatform is the platform whose packages in OCI registries
	// are downloaded to compute their h1: hash; the others are locked by
	// the zh: their manifests give (package_fromoci.go). Zero: the
	// platform this program runs on.
	OCIHashPlatform addrs.Platform
	// MemoryBudget bounds the bytes of downloaded archives held in memory
	// at once (spill.go); 0 means DefaultMemoryBudget, negative none.
	MemoryBudget int64

	once   sync.Once
	memory *memoryBudget
	mu     sync.Mutex
	jobs   map[packageKey]*packageJob
}

func (l *Locker) memoryBudget() *memoryBudget {
	l.once.Do(func() {
		n := l.MemoryBudget
		if n == 0 {
			n = DefaultMemoryBudget
		}
		l.memory = newMemoryBudget(max(n, 0))
	})
	return l.memory
}

// Via says how a package's hashes were obtained.
type Via int

const (
	// Downloaded: the package was fetched (or read from a local mirror)
	// and hashed.
	Downloaded Via = iota + 1
	// FromCache: the hash cache had it, checked against the source.
	FromCache
	// FromRegistry: the registry's signed metadata gave its hashes.
	FromRegistry
	// FromLock: the old lock entry already held the package's hashes
	// (package_fromlock.go).
	FromLock
	// FromMirror: the network mirror's VERSION.json listed its hashes
	// (package_frommirror.go).
	FromMirror
	// FromOCIManifest: an OCI registry's manifests gave its zh: hash,
	// recorded alone (package_fromoci.go).
	FromOCIManifest
)

// PackageResult is the outcome for one provider on one platform.
type PackageResult struct {
	Provider addrs.Provider
	Version  versions.Version
	Platform addrs.Platform
	// Fetched is true once the package was found ("- Fetching" is due).
	Fetched bool
	// Auth is the authentication result (nil: unauthenticated).
	Auth *registry.AuthResult
	// Hashes are what OpenTofu records for this platform, sorted.
	Hashes []hashes.Hash
	Via    Via
	Err    error
}

// PlatformResult holds one platform's packages in provider order, and the
// installer-style error when any failed.
type PlatformResult struct {
	Platform addrs.Platform
	Packages []PackageResult
	Err      *providerinstall.InstallError
}

// Result is what Collect found. Platforms stops after the first platform
// with an error, as OpenTofu stops there.
type Result struct {
	Platforms []PlatformResult
}

// Failed returns the failed platform, or nil.
func (r *Result) Failed() *PlatformResult {
	for i := range r.Platforms {
		if r.Platforms[i].Err != nil {
			return &r.Platforms[i]
		}
	}
	return nil
}

func (l *Locker) parallelism() int {
	if l.Parallelism > 0 {
		return l.Parallelism
	}
	return DefaultParallelism
}

func (l *Locker) getenv(k string) string {
	if l.Getenv == nil {
		return ""
	}
	return l.Getenv(k)
}

// Collect chooses each provider's version (the locked one when old has an
// entry, else the newest meeting the constraints) and obtains the hashes of
// its package for every platform, concurrently. Events are delivered in
// platform order (as given), then provider address order, and none after
// the first platform that failed.
func (l *Locker) Collect(ctx context.Context, reqs Requirements, old *lockfile.Locks, platforms []addrs.Platform, events *Events) *Result {
	if old == nil {
		old = lockfile.New()
	}
	providers := slices.SortedFunc(maps.Keys(reqs), addrs.Provider.Compare)
	chosen := l.chooseVersions(ctx, providers, reqs, old)
	platforms = uniquePlatforms(platforms)
	out := newOrderedOutput(len(platforms), len(providers), events)
	results := make([][]PackageResult, len(platforms))
	for i := range results {
		results[i] = make([]PackageResult, len(providers))
	}
	sem := make(chan struct{}, l.parallelism())
	var wg sync.WaitGroup
	for i, pl := range platforms {
		for j, p := range providers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := l.resultFor(ctx, sem, p, chosen[j], pl, old.Provider(p), events)
				results[i][j] = r
				out.deliver(i, j, r)
			}()
		}
	}
	wg.Wait()
	return assemble(platforms, results)
}

// resultFor is one provider on one platform, its version already chosen.
func (l *Locker) resultFor(ctx context.Context, sem chan struct{}, p addrs.Provider, c choice, pl addrs.Platform, lock *lockfile.ProviderLock, ev *Events) PackageResult {
	r := PackageResult{Provider: p, Version: c.version, Platform: pl, Err: c.err}
	if c.err != nil {
		return r
	}
	if lock != nil && lock.Version() != c.version {
		lock = nil
	}
	o := l.obtain(ctx, sem, p, c.version, pl, lock, ev)
	r.Fetched, r.Auth, r.Via, r.Err = o.fetched, o.auth, o.via, o.err
	if o.err == nil {
		r.Hashes = l.recorded(p, o.dirH1, o.auth)
		if o.only != nil {
			r.Hashes = o.only
		}
	}
	return r
}

// recorded is OpenTofu's choice of hashes for a fresh install (init.md §6):
// the directory's h1:, what was verified locally, and what was signed or,
// unless signing is enforced for p, reported by the registry or mirror.
// Terraform records the directory's h1: and only signed hashes, whatever
// the host: not the checksums a network mirror listed that the download
// matched.
func (l *Locker) recorded(p addrs.Provider, dirH1 hashes.Hash, auth *registry.AuthResult) []hashes.Hash {
	var all []hashes.Hash
	if dirH1 != "" { // "": taken from the old lock entry (FromLock)
		all = append(all, dirH1)
	}
	if l.Flavour != flavour.Terraform {
		all = append(all, auth.Where(func(d registry.Disposition) bool { return d.VerifiedLocally })...)
	}
	if l.Flavour == flavour.Terraform || p.Hostname != addrs.DefaultProviderRegistryHost || l.enforceGPG() {
		all = append(all, auth.Where(func(d registry.Disposition) bool { return len(d.SignedByKeyIDs) > 0 })...)
	} else {
		all = append(all, auth.Where(func(d registry.Disposition) bool { return d.ReportedByRegistry || d.ReportedByTrustedMirror })...)
	}
	return hashes.SortedUnique(all)
}

// enforceGPG is OPENTOFU_ENFORCE_GPG_VALIDATION=true, in the OpenTofu
// flavour only.
func (l *Locker) enforceGPG() bool {
	return l.Flavour != flavour.Terraform && l.getenv("OPENTOFU_ENFORCE_GPG_VALIDATION") == "true"
}

// assemble groups the results per platform, up to the first failure.
func assemble(platforms []addrs.Platform, results [][]PackageResult) *Result {
	res := &Result{}
	for i, pl := range platforms {
		pr := PlatformResult{Platform: pl, Packages: results[i]}
		failed := map[addrs.Provider]error{}
		for _, r := range results[i] {
			if r.Err != nil {
				failed[r.Provider] = r.Err
			}
		}
		if len(failed) > 0 {
			pr.Err = &providerinstall.InstallError{Providers: failed}
		}
		res.Platforms = append(res.Platforms, pr)
		if pr.Err != nil {
			break
		}
	}
	return res
}

func uniquePlatforms(in []addrs.Platform) []addrs.Platform {
	var out []addrs.Platform
	for _, p := range in {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func sortProviders(ps []addrs.Provider) { slices.SortFunc(ps, addrs.Provider.Compare) }
