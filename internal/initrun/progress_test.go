package initrun

import (
	"errors"
	"sync"
	"testing"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/moduleinstall"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/versions"
)

// TestProgress: the installers' events become progress reports: a
// package for each provider package installed and each module package
// fetched (not for a failed fetch), and each download's bytes once
// (reports of bytes so far turned into increments; a download starting
// over counts again), the events still reaching the display's handlers.
func TestProgress(t *testing.T) {
	null, v := nullProvider(t)
	type step func(pe *providerinstall.Events, fe *moduleinstall.FetchEvents)
	tests := []struct {
		name          string
		steps         []step
		packages      int
		bytes         int64
		shownProgress int
	}{
		{name: "a provider download in pieces, then installed", steps: []step{
			func(pe *providerinstall.Events, _ *moduleinstall.FetchEvents) {
				pe.DownloadProgress(null, v, 100, 1000)
			},
			func(pe *providerinstall.Events, _ *moduleinstall.FetchEvents) {
				pe.DownloadProgress(null, v, 600, 1000)
			},
			func(pe *providerinstall.Events, _ *moduleinstall.FetchEvents) {
				pe.DownloadProgress(null, v, 1000, 1000)
			},
			func(pe *providerinstall.Events, _ *moduleinstall.FetchEvents) { pe.Installed(null, v, nil) },
		}, packages: 1, bytes: 1000, shownProgress: 3},
		{name: "a download started over", steps: []step{
			func(pe *providerinstall.Events, _ *moduleinstall.FetchEvents) {
				pe.DownloadProgress(null, v, 700, 1000)
			},
			func(pe *providerinstall.Events, _ *moduleinstall.FetchEvents) {
				pe.DownloadProgress(null, v, 200, 1000)
			},
			func(pe *providerinstall.Events, _ *moduleinstall.FetchEvents) {
				pe.DownloadProgress(null, v, 1000, 1000)
			},
		}, bytes: 1700, shownProgress: 3},
		{name: "module packages", steps: []step{
			func(_ *providerinstall.Events, fe *moduleinstall.FetchEvents) { fe.Started("a") },
			func(_ *providerinstall.Events, fe *moduleinstall.FetchEvents) { fe.Bytes("a", 50, 80) },
			func(_ *providerinstall.Events, fe *moduleinstall.FetchEvents) { fe.Bytes("a", 80, 80) },
			func(_ *providerinstall.Events, fe *moduleinstall.FetchEvents) { fe.Finished("a", nil) },
			func(_ *providerinstall.Events, fe *moduleinstall.FetchEvents) { fe.Started("git") },
			func(_ *providerinstall.Events, fe *moduleinstall.FetchEvents) { fe.Finished("git", nil) },
			func(_ *providerinstall.Events, fe *moduleinstall.FetchEvents) { fe.Bytes("b", 30, 0) },
			func(_ *providerinstall.Events, fe *moduleinstall.FetchEvents) { fe.Finished("b", errors.New("boom")) },
			// fetched again (after a failure), from the start
			func(_ *providerinstall.Events, fe *moduleinstall.FetchEvents) { fe.Bytes("a", 80, 80) },
			func(_ *providerinstall.Events, fe *moduleinstall.FetchEvents) { fe.Finished("a", nil) },
		}, packages: 3, bytes: 190},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var packages int
			var bytes int64
			p := newProgress(func(n int, b int64) {
				mu.Lock()
				defer mu.Unlock()
				packages += n
				bytes += b
			})
			shown := 0
			pe := p.providers(&providerinstall.Events{
				DownloadProgress: func(_ addrs.Provider, _ versions.Version, _, _ int64) { shown++ },
				Installed:        func(addrs.Provider, versions.Version, *providerinstall.AuthResult) {},
			})
			fe := p.moduleFetches(&moduleinstall.FetchEvents{Started: func(string) {}})
			for _, s := range tt.steps {
				s(pe, fe)
			}
			if packages != tt.packages || bytes != tt.bytes {
				t.Errorf("reported %d packages, %d bytes; want %d, %d", packages, bytes, tt.packages, tt.bytes)
			}
			if shown != tt.shownProgress {
				t.Errorf("the display heard %d progress events, want %d", shown, tt.shownProgress)
			}
		})
	}
	// Without a listener, the events are left as they are.
	ev := &providerinstall.Events{}
	if got := newProgress(nil).providers(ev); got != ev {
		t.Errorf("events changed without a listener")
	}
	if got := newProgress(nil).moduleFetches(nil); got != nil {
		t.Errorf("module fetch events made without a listener")
	}
}
