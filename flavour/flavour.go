// Package flavour names the product whose behaviour tfdeps emulates: OpenTofu
// (the default) or Terraform.
//
// A Flavour is a plain value that callers pass down to the libraries that
// behave differently between the two products, the way the emulated version
// is passed; no package keeps a flavour of its own. This package owns only the
// facts that are the same for every library: the product and command names,
// the default registry host of provider addresses that name none, and the
// default emulated version. What a flavour changes inside a library is
// described in that library's package documentation.
package flavour

import (
	"fmt"

	"github.com/opentofu/svchost"
)

// Flavour is the emulated product.
type Flavour int

const (
	// OpenTofu is OpenTofu v1.12 (the default, the zero value).
	OpenTofu Flavour = iota
	// Terraform is Terraform v1.15.
	Terraform
)

// Default registry hosts of provider source addresses that name no host.
const (
	OpenTofuRegistryHost  = svchost.Hostname("registry.opentofu.org")
	TerraformRegistryHost = svchost.Hostname("registry.terraform.io")
)

// Default emulated versions.
const (
	DefaultOpenTofuVersion  = "1.12.6"
	DefaultTerraformVersion = "1.15.9"
)

// Parse reads the value of -compat / TFDEPS_COMPAT: "opentofu" or
// "terraform".
func Parse(s string) (Flavour, error) {
	switch s {
	case "opentofu":
		return OpenTofu, nil
	case "terraform":
		return Terraform, nil
	}
	return OpenTofu, fmt.Errorf("invalid compatibility mode %q: must be \"opentofu\" or \"terraform\"", s)
}

// String returns the name Parse accepts.
func (f Flavour) String() string {
	if f == Terraform {
		return "terraform"
	}
	return "opentofu"
}

// Product returns the product name as messages print it: "OpenTofu" or
// "Terraform".
func (f Flavour) Product() string {
	if f == Terraform {
		return "Terraform"
	}
	return "OpenTofu"
}

// Command returns the command users type: "tofu" or "terraform".
func (f Flavour) Command() string {
	if f == Terraform {
		return "terraform"
	}
	return "tofu"
}

// DefaultHost returns the registry host of a provider source address that
// names none.
func (f Flavour) DefaultHost() svchost.Hostname {
	if f == Terraform {
		return TerraformRegistryHost
	}
	return OpenTofuRegistryHost
}

// DefaultVersion returns the product version emulated when none is given.
func (f Flavour) DefaultVersion() string {
	if f == Terraform {
		return DefaultTerraformVersion
	}
	return DefaultOpenTofuVersion
}
