package livedisplay

import (
	"io"
	"sync"
)

// Status is a live view whose status line is the caller's own text (a
// whole run's progress, say), where Display's is the downloads in
// progress: lines printed go above it, it is redrawn in place and
// clipped to the terminal's width. Its methods may be called from several
// goroutines.
type Status struct {
	mu   sync.Mutex
	line statusLine
	text string
}

// StatusOnTerminal is the status view on w, a terminal, following its
// width as the window changes.
func StatusOnTerminal(w io.Writer) *Status {
	return NewStatus(w, NewWidth(columns(w), notifyWindowChanges))
}

// NewStatus is the status view on w, clipped to width.
func NewStatus(w io.Writer, width *Width) *Status {
	return &Status{line: statusLine{w: w, width: width}}
}

// Show replaces the status line's text ("" for none). Text from outside
// must be made safe first (PlainLabel).
func (s *Status) Show(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if text == s.text {
		return
	}
	s.text = text
	s.line.show(text)
}

// Print runs f, which prints lines, with the status line out of the way.
func (s *Status) Print(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.line.clear()
	f()
	s.line.show(s.text)
}

// Close clears the status line and stops watching the width.
func (s *Status) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.line.clear()
	s.text = ""
	s.line.width.Close()
}
