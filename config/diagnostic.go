package config

import "github.com/hashicorp/hcl/v2"

// errorDiag is an error diagnostic about subject (nil: none).
func errorDiag(summary, detail string, subject *hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject}
}

// warningDiag is a warning diagnostic about subject (nil: none).
func warningDiag(summary, detail string, subject *hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: detail, Subject: subject}
}
