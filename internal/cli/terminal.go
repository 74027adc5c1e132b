package cli

import (
	"io"

	"github.com/tfdeps/tfdeps/internal/livedisplay"
)

func isTerminal(w io.Writer) bool { return livedisplay.IsTerminal(w) }

// terminalWidth is the width to wrap diagnostics at: the terminal's, or 78
// when w is not a terminal, as OpenTofu does.
func terminalWidth(w io.Writer) int { return livedisplay.WrapWidth(w) }

// liveDisplayWanted is the rule every command follows to choose its live
// terminal display (init's since the start): stdout is a terminal,
// colours are on (no -no-color) and the CI variable is empty. A command's
// machine-readable output (-json) replaces the display altogether.
func liveDisplayWanted(m *Meta, noColor bool) bool {
	return !noColor && m.Getenv("CI") == "" && m.IsTerminal(m.Stdout)
}
