package livedisplay

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestClipCells(t *testing.T) {
	tests := []struct {
		name  string
		s     string
		cells int
		want  string
	}{
		{name: "fits", s: "hashicorp/aws", cells: 20, want: "hashicorp/aws"},
		{name: "exactly", s: "abcdef", cells: 6, want: "abcdef"},
		{name: "cut with ellipsis", s: "abcdefghij", cells: 8, want: "abcde..."},
		{name: "too narrow for the ellipsis", s: "abcdefghij", cells: 3, want: "abc"},
		{name: "no room", s: "abc", cells: 0, want: ""},
		{name: "negative width", s: "abc", cells: -1, want: ""},
		{name: "multi-byte runes count once", s: "modülé-ñame/ça", cells: 14, want: "modülé-ñame/ça"},
		{name: "multi-byte runes cut whole", s: "ééééééééé", cells: 7, want: "éééé..."},
		{name: "wide runes take two cells", s: "模块模块模块", cells: 12, want: "模块模块模块"},
		{name: "wide rune that does not fit is left out", s: "a模块模块模块", cells: 8, want: "a模块..."},
		{name: "combining marks take none", s: "e\u0301e\u0301e\u0301", cells: 3, want: "e\u0301e\u0301e\u0301"},
		{name: "escape sequences take none", s: "\x1b[1mbold\x1b[0m", cells: 4, want: "\x1b[1mbold\x1b[0m"},
		{name: "escape after the cut kept", s: "\x1b[1mabcdefghij\x1b[0m", cells: 6, want: "\x1b[1mabc...\x1b[0m"},
		{name: "never cut inside an escape", s: "ab\x1b[38;5;208mcdefgh", cells: 5, want: "ab\x1b[38;5;208m..."},
		{name: "OSC hyperlink kept whole", s: "\x1b]8;;http://x\x07link\x1b]8;;\x07", cells: 4, want: "\x1b]8;;http://x\x07link\x1b]8;;\x07"},
		{name: "newline shown as ?", s: "a\nb", cells: 10, want: "a?b"},
		{name: "lone ESC shown as ?", s: "ab\x1b", cells: 10, want: "ab?"},
		{name: "invalid byte counts one cell", s: "a\xffb", cells: 10, want: "a?b"},
		{name: "invalid byte in a cut", s: "a\xffbcdefgh", cells: 6, want: "a?b..."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := clipCells(tc.s, tc.cells)
			if got != tc.want {
				t.Errorf("clipCells(%q, %d) = %q, want %q", tc.s, tc.cells, got, tc.want)
			}
			if n := StringCells(got); n > max(tc.cells, 0) {
				t.Errorf("result takes %d cells, more than %d", n, tc.cells)
			}
			if !utf8.ValidString(got) {
				t.Errorf("result %q is not valid UTF-8", got)
			}
		})
	}
}

func TestStringCells(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"模块", 4},
		{"ｆｕｌｌ", 8},
		{"e\u0301", 1},
		{"\x1b[1m\x1b[0m", 0},
		{"a\u200db", 2},
	}
	for _, tc := range tests {
		if got := StringCells(tc.s); got != tc.want {
			t.Errorf("StringCells(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

func TestPlainLabel(t *testing.T) {
	if got, want := PlainLabel("dir/\x1b[31mred\x1b[0m\n\xff"), "dir/?[31mred?[0m??"; got != want {
		t.Errorf("PlainLabel = %q, want %q", got, want)
	}
}

// TestStatusLineClips: whatever the text, the status line takes less
// than the terminal's width, so clearing the line clears all of it.
func TestStatusLineClips(t *testing.T) {
	for _, cols := range []int{1, 2, 10, 80, 200} {
		var out bytes.Buffer
		s := statusLine{w: &out, width: NewWidth(func() (int, error) { return cols, nil }, nil)}
		long := strings.Repeat("hashicorp/aws v5.0.0 12.3/45.6 MB (7.8 MB/s) | ", 8)
		s.show(long)
		if n := StringCells(out.String()); n > cols-1 {
			t.Errorf("width %d: status line takes %d cells", cols, n)
		}
		s.clear()
		if strings.Contains(out.String(), "\n") {
			t.Errorf("width %d: status line has a line break", cols)
		}
	}
}

// TestWidthWatcher: the width is read once, and again only after a
// window change.
func TestWidthWatcher(t *testing.T) {
	cols, reads := 80, 0
	size := func() (int, error) { reads++; return cols, nil }
	var changes chan<- os.Signal
	stopped := false
	ww := NewWidth(size, func(c chan<- os.Signal) func() {
		changes = c
		return func() { stopped = true }
	})
	if got := ww.Get(); got != 80 {
		t.Errorf("width = %d, want 80", got)
	}
	cols = 40
	if got := ww.Get(); got != 80 || reads != 1 {
		t.Errorf("without a window change: width = %d after %d reads, want 80 after 1", got, reads)
	}
	changes <- windowChanged{}
	if got := ww.Get(); got != 40 || reads != 2 {
		t.Errorf("after a window change: width = %d after %d reads, want 40 after 2", got, reads)
	}
	ww.Close()
	if !stopped {
		t.Error("Close did not stop the notifications")
	}
}

func TestWidthWatcherFallback(t *testing.T) {
	ww := NewWidth(func() (int, error) { return 0, errors.New("not a terminal") }, nil)
	if got := ww.Get(); got != fallbackWidth {
		t.Errorf("width = %d, want %d", got, fallbackWidth)
	}
}

// TestStatusLineFollowsResize: after SIGWINCH the next line is clipped
// to the new width.
func TestStatusLineFollowsResize(t *testing.T) {
	cols := 30
	var changes chan<- os.Signal
	ww := NewWidth(func() (int, error) { return cols, nil }, func(c chan<- os.Signal) func() { changes = c; return func() {} })
	var out bytes.Buffer
	d := New(&out, ww)
	d.Started("a", strings.Repeat("x", 100))
	first := out.String()
	if StringCells(first) != 29 {
		t.Errorf("first line %q takes %d cells, want 29", first, StringCells(first))
	}
	cols = 50
	changes <- windowChanged{}
	out.Reset()
	d.Started("b", "y")
	second := strings.TrimPrefix(out.String(), clearLine)
	if StringCells(second) != 49 {
		t.Errorf("line after the resize %q takes %d cells, want 49", second, StringCells(second))
	}
}

// windowChanged stands for SIGWINCH, which not every system has.
type windowChanged struct{}

func (windowChanged) String() string { return "window changed" }
func (windowChanged) Signal()        {}

// TestLiveDisplayRedraws: byte counts alone redraw the status line at
// most every redrawInterval; a new or finished download redraws it
// at once.
func TestLiveDisplayRedraws(t *testing.T) {
	var out bytes.Buffer
	d := New(&out, NewWidth(func() (int, error) { return 80, nil }, nil))
	now := time.Unix(0, 0)
	d.Now = func() time.Time { return now }
	steps := []struct {
		advance time.Duration
		done    int64
		want    string // the status line after the step ("": unchanged)
	}{
		{0, 0, "  Downloading p 0.0/4.0 MB"},
		{10 * time.Millisecond, 1e6, ""},
		{50 * time.Millisecond, 2e6, ""},
		{50 * time.Millisecond, 3e6, "  Downloading p 3.0/4.0 MB (27.3 MB/s)"},
		{time.Millisecond, 4e6, clearLine},
	}
	for i, st := range steps {
		out.Reset()
		now = now.Add(st.advance)
		d.Progress("p", "p", st.done, 4e6)
		got := strings.TrimPrefix(out.String(), clearLine)
		if st.want == clearLine {
			got = out.String()
		}
		if got != st.want {
			t.Errorf("step %d: wrote %q, want %q", i, got, st.want)
		}
	}
}
