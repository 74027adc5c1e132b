package cli

import (
	"io"
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

// newLiveDisplay is the display on m's stdout, watching the terminal's
// width.
func newLiveDisplay(m *Meta) *liveDisplay {
	return wrapLiveDisplay(livedisplay.OnTerminal(m.Stdout))
}

func newLiveDisplayTo(w io.Writer, width *livedisplay.Width) *liveDisplay {
	return wrapLiveDisplay(livedisplay.New(w, width))
}

func (l *liveDisplay) print(f func())                     { l.d.Print(f) }
func (l *liveDisplay) printFinished(key string, f func()) { l.d.PrintFinished(key, f) }
func (l *liveDisplay) started(key, label string)          { l.d.Started(key, label) }
func (l *liveDisplay) progress(key, label string, done, total int64) {
	l.d.Progress(key, label, done, total)
}
func (l *liveDisplay) finished(key string) { l.d.Finished(key) }
func (l *liveDisplay) close()              { l.d.Close() }
