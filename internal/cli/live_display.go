package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
)

// liveDisplay is what every live terminal view shares: the lines printed
// go above a status line that shows the downloads in progress (bytes and
// rate when known), redrawn in place and clipped to the terminal's width.
// Its methods may be called from several goroutines.
type liveDisplay struct {
	now func() time.Time

	mu    sync.Mutex
	line  statusLine
	tasks map[string]*liveTask
	drawn time.Time // when the status line was last drawn
}

// liveRedrawInterval is how often byte counts alone redraw the status
// line: a fast download reports every few kilobytes, far more often than
// anyone can read.
const liveRedrawInterval = 100 * time.Millisecond

// liveTask is one download in progress.
type liveTask struct {
	label       string
	done, total int64 // total <= 0: unknown; done < 0: no byte count yet
	start       time.Time
}

// newLiveDisplay is the display on m's stdout, watching the terminal's
// width.
func newLiveDisplay(m *Meta) *liveDisplay {
	return newLiveDisplayTo(m.Stdout, newWidthWatcher(terminalColumns(m.Stdout), notifyWindowChanges))
}

func newLiveDisplayTo(w io.Writer, width *widthWatcher) *liveDisplay {
	return &liveDisplay{now: time.Now, line: statusLine{w: w, width: width}, tasks: map[string]*liveTask{}}
}

// print runs f, which prints lines, with the status line out of the way.
func (d *liveDisplay) print(f func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.line.clear()
	f()
	d.draw()
}

// started adds a download without byte counts yet; label is shown as it
// is (callers make outside names safe with plainLabel).
func (d *liveDisplay) started(key, label string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.tasks[key] == nil {
		d.tasks[key] = &liveTask{label: label, done: -1, start: d.now()}
		d.draw()
	}
}

// progress records done of total bytes of a download, adding it when
// new. The status line is redrawn for a new download, a finished one, or
// once liveRedrawInterval has passed since it was last drawn.
func (d *liveDisplay) progress(key, label string, done, total int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t := d.tasks[key]
	fresh := t == nil || t.done < 0
	if t == nil {
		t = &liveTask{label: label, start: d.now()}
		d.tasks[key] = t
	}
	t.done, t.total = done, total
	if fresh || total > 0 && done >= total || d.now().Sub(d.drawn) >= liveRedrawInterval {
		d.draw()
	}
}

// finished removes a download.
func (d *liveDisplay) finished(key string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.tasks[key] != nil {
		delete(d.tasks, key)
		d.draw()
	}
}

// close clears the status line and stops watching the width.
func (d *liveDisplay) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.line.clear()
	d.tasks = map[string]*liveTask{}
	d.line.width.Close()
}

// draw shows the status line for the downloads in progress, in the order
// of their keys; a download whose bytes are all in is left out.
func (d *liveDisplay) draw() {
	d.drawn = d.now()
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
			parts = append(parts, fmt.Sprintf("%s %s%s", t.label, formatBytes(t.done, t.total), formatRate(t.done, d.now().Sub(t.start))))
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
