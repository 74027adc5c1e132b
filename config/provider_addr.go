package config

import (
	"github.com/hashicorp/hcl/v2"
	tfaddr "github.com/opentofu/registry-address/v2"

	"github.com/tfdeps/tfdeps/addrs"
)

// parseProviderSource parses a required_providers source string into an
// address, with OpenTofu's diagnostics (providers.md §1.2) whose subject is
// rng. A one-part source gets the default namespace.
func parseProviderSource(src string, rng hcl.Range) (addrs.Provider, hcl.Diagnostics) {
	p, err := tfaddr.ParseProviderSource(src)
	if err != nil {
		d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider source string", Detail: err.Error(), Subject: rng.Ptr()}
		if pe, ok := err.(*tfaddr.ParserError); ok {
			d.Summary, d.Detail = pe.Summary, pe.Detail
		}
		return addrs.Provider{}, hcl.Diagnostics{d}
	}
	ns := p.Namespace
	if ns == tfaddr.UnknownProviderNamespace {
		ns = addrs.DefaultProviderNamespace
	}
	return addrs.NewProvider(p.Hostname, ns, p.Type), nil
}

// parseProviderPart normalises a provider local name or type part.
func parseProviderPart(s string) (string, error) {
	return tfaddr.ParseProviderPart(s)
}

// impliedProviderPart returns the local name implied by a resource type:
// the text before the first underscore.
func impliedLocalName(resourceType string) string {
	for i := 0; i < len(resourceType); i++ {
		if resourceType[i] == '_' {
			return resourceType[:i]
		}
	}
	return resourceType
}
