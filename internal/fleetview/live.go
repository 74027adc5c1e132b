package fleetview

import (
	"sync"

	"github.com/tfdeps/tfdeps/fleet"
)

// StatusLine is what Live draws on: livedisplay.Status on a terminal.
type StatusLine interface {
	Show(text string)
	Print(f func())
}

// Live keeps the one live status line of a run up to date from the
// run's events: pass Event as fleet.Options.Events, and print each
// released root through Print so that the line stays below.
type Live struct {
	line StatusLine

	mu          sync.Mutex
	done, total int
	packages    int
	bytes       int64
}

// NewLive shows the status of a run over total roots on line.
func NewLive(line StatusLine, total int) *Live {
	l := &Live{line: line, total: total}
	l.show()
	return l
}

// Event updates the status line.
func (l *Live) Event(e fleet.Event) {
	l.mu.Lock()
	switch e := e.(type) {
	case fleet.RootFinished:
		l.done, l.total = e.Done, e.Total
	case fleet.Progress:
		l.packages, l.bytes = e.Packages, e.Bytes
	default:
		l.mu.Unlock()
		return
	}
	l.mu.Unlock()
	l.show()
}

// Print prints lines above the status line.
func (l *Live) Print(f func()) { l.line.Print(f) }

func (l *Live) show() {
	l.mu.Lock()
	text := StatusText(l.done, l.total, l.packages, l.bytes)
	l.mu.Unlock()
	l.line.Show(text)
}
