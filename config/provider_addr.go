package config

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
)

// parseProviderSource parses a required_providers source string into an
// address, with OpenTofu's diagnostics (providers.md §1.2) whose subject is
// rng. A one-part source gets the default namespace.
func parseProviderSource(f flavour.Flavour, src string, rng hcl.Range) (addrs.Provider, hcl.Diagnostics) {
	return addrs.ParseProviderSourceDiagsIn(f, src, rng.Ptr())
}

// parseProviderPart normalises a provider local name or type part.
func parseProviderPart(s string) (string, error) {
	return addrs.ParseProviderPart(s)
}

// impliedLocalName returns the local name implied by a resource type: the
// text before the first underscore.
func impliedLocalName(resourceType string) string {
	for i := 0; i < len(resourceType); i++ {
		if resourceType[i] == '_' {
			return resourceType[:i]
		}
	}
	return resourceType
}
