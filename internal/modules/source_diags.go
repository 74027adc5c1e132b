package modules

import (
	"errors"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
)

// SourceDiags are the "Invalid module source address" errors (modules.md
// §8.3 M2, M2r) for the calls of mod whose source does not parse, in
// declaration order. The configuration loader does not report them; init
// and get add them for the root module, the walk for child modules.
func SourceDiags(mod *config.Module) hcl.Diagnostics {
	calls := make([]*config.ModuleCall, 0, len(mod.ModuleCalls))
	for _, c := range mod.ModuleCalls {
		calls = append(calls, c)
	}
	sort.Slice(calls, func(i, j int) bool {
		a, b := calls[i].DeclRange, calls[j].DeclRange
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
	var diags hcl.Diagnostics
	for _, c := range calls {
		if c.SourceAddr == "" {
			continue
		}
		if _, err := ParseSource(c.SourceAddr, c.HasVersion); err != nil {
			diags = append(diags, sourceDiag(err, c.HasVersion, c.SourceAddrRange))
		}
	}
	return diags
}

func sourceDiag(err error, hasVersion bool, rng hcl.Range) *hcl.Diagnostic {
	if hasVersion {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid registry module source address", Subject: rng.Ptr(), Detail: fmt.Sprintf(
			"Failed to parse module registry address: %s.\n\nOpenTofu assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.", err)}
	}
	var rel *MaybeRelativePathError
	if errors.As(err, &rel) {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid module source address", Subject: rng.Ptr(), Detail: fmt.Sprintf(
			"OpenTofu failed to determine your intended installation method for remote module package %q.\n\nIf you intended this as a path relative to the current module, use \"./%s\" instead. The \"./\" prefix indicates that the address is a relative filesystem path.", rel.Addr, rel.Addr)}
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid module source address", Subject: rng.Ptr(), Detail: fmt.Sprintf("Failed to parse module source address: %s.", err)}
}
