package lockfile

import (
	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
)

// Flavour is the product whose lock file is read or written: another header
// line, and another default host for addresses that name none.
type Flavour = flavour.Flavour

const (
	// OpenTofu is the lock file of "tofu init" (the default).
	OpenTofu = flavour.OpenTofu
	// Terraform is the lock file of "terraform init".
	Terraform = flavour.Terraform
)

// TerraformRegistryHost is the default provider host of Terraform.
const TerraformRegistryHost = flavour.TerraformRegistryHost

// HeaderLine returns the first line of a lock file written by flavour f's
// init command, newline included.
func HeaderLine(f Flavour) string {
	return "# This file is maintained automatically by \"" + f.Command() + " init\".\n"
}

// header returns the two comment lines every written file starts with.
func header(f Flavour) string {
	return HeaderLine(f) + "# Manual edits may be lost in future updates.\n"
}

// ParseProvider parses a provider source address ("[HOST/][NAMESPACE/]TYPE")
// as flavour f does: like [addrs.ParseProviderSource], with f's default host
// for an address that names none.
func ParseProvider(f Flavour, s string) (addrs.Provider, error) {
	return addrs.ParseProviderSourceIn(f, s)
}
