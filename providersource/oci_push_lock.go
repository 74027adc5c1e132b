package providersource

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/cliconfig"
)

// OCIMirrors returns a source made of the oci_mirror methods of the CLI
// configuration's provider_installation alone, in order, with their
// include and exclude patterns: what "providers lock -oci-mirror" reads
// (OpenTofu's providers lock never uses them). A configuration without
// one is an error.
func OCIMirrors(opts BuildOptions) (Source, hcl.Diagnostics) {
	var only cliconfig.ProviderInstallation
	if pi := opts.Config.Installation(); pi != nil {
		for _, m := range pi.Methods {
			if m.Kind == cliconfig.MethodOCIMirror {
				only.Methods = append(only.Methods, m)
			}
		}
	}
	if len(only.Methods) == 0 {
		return nil, hcl.Diagnostics{errorDiag("No OCI mirror configured",
			"The -oci-mirror option locks providers from the oci_mirror methods of the CLI configuration's provider_installation block, but it has none.")}
	}
	return explicitSource(&only, opts)
}
