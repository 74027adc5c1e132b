package cli

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// ansiClearLine returns to the start of the line and clears it.
const ansiClearLine = "\r\x1b[K"

// liveView is the terminal view: OpenTofu's lines (headings in bold) with
// a status line below them showing the downloads in progress, their bytes
// and rate. It is used only when stdout is a terminal and neither
// -no-color nor CI is set.
type liveView struct {
	plainView
	now func() time.Time

	mu        sync.Mutex
	downloads map[string]*liveDownload
	shown     bool // a status line is on screen
}

type liveDownload struct {
	done, total int64
	start       time.Time
}

func newLiveView(m *Meta) *liveView {
	return &liveView{plainView: plainView{m: m}, now: time.Now, downloads: map[string]*liveDownload{}}
}

func (v *liveView) Event(kind, provider, version, text string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.clearStatus()
	delete(v.downloads, provider+" v"+version)
	v.plainView.Event(kind, provider, version, text)
	v.drawStatus()
}

func (v *liveView) Text(level, kind, human, machine string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.clearStatus()
	v.plainView.Text(level, kind, human, machine)
	v.drawStatus()
}

func (v *liveView) Progress(provider, version string, done, total int64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	key := provider + " v" + version
	d := v.downloads[key]
	if d == nil {
		d = &liveDownload{start: v.now()}
		v.downloads[key] = d
	}
	d.done, d.total = done, total
	v.clearStatus()
	v.drawStatus()
}

func (v *liveView) Message(kind, text string, toStderr bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.clearStatus()
	v.plainView.Message(kind, text, toStderr)
}

func (v *liveView) Close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.clearStatus()
	v.downloads = map[string]*liveDownload{}
}

func (v *liveView) clearStatus() {
	if v.shown {
		fmt.Fprint(v.m.Stdout, ansiClearLine)
		v.shown = false
	}
}

// drawStatus writes the status line (no newline) for active downloads.
func (v *liveView) drawStatus() {
	var parts []string
	keys := make([]string, 0, len(v.downloads))
	for k := range v.downloads {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		d := v.downloads[k]
		if d.total > 0 && d.done >= d.total {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s%s", k, formatBytes(d.done, d.total), formatRate(d.done, v.now().Sub(d.start))))
	}
	if len(parts) == 0 {
		return
	}
	fmt.Fprint(v.m.Stdout, "  Downloading "+strings.Join(parts, " | "))
	v.shown = true
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
