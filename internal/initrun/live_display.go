package initrun

import (
	"time"

	"github.com/tfdeps/tfdeps/internal/livedisplay"
)

// liveDisplay is the live terminal display (livedisplay.Display) under
// the names the views call.
// now is its clock.
type liveDisplay struct {
	d   *livedisplay.Display
	now func() time.Time
}

func wrapLiveDisplay(d *livedisplay.Display) *liveDisplay {
	l := &liveDisplay{d: d, now: time.Now}
	d.Now = func() time.Time { return l.now() }
	return l
}

// newLiveDisplay is the display m makes on its stdout.
func newLiveDisplay(m *Env) *liveDisplay {
	return wrapLiveDisplay(m.LiveDisplay())
}

func (l *liveDisplay) print(f func())                     { l.d.Print(f) }
func (l *liveDisplay) printFinished(key string, f func()) { l.d.PrintFinished(key, f) }
func (l *liveDisplay) started(key, label string)          { l.d.Started(key, label) }
func (l *liveDisplay) progress(key, label string, done, total int64) {
	l.d.Progress(key, label, done, total)
}
func (l *liveDisplay) finished(key string) { l.d.Finished(key) }
func (l *liveDisplay) close()              { l.d.Close() }
