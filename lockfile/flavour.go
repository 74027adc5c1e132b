package lockfile

import (
	"github.com/opentofu/svchost"

	"github.com/tfdeps/tfdeps/addrs"
)

// Flavour is the product whose lock file is read or written.
type Flavour int

const (
	// OpenTofu is the lock file of "tofu init" (the default).
	OpenTofu Flavour = iota
	// Terraform is the lock file of "terraform init": another header line
	// and registry.terraform.io as the host of addresses that name none.
	Terraform
)

// TerraformRegistryHost is the default provider host of Terraform.
const TerraformRegistryHost = svchost.Hostname("registry.terraform.io")

// header returns the two comment lines every written file starts with.
func (f Flavour) header() string {
	cmd := "tofu init"
	if f == Terraform {
		cmd = "terraform init"
	}
	return "# This file is maintained automatically by \"" + cmd + "\".\n" +
		"# Manual edits may be lost in future updates.\n"
}

// DefaultHost returns the registry host of a provider address that names no
// host.
func (f Flavour) DefaultHost() svchost.Hostname {
	if f == Terraform {
		return TerraformRegistryHost
	}
	return addrs.DefaultProviderRegistryHost
}

// ParseProvider parses a provider source address ("[HOST/][NAMESPACE/]TYPE")
// as this flavour does: like [addrs.ParseProviderSource], with the flavour's
// default host for an address that names none.
func (f Flavour) ParseProvider(s string) (addrs.Provider, error) {
	p, err := addrs.ParseProviderSource(s)
	if err != nil || f != Terraform || p.Hostname != addrs.DefaultProviderRegistryHost || hasHostPart(s) {
		return p, err
	}
	return addrs.NewProvider(TerraformRegistryHost, p.Namespace, p.Type), nil
}

// hasHostPart reports whether a source address string has three parts.
func hasHostPart(s string) bool {
	parts := 0
	for _, r := range s {
		if r == '/' {
			parts++
		}
	}
	return parts >= 2
}
