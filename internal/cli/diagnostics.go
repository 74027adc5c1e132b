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

// errorDiag is an error diagnostic.
func errorDiag(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
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
