package cliconfig

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
)

// DevOverridesWarning returns the warning init prints when development
// overrides are in effect, or nil when there are none. OpenTofu lists the
// overrides in map order; tfdeps sorts them by address.
func DevOverridesWarning(overrides map[addrs.Provider]string) *hcl.Diagnostic {
	if len(overrides) == 0 {
		return nil
	}
	providers := make([]addrs.Provider, 0, len(overrides))
	for p := range overrides {
		providers = append(providers, p)
	}
	slices.SortFunc(providers, addrs.Provider.Compare)
	var b strings.Builder
	b.WriteString("The following provider development overrides are set in the CLI configuration:\n")
	for _, p := range providers {
		b.WriteString(" - " + p.ForDisplay() + " in " + overrides[p] + "\n")
	}
	b.WriteString("\nSkip tofu init when using provider development overrides. It is not necessary and may error unexpectedly.")
	return warningDiag("Provider development overrides are in effect", b.String())
}
