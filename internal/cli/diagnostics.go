package cli

import (
	"io"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/diagrender"
	"github.com/tfdeps/tfdeps/requirements"
)

// diagPrinter is a command's diagnostics printer: diagrender.Printer set
// up from the command's settings, which a command adjusts before printing.
type diagPrinter struct {
	stdout, stderr io.Writer
	files          map[string]*hcl.File
	width          int
	color          bool
	extraNewline   bool
	terraform      bool
	bare           bool
}

func newDiagPrinter(m *Meta, files map[string]*hcl.File) *diagPrinter {
	return &diagPrinter{stdout: m.Stdout, stderr: m.Stderr, files: files, width: terminalWidth(m.Stderr), color: m.Color, terraform: m.Flavour == flavour.Terraform}
}

// Print sorts, consolidates and writes diags.
func (p *diagPrinter) Print(diags hcl.Diagnostics) {
	(&diagrender.Printer{Stdout: p.stdout, Stderr: p.stderr, Files: p.files, Width: p.width, Color: p.color,
		ExtraNewline: p.extraNewline, Terraform: p.terraform, Bare: p.bare}).Print(diags)
}

// The CLI's short names for the renderer's functions.

func colorize(s string, on bool) string { return diagrender.Colorize(s, on) }

func sortDiagnostics(diags hcl.Diagnostics) hcl.Diagnostics { return diagrender.Sort(diags) }

func snippetFiles(diags hcl.Diagnostics, known map[string]*hcl.File) map[string]*hcl.File {
	return diagrender.SnippetFiles(diags, known)
}

func newJSONDiagnostic(d *hcl.Diagnostic, files map[string]*hcl.File) *diagrender.Diagnostic {
	return diagrender.NewDiagnostic(d, files)
}

func renderFramedDiagnostic(d *diagrender.Diagnostic, width int) string {
	return diagrender.RenderFramed(d, width)
}

// withoutOwnWarnings drops tfdeps' own warnings, which OpenTofu does not
// print, from the output of the commands that mirror OpenTofu's (init,
// providers); tfdeps' own outputs (providers -json, config) keep them.
func withoutOwnWarnings(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning && d.Summary == requirements.SummaryPredecessorProvider {
			continue
		}
		out = append(out, d)
	}
	return out
}
