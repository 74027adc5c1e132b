package lockview

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/livedisplay"
	"github.com/tfdeps/tfdeps/providerlock"
	"github.com/tfdeps/tfdeps/providermirror"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// packageKey names the download of a provider package on the status line.
func packageKey(p string, v versions.Version, pl addrs.Platform) string {
	return fmt.Sprintf("%s v%s %s", p, v, pl)
}

// Live is providers lock's terminal view: the plain lines, with the
// packages being downloaded on a status line below them.
type Live struct {
	*Human
	*livedisplay.Display
}

func (l *Live) Fetching(p addrs.Provider, v versions.Version, pl addrs.Platform) {
	l.Print(func() { l.Human.Fetching(p, v, pl) })
}

func (l *Live) Retrieved(p addrs.Provider, v versions.Version, pl addrs.Platform, auth *registry.AuthResult) {
	l.Print(func() { l.Human.Retrieved(p, v, pl, auth) })
}

func (l *Live) Warning(line string) { l.Print(func() { l.Human.Warning(line) }) }

func (l *Live) Obtained(lines []providerlock.Obtained) {
	l.Print(func() { l.Human.Obtained(lines) })
}

func (l *Live) RootModule(dir string) { l.Print(func() { l.Human.RootModule(dir) }) }

func (l *Live) Success(changed bool) { l.Print(func() { l.Human.Success(changed) }) }

func (l *Live) Diagnostics(diags hcl.Diagnostics, files map[string]*hcl.File) {
	l.Print(func() { l.Human.Diagnostics(diags, files) })
}

// LiveOf is the live display of a view, if it has one.
func LiveOf(v View) *livedisplay.Display {
	switch v := v.(type) {
	case *Live:
		return v.Display
	case Views:
		for _, x := range v {
			if d := LiveOf(x); d != nil {
				return d
			}
		}
	}
	return nil
}

// Close ends the live display of v, if any.
func Close(v View) {
	if d := LiveOf(v); d != nil {
		d.Close()
	}
}

// downloadEvents are the download callbacks that show the packages being
// downloaded on d's status line (none when d is nil).
func downloadEvents(d *livedisplay.Display, fl flavour.Flavour) (
	progress func(addrs.Provider, versions.Version, addrs.Platform, int64, int64),
	ended func(addrs.Provider, versions.Version, addrs.Platform),
) {
	if d == nil {
		return nil, nil
	}
	progress = func(p addrs.Provider, v versions.Version, pl addrs.Platform, done, total int64) {
		key := packageKey(p.ForDisplayIn(fl), v, pl)
		d.Progress(key, key, done, total)
	}
	ended = func(p addrs.Provider, v versions.Version, pl addrs.Platform) {
		d.Finished(packageKey(p.ForDisplayIn(fl), v, pl))
	}
	return progress, ended
}

// Events are providers lock's events for view: the printed ones, and the
// downloads' progress when the view is live.
func Events(view View, fl flavour.Flavour) *providerlock.Events {
	ev := &providerlock.Events{Fetching: view.Fetching, Warning: view.Warning, Retrieved: view.Retrieved}
	ev.DownloadProgress, ev.DownloadEnded = downloadEvents(LiveOf(view), fl)
	return ev
}

// MirrorLive wraps the events of providers mirror for its live display:
// each line is printed with the status line out of the way, and the
// downloads in progress show on it.
func MirrorLive(d *livedisplay.Display, fl flavour.Flavour, ev *providermirror.Events) *providermirror.Events {
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
	out.DownloadProgress, out.DownloadEnded = downloadEvents(d, fl)
	return &out
}
