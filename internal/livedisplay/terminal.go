package livedisplay

import (
	"errors"
	"io"
	"os"

	"golang.org/x/term"
)

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// WrapWidth is the width to wrap diagnostics at: the terminal's, or 78
// when w is not a terminal, as OpenTofu does.
func WrapWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return 78
}

// columns returns the function that reads the current width of
// the terminal w is (an error when w is not one).
func columns(w io.Writer) func() (int, error) {
	return func() (int, error) {
		f, ok := w.(*os.File)
		if !ok {
			return 0, errNotTerminal
		}
		cols, _, err := term.GetSize(int(f.Fd()))
		return cols, err
	}
}

var errNotTerminal = errors.New("not a terminal")
