package cli

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/internal/livedisplay"
	"github.com/tfdeps/tfdeps/providerlock"
	"github.com/tfdeps/tfdeps/providermirror"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// packageKey names the download of a provider package on the status line
// of providers lock and providers mirror.
func packageKey(p string, v versions.Version, pl addrs.Platform) string {
	return fmt.Sprintf("%s v%s %s", p, v, pl)
}

// lockLiveView is providers lock's terminal view: the plain lines, with
// the packages being downloaded on a status line below them.
type lockLiveView struct {
	*lockHumanView
	*livedisplay.Display
}

func (l *lockLiveView) Fetching(p addrs.Provider, v versions.Version, pl addrs.Platform) {
	l.Print(func() { l.lockHumanView.Fetching(p, v, pl) })
}

func (l *lockLiveView) Retrieved(p addrs.Provider, v versions.Version, pl addrs.Platform, auth *registry.AuthResult) {
	l.Print(func() { l.lockHumanView.Retrieved(p, v, pl, auth) })
}

func (l *lockLiveView) Warning(line string) {
	l.Print(func() { l.lockHumanView.Warning(line) })
}

func (l *lockLiveView) Obtained(lines []providerlock.Obtained) {
	l.Print(func() { l.lockHumanView.Obtained(lines) })
}

func (l *lockLiveView) RootModule(dir string) {
	l.Print(func() { l.lockHumanView.RootModule(dir) })
}

func (l *lockLiveView) Success(changed bool) {
	l.Print(func() { l.lockHumanView.Success(changed) })
}

func (l *lockLiveView) Diagnostics(diags hcl.Diagnostics, files map[string]*hcl.File) {
	l.Print(func() { l.lockHumanView.Diagnostics(diags, files) })
}

// lockLiveOf is the live display of a providers lock view, if it has one.
func lockLiveOf(v lockView) *livedisplay.Display {
	switch v := v.(type) {
	case *lockLiveView:
		return v.Display
	case lockViews:
		for _, x := range v {
			if d := lockLiveOf(x); d != nil {
				return d
			}
		}
	}
	return nil
}

// liveDownloadEvents adds to ev the download callbacks that show the
// packages being downloaded on d's status line (nothing when d is nil).
// name is how a provider is shown.
func liveDownloadEvents(d *livedisplay.Display, name func(addrs.Provider) string) (
	progress func(addrs.Provider, versions.Version, addrs.Platform, int64, int64),
	ended func(addrs.Provider, versions.Version, addrs.Platform),
) {
	if d == nil {
		return nil, nil
	}
	progress = func(p addrs.Provider, v versions.Version, pl addrs.Platform, done, total int64) {
		key := packageKey(name(p), v, pl)
		d.Progress(key, key, done, total)
	}
	ended = func(p addrs.Provider, v versions.Version, pl addrs.Platform) {
		d.Finished(packageKey(name(p), v, pl))
	}
	return progress, ended
}

// lockLiveEvents are providers lock's events for its view: the printed
// ones, and the downloads' progress when the view is live.
func lockLiveEvents(m *Meta, view lockView) *providerlock.Events {
	ev := &providerlock.Events{Fetching: view.Fetching, Warning: view.Warning, Retrieved: view.Retrieved}
	ev.DownloadProgress, ev.DownloadEnded = liveDownloadEvents(lockLiveOf(view), func(p addrs.Provider) string { return p.ForDisplayIn(m.Flavour) })
	return ev
}

// closeLockView ends the live display of view, if any.
func closeLockView(view lockView) {
	if d := lockLiveOf(view); d != nil {
		d.Close()
	}
}

// mirrorLive wraps the events of providers mirror for its live display:
// each line is printed with the status line out of the way, and the
// downloads in progress show on it.
func mirrorLive(m *Meta, d *livedisplay.Display, ev *providermirror.Events) *providermirror.Events {
	out := *ev
	out.Skipping = func(p addrs.Provider) { d.Print(func() { ev.Skipping(p) }) }
	out.Mirroring = func(p addrs.Provider) { d.Print(func() { ev.Mirroring(p) }) }
	out.Selected = func(p addrs.Provider, v versions.Version, locked bool, c versions.Constraints) {
		d.Print(func() { ev.Selected(p, v, locked, c) })
	}
	out.Downloading = func(p addrs.Provider, pl addrs.Platform) { d.Print(func() { ev.Downloading(p, pl) }) }
	out.Authenticated = func(p addrs.Provider, pl addrs.Platform, auth *registry.AuthResult) {
		d.Print(func() { ev.Authenticated(p, pl, auth) })
	}
	out.DownloadProgress, out.DownloadEnded = liveDownloadEvents(d, func(p addrs.Provider) string { return p.ForDisplayIn(m.Flavour) })
	return &out
}
