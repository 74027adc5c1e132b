package cliconfig

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
)

// DevOverridesWarning returns the warning init prints when development
// overrides are in effect, or nil when there are none. OpenTofu lists the
// overrides in map order; tfdeps sorts them by address. Addresses on
// flavour f's default registry are shown without their host, and the
// advice names f's command.
func DevOverridesWarning(f flavour.Flavour, overrides map[addrs.Provider]string) *hcl.Diagnostic {
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
		b.WriteString(" - " + p.ForDisplayIn(f) + " in " + overrides[p] + "\n")
	}
	b.WriteString("\nSkip " + f.Command() + " init when using provider development overrides. It is not necessary and may error unexpectedly.")
	return warningDiag("Provider development overrides are in effect", b.String())
}
