package initrun

import (
	"sync"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/moduleinstall"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/versions"
)

// progress turns the installers' events into the run's progress reports
// (Env.Progress): one package for each provider package installed and
// each module package fetched, and the bytes of each download as they
// arrive (provider archives, and module packages whose getter streams
// them). The installers report each download's bytes so far; progress
// passes on what is new since the last report of that download (a
// download that starts over, on a retry, counts again from zero).
type progress struct {
	report func(packages int, bytes int64)

	mu   sync.Mutex
	seen map[string]int64
}

// newProgress is the run's progress counter; nil when no one listens.
func newProgress(report func(int, int64)) *progress {
	if report == nil {
		return nil
	}
	return &progress{report: report, seen: map[string]int64{}}
}

// bytes reports the new part of download key's done bytes.
func (p *progress) bytes(key string, done int64) {
	p.mu.Lock()
	last := p.seen[key]
	if done < last {
		last = 0
	}
	p.seen[key] = done
	p.mu.Unlock()
	if done > last {
		p.report(0, done-last)
	}
}

// providers adds the progress reports to the installer's events ev.
func (p *progress) providers(ev *providerinstall.Events) *providerinstall.Events {
	if p == nil {
		return ev
	}
	out := *ev
	out.DownloadProgress = func(pr addrs.Provider, v versions.Version, done, total int64) {
		if ev.DownloadProgress != nil {
			ev.DownloadProgress(pr, v, done, total)
		}
		p.bytes("provider "+pr.String()+" "+v.String(), done)
	}
	out.Installed = func(pr addrs.Provider, v versions.Version, auth *providerinstall.AuthResult) {
		if ev.Installed != nil {
			ev.Installed(pr, v, auth)
		}
		p.report(1, 0)
	}
	return &out
}

// moduleFetches adds the progress reports to the module fetch events fe
// (nil: none).
func (p *progress) moduleFetches(fe *moduleinstall.FetchEvents) *moduleinstall.FetchEvents {
	if p == nil {
		return fe
	}
	var out moduleinstall.FetchEvents
	if fe != nil {
		out = *fe
	}
	out.Bytes = func(pkg string, done, total int64) {
		if fe != nil && fe.Bytes != nil {
			fe.Bytes(pkg, done, total)
		}
		p.bytes("module "+pkg, done)
	}
	out.Finished = func(pkg string, err error) {
		if fe != nil && fe.Finished != nil {
			fe.Finished(pkg, err)
		}
		p.mu.Lock()
		delete(p.seen, "module "+pkg) // a later fetch of it counts anew
		p.mu.Unlock()
		if err == nil {
			p.report(1, 0)
		}
	}
	return &out
}
