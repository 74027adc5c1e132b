package livedisplay

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// statusLine is the one line a live display redraws in place below the
// lines it prints. It never wraps: the text is clipped to one cell less
// than the terminal's width (a line that fills the last column leaves
// some terminals waiting to wrap), so that "\r\x1b[K" clears all of it.
type statusLine struct {
	w     io.Writer
	width *Width
	shown bool // a status line is on screen
}

// show replaces the status line with text (empty: none).
func (s *statusLine) show(text string) {
	s.clear()
	if text == "" {
		return
	}
	text = clipCells(text, s.width.Get()-1)
	if text == "" {
		return
	}
	fmt.Fprint(s.w, text)
	s.shown = true
}

// clear removes the status line, if one is shown, leaving the cursor at
// the start of its row.
func (s *statusLine) clear() {
	if s.shown {
		fmt.Fprint(s.w, clearLine)
		s.shown = false
	}
}

// Width knows the terminal's width: it asks size once, then again
// after each window change (SIGWINCH on Unix) arrived on changes, never
// while nothing changed. It reads changes when asked for the width, so
// there is no goroutine to stop.
type Width struct {
	size    func() (int, error)
	changes chan os.Signal
	stop    func()

	mu    sync.Mutex
	cols  int
	stale bool
}

// fallbackWidth is the width assumed when the terminal does not say.
const fallbackWidth = 80

// NewWidth watches size; notify (nil: none) starts delivering
// window changes on its channel and returns the function that stops it.
func NewWidth(size func() (int, error), notify func(chan<- os.Signal) (stop func())) *Width {
	ww := &Width{size: size, stale: true, stop: func() {}}
	if notify != nil {
		// One pending change is as good as several.
		ww.changes = make(chan os.Signal, 1)
		ww.stop = notify(ww.changes)
	}
	return ww
}

// get returns the width in cells.
func (ww *Width) Get() int {
	ww.mu.Lock()
	defer ww.mu.Unlock()
	select {
	case <-ww.changes:
		ww.stale = true
	default:
	}
	if ww.stale {
		ww.stale = false
		ww.cols = fallbackWidth
		if c, err := ww.size(); err == nil && c > 0 {
			ww.cols = c
		}
	}
	return ww.cols
}

// Close stops watching for window changes.
func (ww *Width) Close() { ww.stop() }

// clipCells returns the longest prefix of s that takes at most cells
// terminal cells, "..." ending it when something was cut (and there is
// room for it). Escape sequences take no cell and are never cut; those
// after the cut are kept, so that a colour reset still applies. Runes are
// never split; an invalid byte counts as one cell; control characters
// outside escape sequences (a newline in a file name, say) are shown as
// "?", since the line must stay one line.
func clipCells(s string, cells int) string {
	if cells <= 0 {
		return ""
	}
	if StringCells(s) <= cells {
		return sanitizeControls(s)
	}
	const ellipsis = "..."
	room := cells
	if cells > len(ellipsis) {
		room -= len(ellipsis)
	}
	var b strings.Builder
	used, cut := 0, false
	for i := 0; i < len(s); {
		if n := EscapeLen(s[i:]); n > 0 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		w := RuneCells(r)
		if !cut && used+w > room {
			cut = true
			if cells > len(ellipsis) {
				b.WriteString(ellipsis)
			}
		}
		if !cut {
			b.WriteString(sanitizeControls(s[i : i+n]))
			used += w
		}
		i += n
	}
	return b.String()
}

// StringCells is the number of cells s takes on a terminal.
func StringCells(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if e := EscapeLen(s[i:]); e > 0 {
			i += e
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n += RuneCells(r)
		i += size
	}
	return n
}

// RuneCells is the number of cells r takes: two for East Asian wide and
// full-width characters, none for combining marks and format characters,
// one otherwise (an invalid byte, shown as one replacement character,
// included).
func RuneCells(r rune) int {
	switch {
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// EscapeLen is the length of the escape sequence s starts with (0: none):
// a CSI sequence (ESC [ parameters, final byte), an OSC or other string
// sequence up to its terminator (BEL or ESC \), or ESC and one character.
// An unterminated sequence runs to the end of s.
func EscapeLen(s string) int {
	if len(s) < 2 || s[0] != 0x1b {
		return 0
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']', 'P', '_', '^', 'X':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	if s[1] >= 0x20 && s[1] <= 0x7e {
		return 2
	}
	return 0
}

// sanitizeControls replaces control characters outside escape sequences
// (a lone ESC included) and invalid UTF-8 bytes with "?".
func sanitizeControls(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if n := EscapeLen(s[i:]); n > 0 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if isControl(r) || r == utf8.RuneError && n == 1 {
			b.WriteByte('?')
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || r >= 0x7f && r < 0xa0 }

// PlainLabel is a name from outside (a file name, a module source) made
// safe for the status line: every control character, ESC included, is
// shown as "?", so that a name can neither move the cursor nor colour
// the line.
func PlainLabel(s string) string {
	return strings.Map(func(r rune) rune {
		if isControl(r) || r == utf8.RuneError {
			return '?'
		}
		return r
	}, s)
}
