package cli

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/diagrender"
	"github.com/tfdeps/tfdeps/requirements"
)

// newDiagPrinter is the diagnostics printer set up from the command's
// settings, which a command adjusts before printing.
func newDiagPrinter(m *Meta, files map[string]*hcl.File) *diagrender.Printer {
	return &diagrender.Printer{Stdout: m.Stdout, Stderr: m.Stderr, Files: files, Width: terminalWidth(m.Stderr), Color: m.Color, Terraform: m.Flavour == flavour.Terraform}
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
