package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleaddr"
)

// classifySource parses the evaluated source string of a module call into
// mc.Source (modules.md §2) and sets mc.SourceAddr to its canonical
// String(). A call with a `version` argument accepts only a registry
// address. Failures leave mc.Source nil and mc.SourceAddr as written, and
// return OpenTofu's diagnostics about the source expression (§8.3 M2, M2r).
func (mc *ModuleCall) classifySource(raw string, f flavour.Flavour) hcl.Diagnostics {
	src, err := parseCallSource(raw, mc.HasVersion, f)
	if err == nil {
		mc.Source = src
		mc.SourceAddr = src.String()
		return nil
	}
	mc.Source = nil
	mc.SourceAddr = raw
	return hcl.Diagnostics{sourceDiagnostic(err, mc.HasVersion, mc.SourceAddrRange.Ptr(), f)}
}

// parseCallSource is moduleaddr.ParseRegistry when the call has a version,
// moduleaddr.Parse otherwise.
func parseCallSource(raw string, hasVersion bool, f flavour.Flavour) (moduleaddr.Source, error) {
	p := moduleaddr.Parser{}
	if f == flavour.Terraform {
		p.DefaultHost = f.DefaultHost()
	}
	if hasVersion {
		reg, err := p.ParseRegistry(raw)
		if err != nil {
			return nil, err
		}
		return reg, nil
	}
	return p.Parse(raw)
}

// sourceDiagnostic is the §8.3 diagnostic for a source parse error.
func sourceDiagnostic(err error, hasVersion bool, subject *hcl.Range, f flavour.Flavour) *hcl.Diagnostic {
	if rel, ok := moduleaddr.IsMaybeRelativePath(err); ok {
		return errorDiag("Invalid module source address", fmt.Sprintf(
			"%s failed to determine your intended installation method for remote module package %q.\n\nIf you intended this as a path relative to the current module, use \"./%s\" instead. The \"./\" prefix indicates that the address is a relative filesystem path.",
			f.Product(), rel.Addr, rel.Addr), subject)
	}
	if hasVersion {
		return errorDiag("Invalid registry module source address", fmt.Sprintf(
			"Failed to parse module registry address: %s.\n\n%s assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.",
			err, f.Product()), subject)
	}
	return errorDiag("Invalid module source address", fmt.Sprintf("Failed to parse module source address: %s.", err), subject)
}

// IsLocalModuleSource reports whether a module source is a local path
// ("./", "../", ".\", "..\").
func IsLocalModuleSource(raw string) bool { return moduleaddr.IsLocal(raw) }
