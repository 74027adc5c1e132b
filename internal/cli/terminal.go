package cli

import (
	"errors"
	"io"
	"os"

	"golang.org/x/term"
)

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth is the width to wrap diagnostics at: the terminal's, or 78
// when w is not a terminal, as OpenTofu does.
func terminalWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return 78
}

// terminalColumns returns the function that reads the current width of
// the terminal w is (an error when w is not one).
func terminalColumns(w io.Writer) func() (int, error) {
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

// liveDisplayWanted is the rule every command follows to choose its live
// terminal display (init's since the start): stdout is a terminal,
// colours are on (no -no-color) and the CI variable is empty. A command's
// machine-readable output (-json) replaces the display altogether.
func liveDisplayWanted(m *Meta, noColor bool) bool {
	return !noColor && m.Getenv("CI") == "" && m.IsTerminal(m.Stdout)
}
