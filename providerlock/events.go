package providerlock

import (
	"sync"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// Events receives Collect's progress, the two events "tofu providers
// lock" prints. Every field is optional. Calls of Fetching, Warning and
// Retrieved are serialised and come in a fixed order: platform by
// platform as given, within a platform provider by provider in address
// order; nothing is delivered for the platforms after the first one with
// a failure. DownloadProgress and DownloadEnded are for a live display:
// they come from the goroutines that download, as bytes arrive, in no
// fixed order and concurrently.
type Events struct {
	// Fetching: the package of p v for platform was found and is being
	// obtained.
	Fetching func(p addrs.Provider, v versions.Version, platform addrs.Platform)
	// Warning: a line the package's authentication asks to show (such as
	// the expired-key warning), between Fetching and Retrieved.
	Warning func(line string)
	// Retrieved: the package's hashes are known; auth may be nil.
	Retrieved func(p addrs.Provider, v versions.Version, platform addrs.Platform, auth *registry.AuthResult)
	// DownloadProgress: done of total bytes (total <= 0: unknown) of the
	// package of p v for platform are in. Packages whose hashes need no
	// download have none.
	DownloadProgress func(p addrs.Provider, v versions.Version, platform addrs.Platform, done, total int64)
	// DownloadEnded: that download ended, successfully or not.
	DownloadEnded func(p addrs.Provider, v versions.Version, platform addrs.Platform)
}

// downloadStarted returns the registry client's progress callback for the
// download of meta's package (nil when no one listens).
func (e *Events) downloadStarted(meta providersource.PackageMeta) func(done, total int64) {
	if e == nil || e.DownloadProgress == nil {
		return nil
	}
	return func(done, total int64) {
		e.DownloadProgress(meta.Provider, meta.Version, meta.TargetPlatform, done, total)
	}
}

func (e *Events) downloadEnded(meta providersource.PackageMeta) {
	if e != nil && e.DownloadEnded != nil {
		e.DownloadEnded(meta.Provider, meta.Version, meta.TargetPlatform)
	}
}

// orderedOutput releases per-package events in (platform, provider) order
// as soon as every earlier package is done.
type orderedOutput struct {
	ev        *Events
	providers int

	mu      sync.Mutex
	done    []*PackageResult
	head    int
	stopped bool
}

func newOrderedOutput(platforms, providers int, ev *Events) *orderedOutput {
	if ev == nil {
		ev = &Events{}
	}
	return &orderedOutput{ev: ev, providers: providers, done: make([]*PackageResult, platforms*providers)}
}

// deliver records the result of package (i, j) and sends whatever events
// are now due.
func (o *orderedOutput) deliver(i, j int, r PackageResult) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.done[i*o.providers+j] = &r
	for o.head < len(o.done) && o.done[o.head] != nil && !o.stopped {
		o.send(*o.done[o.head])
		o.head++
		if o.head%o.providers == 0 && o.platformFailed(o.head/o.providers-1) {
			o.stopped = true
		}
	}
}

func (o *orderedOutput) platformFailed(i int) bool {
	for _, r := range o.done[i*o.providers : (i+1)*o.providers] {
		if r.Err != nil {
			return true
		}
	}
	return false
}

func (o *orderedOutput) send(r PackageResult) {
	if !r.Fetched {
		return
	}
	if o.ev.Fetching != nil {
		o.ev.Fetching(r.Provider, r.Version, r.Platform)
	}
	if r.Err != nil {
		return
	}
	if o.ev.Warning != nil && r.Auth != nil {
		for _, w := range r.Auth.Warnings {
			o.ev.Warning(w)
		}
	}
	if o.ev.Retrieved != nil {
		o.ev.Retrieved(r.Provider, r.Version, r.Platform, r.Auth)
	}
}
