package providerinstall

import (
	"reflect"
	"sync"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// Events receives the installer's progress. Every field is optional. The
// installer never prints; the CLI turns events into lines, a live display
// or JSON.
//
// Calls are serialised (never two at once). Per-provider events of one
// phase are delivered grouped per provider in ascending address order,
// whatever order the concurrent work finishes in: first the phase-A
// events (built-in providers, locked-version mismatches), then the
// version-selection events, then the installation events, then
// ProvidersSigned. WaitingForCacheLock and DownloadProgress depend on
// timing and are delivered as they happen.
type Events struct {
	// PendingProviders starts the installation, with the requirements.
	PendingProviders func(reqs Requirements)

	// BuiltInAvailable: p is built in and needs nothing.
	BuiltInAvailable func(p addrs.Provider)
	// BuiltInFailure: p is a built-in provider that cannot be used.
	BuiltInFailure func(p addrs.Provider, err error)

	// ReusingPreviousVersion: p's version comes from the lock file.
	ReusingPreviousVersion func(p addrs.Provider)
	// FindingVersions: the newest version of p meeting c is looked up (c
	// is empty for "latest").
	FindingVersions func(p addrs.Provider, c versions.Constraints)
	// QueryWarnings: the source returned warnings about p.
	QueryWarnings func(p addrs.Provider, warnings []string)
	// QueryFailure: no version of p could be selected.
	QueryFailure func(p addrs.Provider, err error)
	// VersionSelected: v was chosen for p.
	VersionSelected func(p addrs.Provider, v versions.Version)

	// UsingPreviouslyInstalled: the target directory already holds p v,
	// matching the lock file.
	UsingPreviouslyInstalled func(p addrs.Provider, v versions.Version)
	// DetectedInCache: the plugin cache already holds p v, matching the
	// lock file.
	DetectedInCache func(p addrs.Provider, v versions.Version)
	// Installing: p v is being installed (into the cache when toCache).
	Installing func(p addrs.Provider, v versions.Version, toCache bool)
	// WaitingForCacheLock: another process holds the lock of a package in
	// dir for more than 5 seconds.
	WaitingForCacheLock func(dir string)
	// DownloadProgress: done of total bytes of p v are downloaded (total
	// is -1 when unknown).
	DownloadProgress func(p addrs.Provider, v versions.Version, done, total int64)
	// Installed: p v was freshly installed; auth may be nil
	// (unauthenticated). In the Terraform flavour auth.Signer and
	// auth.SignerKeyID say who signed it, for Terraform's words
	// (auth.TerraformSummary, auth.ThirdPartySigned).
	Installed func(p addrs.Provider, v versions.Version, auth *AuthResult)
	// LinkedFromCache: p v was linked from the plugin cache into the target.
	LinkedFromCache func(p addrs.Provider, v versions.Version)
	// FetchFailure: p v could not be installed.
	FetchFailure func(p addrs.Provider, v versions.Version, err error)
	// CacheLinkFailure: p v could not be linked from the plugin cache.
	CacheLinkFailure func(p addrs.Provider, v versions.Version, err error)

	// ProvidersSigned: at least one fresh install was signed.
	ProvidersSigned func()
}

// orderedEvents releases per-provider events in slot order: slot i's
// events are delivered at once while every slot before it has finished,
// and are queued otherwise. All deliveries hold one mutex, so callbacks
// never run concurrently.
type orderedEvents struct {
	mu     sync.Mutex
	queued [][]func()
	done   []bool
	head   int
}

func newOrderedEvents(n int) *orderedEvents {
	return &orderedEvents{queued: make([][]func(), n), done: make([]bool, n)}
}

// emit delivers f for slot i, now or when its turn comes.
func (o *orderedEvents) emit(i int, f func()) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if i == o.head {
		f()
		return
	}
	o.queued[i] = append(o.queued[i], f)
}

// now delivers f immediately (under the mutex), out of order.
func (o *orderedEvents) now(f func()) {
	o.mu.Lock()
	defer o.mu.Unlock()
	f()
}

// finish marks slot i complete and releases whatever may go out next.
func (o *orderedEvents) finish(i int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.done[i] = true
	for o.head < len(o.done) {
		for _, f := range o.queued[o.head] {
			f()
		}
		o.queued[o.head] = nil
		if !o.done[o.head] {
			return
		}
		o.head++
	}
}

// providerEvents is the view of Events one provider task gets: every call
// goes through the ordering of its slot.
type providerEvents struct {
	ev   *Events
	ord  *orderedEvents
	slot int
}

func (pe providerEvents) send(f func(ev *Events)) {
	pe.ord.emit(pe.slot, func() { f(pe.ev) })
}

func (pe providerEvents) sendNow(f func(ev *Events)) {
	pe.ord.now(func() { f(pe.ev) })
}

// withDefaults returns a copy of e (nil allowed) whose nil fields do
// nothing, so the installer can call every field unconditionally.
func (e *Events) withDefaults() *Events {
	out := &Events{}
	if e != nil {
		*out = *e
	}
	setDefault(&out.PendingProviders, func(Requirements) {})
	setDefault(&out.BuiltInAvailable, func(addrs.Provider) {})
	setDefault(&out.BuiltInFailure, func(addrs.Provider, error) {})
	setDefault(&out.ReusingPreviousVersion, func(addrs.Provider) {})
	setDefault(&out.FindingVersions, func(addrs.Provider, versions.Constraints) {})
	setDefault(&out.QueryWarnings, func(addrs.Provider, []string) {})
	setDefault(&out.QueryFailure, func(addrs.Provider, error) {})
	setDefault(&out.VersionSelected, func(addrs.Provider, versions.Version) {})
	setDefault(&out.UsingPreviouslyInstalled, func(addrs.Provider, versions.Version) {})
	setDefault(&out.DetectedInCache, func(addrs.Provider, versions.Version) {})
	setDefault(&out.Installing, func(addrs.Provider, versions.Version, bool) {})
	setDefault(&out.WaitingForCacheLock, func(string) {})
	setDefault(&out.DownloadProgress, func(addrs.Provider, versions.Version, int64, int64) {})
	setDefault(&out.Installed, func(addrs.Provider, versions.Version, *AuthResult) {})
	setDefault(&out.LinkedFromCache, func(addrs.Provider, versions.Version) {})
	setDefault(&out.FetchFailure, func(addrs.Provider, versions.Version, error) {})
	setDefault(&out.CacheLinkFailure, func(addrs.Provider, versions.Version, error) {})
	setDefault(&out.ProvidersSigned, func() {})
	return out
}

// terraform returns a copy of e (defaults set) that reports a plugin cache
// as Terraform v1.15 does: an install into the cache is an ordinary
// "Installing" with no "Using … from the shared cache directory" after it,
// and a package found in the cache only gets that "Using" line (no
// "Detected previously-installed" before it). Terraform takes no lock, so
// it never says it waits for one.
func (e *Events) terraform() *Events {
	out := *e
	out.WaitingForCacheLock = func(string) {}
	var mu sync.Mutex
	detected := map[addrs.Provider]bool{}
	out.DetectedInCache = func(p addrs.Provider, v versions.Version) {
		mu.Lock()
		defer mu.Unlock()
		detected[p] = true
	}
	out.Installing = func(p addrs.Provider, v versions.Version, toCache bool) { e.Installing(p, v, false) }
	out.LinkedFromCache = func(p addrs.Provider, v versions.Version) {
		mu.Lock()
		hit := detected[p]
		mu.Unlock()
		if hit {
			e.LinkedFromCache(p, v)
		}
	}
	return &out
}

func setDefault[F any](f *F, def F) {
	if reflect.ValueOf(f).Elem().IsNil() {
		*f = def
	}
}
