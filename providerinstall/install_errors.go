package providerinstall

import (
	"fmt"
	"strings"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/versions"
)

// InstallError collects the failure of every provider that could not be
// installed. Its text is OpenTofu's "some providers could not be
// installed" list, sorted by address.
type InstallError struct {
	Providers map[addrs.Provider]error
}

func (e *InstallError) Error() string {
	var b strings.Builder
	b.WriteString("some providers could not be installed:\n")
	for _, p := range sortedProviders(e.Providers) {
		fmt.Fprintf(&b, "- %s: %s\n", p, e.Providers[p])
	}
	return strings.TrimSpace(b.String())
}

// Unwrap returns the per-provider errors in address order.
func (e *InstallError) Unwrap() []error {
	var out []error
	for _, p := range sortedProviders(e.Providers) {
		out = append(out, e.Providers[p])
	}
	return out
}

// BuiltInError says a built-in provider cannot be used as configured.
type BuiltInError struct {
	Provider addrs.Provider
	// Constrained is true when the failure is an explicit version
	// constraint; otherwise the built-in provider is unknown.
	Constrained bool
	// Flavour selects the product the message names.
	Flavour flavour.Flavour
}

func (e *BuiltInError) Error() string {
	if e.Constrained {
		return "built-in providers do not support explicit version constraints"
	}
	return fmt.Sprintf("this %s release has no built-in provider named %q", e.Flavour.Product(), e.Provider.Type)
}

// LockedMismatchError says the locked version no longer meets the
// configured constraints.
type LockedMismatchError struct {
	Provider    addrs.Provider
	Version     versions.Version
	Constraints versions.Constraints
	// Flavour selects the command the message names.
	Flavour flavour.Flavour
}

func (e *LockedMismatchError) Error() string {
	return fmt.Sprintf("locked provider %s %s does not match configured version constraint %s; must use %s init -upgrade to allow selection of new versions",
		e.Provider, e.Version, e.Constraints, e.Flavour.Command())
}

// ChecksumMismatchError says a package does not match the hashes the lock
// file recorded for it. Local is true for an unpacked package directory.
type ChecksumMismatchError struct {
	Provider addrs.Provider
	Version  versions.Version
	Local    bool
	// Flavour selects the product whose documentation the message links.
	Flavour flavour.Flavour
}

func (e *ChecksumMismatchError) Error() string {
	doc := "https://opentofu.org/docs/language/files/dependency-lock/#checksum-verification"
	if e.Flavour == flavour.Terraform {
		doc = "https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification"
	}
	if e.Local {
		return fmt.Sprintf("the local package for %s %s doesn't match any of the checksums previously recorded in the dependency lock file (this might be because the available checksums are for packages targeting different platforms); for more information: %s",
			e.Provider, e.Version, doc)
	}
	return fmt.Sprintf("the current package for %s %s doesn't match any of the checksums previously recorded in the dependency lock file; for more information: %s",
		e.Provider, e.Version, doc)
}

// Phase says in which phase a provider failed, which decides the
// diagnostic the CLI shows.
type Phase int

const (
	// PhaseQuery: choosing a version (I5–I9).
	PhaseQuery Phase = iota + 1
	// PhaseFetch: getting and installing the package (I10–I13, I16).
	PhaseFetch
	// PhaseCacheLink: linking from the plugin cache (I15).
	PhaseCacheLink
)

// ProviderError is the failure of one provider, with the phase it failed
// in.
type ProviderError struct {
	Provider addrs.Provider
	Version  versions.Version // zero in PhaseQuery
	Phase    Phase
	Err      error
}

func (e *ProviderError) Error() string { return e.Err.Error() }
func (e *ProviderError) Unwrap() error { return e.Err }

func sortedProviders[V any](m map[addrs.Provider]V) []addrs.Provider {
	out := make([]addrs.Provider, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sortProviders(out)
	return out
}
