package workdir

import (
	"github.com/hashicorp/hcl/v2"
)

// Run is one initialisation of the working directory, step by step, for
// a caller that shows something between the steps. Its methods run the
// steps in the order Init runs them; each returns what it found and its
// diagnostics.
type Run struct {
	opts   Options
	events Events
	// modulesInstalled is set once the module installer ran: OpenTofu then
	// builds the module tree twice (installing, then loading) and reports
	// the tree checks' warnings twice.
	modulesInstalled bool
	// backendRoot is the root module as the backend step reads it;
	// backend what that step left (nil until it ran).
	backendRoot *rootOnce
	backend     *BackendResult
}

// NewRun starts an initialisation with opts, reporting to events.
func NewRun(opts Options, events Events) *Run {
	return &Run{opts: opts, events: events}
}

// ModulesInstalled reports whether the module installer ran.
func (r *Run) ModulesInstalled() bool { return r.modulesInstalled }

func errorDiag(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
}

func warningDiag(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: detail}
}
