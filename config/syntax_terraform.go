package config

import "github.com/hashicorp/hcl/v2"

// syntaxDiagnostic marks a diagnostic of parsing a file's bytes in the
// Terraform flavour. Terraform's parser keeps every file it has parsed and
// answers a second parse of the same file without diagnostics, so a
// command that loads the root module twice (terraform init: its early
// load, then the backend's) reports syntax errors once and the other
// diagnostics of loading twice.
type syntaxDiagnostic struct{}

// IsSyntaxDiagnostic reports whether d comes from parsing a configuration
// file's bytes (as opposed to decoding its blocks); only diagnostics of
// the Terraform flavour are marked.
func IsSyntaxDiagnostic(d *hcl.Diagnostic) bool {
	_, ok := d.Extra.(syntaxDiagnostic)
	return ok
}

// markSyntax marks diags (from parsing) as syntax diagnostics, but for
// those that already carry extra information.
func markSyntax(diags hcl.Diagnostics) {
	for _, d := range diags {
		if d.Extra == nil {
			d.Extra = syntaxDiagnostic{}
		}
	}
}
