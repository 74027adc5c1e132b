package livedisplay

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
)

// Display is what every live terminal view shares: the lines printed
// go above a status line that shows the downloads in progress (bytes and
// rate when known), redrawn in place and clipped to the terminal's width.
// Its methods may be called from several goroutines.
type Display struct {
	// Now is the clock rates and redraws are timed by (time.Now from
	// New); set it before the display is used.
	Now func() time.Time

	mu    sync.Mutex
	line  statusLine
	tasks map[string]*Task
	drawn time.Time // when the status line was last drawn
}

// redrawInterval is how often byte counts alone redraw the status
// line: a fast download reports every few kilobytes, far more often than
// anyone can read.
const redrawInterval = 100 * time.Millisecond

// Task is one download in progress.
type Task struct {
	label       string
	done, total int64 // total <= 0: unknown; done < 0: no byte count yet
	start       time.Time
}

// clearLine returns to the start of the line and clears it.
const clearLine = "\r\x1b[K"

// OnTerminal is the display on w, a terminal, following its width as
// the window changes.
func OnTerminal(w io.Writer) *Display {
	return New(w, NewWidth(columns(w), notifyWindowChanges))
}

// New is the display on w, clipped to width.
func New(w io.Writer, width *Width) *Display {
	return &Display{Now: time.Now, line: statusLine{w: w, width: width}, tasks: map[string]*Task{}}
}

// Print runs f, which prints lines, with the status line out of the way.
func (d *Display) Print(f func()) { d.PrintFinished("", f) }

// PrintFinished is Print for a line that ends the download key (none
// for ""): the download leaves the status line as the line is printed.
func (d *Display) PrintFinished(key string, f func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if key != "" {
		delete(d.tasks, key)
	}
	d.line.clear()
	f()
	d.draw()
}

// Started adds a download without byte counts yet; label is shown as it
// is (callers make outside names safe with PlainLabel).
func (d *Display) Started(key, label string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.tasks[key] == nil {
		d.tasks[key] = &Task{label: label, done: -1, start: d.Now()}
		d.draw()
	}
}

// Progress records done of total bytes of a download, adding it when
// new. The status line is redrawn for a new download, a finished one, or
// once redrawInterval has passed since it was last drawn.
func (d *Display) Progress(key, label string, done, total int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t := d.tasks[key]
	fresh := t == nil || t.done < 0
	if t == nil {
		t = &Task{label: label, start: d.Now()}
		d.tasks[key] = t
	}
	t.done, t.total = done, total
	if fresh || total > 0 && done >= total || d.Now().Sub(d.drawn) >= redrawInterval {
		d.draw()
	}
}

// Finished removes a download.
func (d *Display) Finished(key string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.tasks[key] != nil {
		delete(d.tasks, key)
		d.draw()
	}
}

// Close clears the status line and stops watching the width.
func (d *Display) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.line.clear()
	clear(d.tasks)
	d.line.width.Close()
}

// draw shows the status line for the downloads in progress, in the order
// of their keys; a download whose bytes are all in is left out.
func (d *Display) draw() {
	d.drawn = d.Now()
	keys := make([]string, 0, len(d.tasks))
	for k := range d.tasks {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		t := d.tasks[k]
		switch {
		case t.total > 0 && t.done >= t.total:
			continue
		case t.done < 0:
			parts = append(parts, t.label)
		default:
			parts = append(parts, fmt.Sprintf("%s %s%s", t.label, formatBytes(t.done, t.total), formatRate(t.done, d.Now().Sub(t.start))))
		}
	}
	if len(parts) == 0 {
		d.line.show("")
		return
	}
	d.line.show("  Downloading " + strings.Join(parts, " | "))
}

func formatBytes(done, total int64) string {
	if total <= 0 {
		return fmt.Sprintf("%.1f MB", float64(done)/1e6)
	}
	return fmt.Sprintf("%.1f/%.1f MB", float64(done)/1e6, float64(total)/1e6)
}

func formatRate(done int64, elapsed time.Duration) string {
	if elapsed < 100*time.Millisecond {
		return ""
	}
	return fmt.Sprintf(" (%.1f MB/s)", float64(done)/1e6/elapsed.Seconds())
}
