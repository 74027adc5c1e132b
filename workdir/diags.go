package workdir

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// isCanceled reports errors that come from an interrupt: they produce no
// diagnostic of their own.
func isCanceled(err error) bool {
	var rc registry.RequestCanceledError
	return errors.Is(err, context.Canceled) || errors.As(err, &rc)
}

// queryFailureDiags returns the diagnostics of a failed version selection.
// suggest builds the text that suggests another address for a provider the
// registry does not know.
func queryFailureDiags(fl flavour.Flavour, p addrs.Provider, err error, suggest func(addrs.Provider) string) hcl.Diagnostics {
	const query = "Failed to query available provider packages"
	var (
		notFound *providersource.NotFoundError
		unknown  *registry.ProviderUnknownError
		noReg    *registry.NoProviderRegistryError
	)
	switch {
	case errors.As(err, &notFound):
		var lines []string
		for _, s := range notFound.Sources {
			lines = append(lines, "  - "+s)
		}
		return hcl.Diagnostics{errorDiag(query, fmt.Sprintf("Could not retrieve the list of available versions for provider %s: %s\n\n%s",
			p.ForDisplayIn(fl), err, strings.Join(lines, "\n")))}
	case errors.As(err, &unknown):
		return hcl.Diagnostics{errorDiag(query, fmt.Sprintf("Could not retrieve the list of available versions for provider %s: %s%s",
			p.ForDisplayIn(fl), err, suggest(p)))}
	case errors.As(err, &noReg):
		return hcl.Diagnostics{errorDiag("Invalid provider registry host", noRegistryDetail(fl, p, noReg))}
	}
	if fl == flavour.Terraform {
		return hcl.Diagnostics{errorDiag(query, fmt.Sprintf("Could not retrieve the list of available versions for provider %s: %s\n\nTo see which modules are currently depending on %s and what versions are specified, run the following command:\n    terraform providers",
			p.ForDisplayIn(fl), err, p.ForDisplayIn(fl)))}
	}
	return hcl.Diagnostics{errorDiag("Failed to resolve provider packages", fmt.Sprintf("Could not resolve provider %s: %s", p.ForDisplayIn(fl), err))}
}

func noRegistryDetail(fl flavour.Flavour, p addrs.Provider, e *registry.NoProviderRegistryError) string {
	switch {
	case p.Hostname == "github.com" && !e.OtherVersion:
		return fmt.Sprintf(wordsOf(fl, "The given source address %q specifies a GitHub repository rather than a OpenTofu provider. Refer to the documentation of the provider to find the correct source address to use."), p.String())
	case e.OtherVersion:
		return fmt.Sprintf(wordsOf(fl, "The host %q given in provider source address %q does not offer a OpenTofu provider registry that is compatible with this OpenTofu version, but it may be compatible with a different OpenTofu version."), string(p.Hostname), p.String())
	}
	return fmt.Sprintf(wordsOf(fl, "The host %q given in provider source address %q does not offer a OpenTofu provider registry."), string(p.Hostname), p.String())
}

// FetchFailure returns the diagnostic of a failed install of version v
// of p, worded for flavour fl; reqs and tofuVersion name the constraints and
// the emulated version in the incompatible-protocol text.
func FetchFailure(fl flavour.Flavour, p addrs.Provider, v versions.Version, err error, reqs providerinstall.Requirements, tofuVersion string) *hcl.Diagnostic {
	const incompatible = "Incompatible provider version"
	var (
		proto    *registry.ProtocolUnsupportedError
		platform *registry.PlatformUnsupportedError
	)
	switch {
	case errors.As(err, &proto):
		return errorDiag(incompatible, protocolDetail(fl, p, v, proto.Suggestion, reqs[p], tofuVersion))
	case errors.As(err, &platform):
		return errorDiag(incompatible, platformDetail(fl, p, v, platform))
	}
	var pe *providerinstall.ProviderError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return errorDiag("Failed to install provider", fmt.Sprintf("Error while installing %s v%s: %s", p.ForDisplayIn(fl), v, err))
}

func protocolDetail(fl flavour.Flavour, p addrs.Provider, v, suggestion versions.Version, c versions.Constraints, tofuVersion string) string {
	if suggestion.IsZero() {
		return fmt.Sprintf(wordsOf(fl, "No compatible versions of provider %s were found."), p.String())
	}
	if suggestion.LessThan(v) {
		return fmt.Sprintf(wordsOf(fl, "Provider %q v%s is not compatible with OpenTofu %s.\n"+
			"You need to downgrade to v%s or earlier. Select it with the following constraint:\n\tversion = %q\n\n"+
			"OpenTofu checked all of the plugin versions matching the given constraint:\n\t%s\n\n"+
			"Consult the documentation for this provider for more information on compatibility between provider and OpenTofu versions.\n"+
			"Alternatively, upgrade to the latest version of OpenTofu for compatibility with newer provider releases.\n"),
			p.ForDisplayIn(fl), v, tofuVersion, suggestion, suggestion.String(), c)
	}
	return fmt.Sprintf(wordsOf(fl, "Provider %q v%s is not compatible with OpenTofu %s.\n"+
		"Provider version %s is the latest compatible version. Select it with the following version constraint:\n\tversion = %q\n\n"+
		"OpenTofu checked all of the plugin versions matching the given constraint:\n\t%s\n\n"+
		"Consult the documentation for this provider for more information on compatibility between provider and OpenTofu versions.\n"),
		p.ForDisplayIn(fl), v, tofuVersion, suggestion, suggestion.String(), c)
}

func platformDetail(fl flavour.Flavour, p addrs.Provider, v versions.Version, e *registry.PlatformUnsupportedError) string {
	if e.MirrorURL != "" {
		return fmt.Sprintf(wordsOf(fl, "Your chosen provider mirror at %s does not have a %s v%s package available for your current platform, %s.\n\n"+
			"Provider releases are separate from OpenTofu CLI releases, so this provider might not support your current platform. "+
			"Alternatively, the mirror itself might have only a subset of the plugin packages available in the origin registry, at %s."),
			e.MirrorURL, p.String(), v, e.Platform, string(p.Hostname))
	}
	return fmt.Sprintf(wordsOf(fl, "Provider %s v%s does not have a package available for your current platform, %s.\n\n"+
		"Provider releases are separate from OpenTofu CLI releases, so not all providers are available for all platforms. "+
		"Other versions of this provider may have different platforms supported."),
		p.String(), v, e.Platform)
}

// cacheLinkDiag is the error of linking a package from the shared cache.
func cacheLinkDiag(fl flavour.Flavour, p addrs.Provider, v versions.Version, err error) *hcl.Diagnostic {
	var pe *providerinstall.ProviderError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return errorDiag("Failed to install provider from shared cache",
		fmt.Sprintf("Error while importing %s v%s from the shared cache directory: %s.", p.ForDisplayIn(fl), v, err))
}

// builtInDiag is the error of a requirement on a built-in provider.
func builtInDiag(fl flavour.Flavour, p addrs.Provider, err error) *hcl.Diagnostic {
	return errorDiag("Invalid dependency on built-in provider", fmt.Sprintf("Cannot use %s: %s.", p.ForDisplayIn(fl), err))
}

// registryWarningsDiag carries the warnings a registry returned.
func registryWarningsDiag(p addrs.Provider, warnings []string) *hcl.Diagnostic {
	lines := make([]string, len(warnings))
	for i, w := range warnings {
		lines[i] = "- " + w
	}
	return warningDiag("Additional provider information from registry",
		fmt.Sprintf("The remote registry returned warnings for %s:\n%s", p.String(), strings.Join(lines, "\n")))
}

// incompleteLockDiag warns that the lock file has the hashes of one
// platform only. The providers are listed by ForDisplay() name sorted as
// strings, as OpenTofu does, which is not address order: "café.fr/a/b"
// precedes "example.com/a/b".
func incompleteLockDiag(fl flavour.Flavour, ps []addrs.Provider, platform string) *hcl.Diagnostic {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.ForDisplayIn(fl)
	}
	sort.Strings(names)
	return warningDiag("Incomplete lock file information for providers", fmt.Sprintf(wordsOf(fl,
		"Due to your customized provider installation methods, OpenTofu was forced to calculate lock file checksums locally for the following providers:\n  - %s\n\n"+
			"The current .terraform.lock.hcl file only includes checksums for %s, so OpenTofu running on another platform will fail to install these providers.\n\n"+
			"To calculate additional checksums for another platform, run:\n  tofu providers lock -platform=linux_amd64\n(where linux_amd64 is the platform to generate)"),
		strings.Join(names, "\n  - "), platform))
}

// LockReadFailure is the single error tofu init reports when the lock
// file has errors: the diagnostics, warnings included, folded into the
// Summary as Go's error text of a diagnostics list, with no Detail.
func LockReadFailure(diags hcl.Diagnostics) *hcl.Diagnostic {
	item := func(d *hcl.Diagnostic) string {
		if d.Detail == "" {
			return d.Summary
		}
		return d.Summary + ": " + d.Detail
	}
	text := ""
	if len(diags) == 1 {
		text = item(diags[0])
	} else {
		var b strings.Builder
		fmt.Fprintf(&b, "%d problems:\n", len(diags))
		for _, d := range diags {
			b.WriteString("\n- " + item(d))
		}
		text = b.String()
	}
	return errorDiag("failed to read dependency lock file: "+text, "")
}

// wordsOf returns format, one of this package's own texts, in flavour
// fl's words: the product's name and its command's. It is applied to the
// format before any value is put in, so what a text quotes is never
// changed.
func wordsOf(fl flavour.Flavour, format string) string {
	if fl != flavour.Terraform {
		return format
	}
	format = strings.ReplaceAll(format, "OpenTofu", fl.Product())
	return strings.ReplaceAll(format, "tofu ", fl.Command()+" ")
}
