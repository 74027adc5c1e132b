package providerinstall

import (
	"context"
	"slices"
	"sync"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/versions"
)

// Requirements maps every required provider to the intersection of its
// version constraints (nil for none).
type Requirements map[addrs.Provider]versions.Constraints

// Mode is how the installer treats versions already in the lock file.
type Mode int

const (
	// NewProvidersOnly keeps locked versions (they must still meet the
	// constraints) and verifies packages against the lock's hashes: init.
	NewProvidersOnly Mode = iota
	// Upgrade ignores locked versions and picks the newest acceptable one;
	// packages are verified only when that is the locked version: init
	// -upgrade.
	Upgrade
	// Force keeps locked versions and verifies nothing: providers lock.
	Force
)

// DefaultConcurrency bounds the providers queried or installed at once.
const DefaultConcurrency = 8

// Installer installs providers into a working directory, as "tofu init"
// does (init.md §3–§7). Fill the fields, then call Install.
type Installer struct {
	// Source answers version and package queries.
	Source Source
	// Target is the working directory's providers directory.
	Target Dir
	// Cache is the plugin cache, nil for none.
	Cache *Dir
	// CacheMayBreakLockFile is plugin_cache_may_break_dependency_lock_file.
	CacheMayBreakLockFile bool
	// Platform is the target platform.
	Platform addrs.Platform
	// Unmanaged providers (TF_REATTACH_PROVIDERS) are skipped silently.
	Unmanaged map[addrs.Provider]bool
	// EnforceGPG is OPENTOFU_ENFORCE_GPG_VALIDATION=true: registry-reported
	// hashes of registry.opentofu.org count only when signed.
	EnforceGPG bool
	// Downloader fetches packages served over HTTP (registries, network
	// mirrors); nil refuses them.
	Downloader Downloader
	// Concurrency bounds parallel work; 0 means DefaultConcurrency.
	Concurrency int
	// Extract bounds package archives.
	Extract ExtractOptions
	// MemoDir holds the "h1:" memos of installed packages, which spare a
	// warm init reading them (layout_memo.go); "" keeps none. tfdeps uses
	// DefaultMemoDir.
	MemoDir string
	// Flavour is the product whose layout and events the installer
	// follows. For Terraform (layout_terraform.go): no lock file beside
	// packages (they go to LockDir), no directory left by a failed
	// install, and Terraform's progress events with a plugin cache.
	Flavour flavour.Flavour
	// LockDir holds the package lock files in the Terraform flavour;
	// "" means DefaultLockDir.
	LockDir string
	// Packages, when set, extracts each downloaded archive once for many
	// installations (SharedPackages); nil extracts every one.
	Packages *SharedPackages

	// hasher computes the "h1:" hashes of package directories in Target
	// and Cache, with their memos (layout_memo.go).
	hasher dirHasher
}

// Result is what an installation produced.
type Result struct {
	// Locks are the new selections (old ones kept for providers untouched,
	// pruned of providers no longer required).
	Locks *lockfile.Locks
	// Incomplete lists, sorted, the providers whose new lock entry holds
	// only locally computed hashes (init.md §9).
	Incomplete []addrs.Provider
}

// Install installs every requirement, starting from the selections in old
// (not modified), and returns the new selections. On failure it returns
// the partial result with an *InstallError; a cancelled ctx stops the work
// and its error is among the providers' errors.
func (in *Installer) Install(ctx context.Context, reqs Requirements, old *lockfile.Locks, mode Mode, events *Events) (*Result, error) {
	ev := events.withDefaults()
	if in.MemoDir != "" {
		in.hasher.memoDir = in.MemoDir
	}
	if old == nil {
		old = lockfile.New()
	}
	if in.Flavour == flavour.Terraform {
		in.useTerraformLayout()
		ev = ev.terraform()
	}
	ev.PendingProviders(reqs)
	run := &installRun{in: in, mode: mode, ev: ev, old: old, locks: copyLocks(old), failed: map[addrs.Provider]error{}}
	defer run.created.removeEmpty()

	candidates := run.candidates(reqs)                                                    // phase A
	selected := run.chooseVersions(ctx, candidates)                                       // phase B
	fresh := run.installAll(ctx, reqs, selected)                                          // phase C
	if slices.ContainsFunc(fresh, func(f freshInstall) bool { return f.auth.Signed() }) { // phase D
		ev.ProvidersSigned()
	}
	for _, p := range run.locks.Addresses() { // phase E
		if _, ok := reqs[p]; !ok {
			run.locks.RemoveProvider(p)
		}
	}
	res := &Result{Locks: run.locks, Incomplete: incompleteProviders(fresh)}
	if len(run.failed) > 0 { // phase F
		return res, &InstallError{Providers: run.failed}
	}
	return res, nil
}

// installRun is the state of one Install call.
type installRun struct {
	in    *Installer
	mode  Mode
	ev    *Events
	old   *lockfile.Locks
	locks *lockfile.Locks // working copy

	mu     sync.Mutex
	failed map[addrs.Provider]error

	// created are the directories of failed installs (Terraform flavour).
	created createdDirs
}

func (r *installRun) fail(p addrs.Provider, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed[p] = err
}

func (r *installRun) concurrency() int {
	if r.in.Concurrency > 0 {
		return r.in.Concurrency
	}
	return DefaultConcurrency
}

// forEach runs task for every index of n with bounded concurrency, giving
// each its ordered event slot, and returns when all are done.
func (r *installRun) forEach(n int, task func(i int, pe providerEvents)) {
	ord := newOrderedEvents(n)
	sem := make(chan struct{}, r.concurrency())
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			defer ord.finish(i)
			task(i, providerEvents{ev: r.ev, ord: ord, slot: i})
		}()
	}
	wg.Wait()
}

func copyLocks(old *lockfile.Locks) *lockfile.Locks {
	out := lockfile.New()
	if old == nil {
		return out
	}
	// SetProvider sorts and de-duplicates hashes; every entry that stays
	// is rewritten by phase C anyway, which does the same (init.md §5.9).
	for _, p := range old.Providers() {
		out.SetProvider(p.Provider(), p.Version(), p.Constraints(), p.Hashes())
	}
	return out
}

func sortProviders(ps []addrs.Provider) {
	slices.SortFunc(ps, addrs.Provider.Compare)
}
