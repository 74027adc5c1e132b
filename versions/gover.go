package versions

import (
	goversion "github.com/hashicorp/go-version"
)

// CheckConfigSyntax reports whether s is accepted by the constraint parser
// OpenTofu applies when it decodes configuration: HashiCorp go-version's
// NewConstraint (comma-separated pieces, each an optional operator and a
// version with an optional "v" prefix and any number of numeric parts,
// whitespace allowed around them). The empty string is rejected.
// Configuration decoders report a failure as "This string does not use
// correct version constraint syntax."
//
// A string that passes can still fail ParseConstraints, which OpenTofu
// applies afterwards when it collects requirements.
func CheckConfigSyntax(s string) error {
	_, err := goversion.NewConstraint(s)
	return err
}
