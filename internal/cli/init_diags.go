package cli

import (
	"context"
	"errors"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
	"github.com/tfdeps/tfdeps/workdir"
)

func errorDiag(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
}

func warningDiag(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: detail}
}

// isCanceled reports errors that come from an interrupt: they produce no
// diagnostic of their own.
func isCanceled(err error) bool {
	var rc registry.RequestCanceledError
	return errors.Is(err, context.Canceled) || errors.As(err, &rc)
}

// fetchFailureDiag is the diagnostic of a failed install (workdir's).
func fetchFailureDiag(fl flavour.Flavour, p addrs.Provider, v versions.Version, err error, reqs providerinstall.Requirements, tofuVersion string) *hcl.Diagnostic {
	return workdir.FetchFailure(fl, p, v, err, reqs, tofuVersion)
}

// lockReadFailureDiag is the single error tofu reports for a lock file
// with errors (workdir's).
func lockReadFailureDiag(diags hcl.Diagnostics) *hcl.Diagnostic {
	return workdir.LockReadFailure(diags)
}
