package cli

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// The libraries make their texts in the words of the flavour they are
// given, and so do the views of this package. What remains here is
// temporary: a few texts are still made in OpenTofu's words by code that
// does not pass the flavour yet. legacyTexts lists each of them, as the
// format its maker uses and the format of Terraform's words; in the
// Terraform flavour the views and the diagnostic printer replace the
// parts of those exact formats that differ, and nothing else, so that
// what a text quotes from the user (a file name, a module source, a
// description) is printed as written.

// legacyTexts pairs OpenTofu's format of each remaining text with its
// Terraform format. Both have the same verbs in the same order.
var legacyTexts = [][2]string{
	// Made by the init views' callers with the OpenTofu forms of this
	// package's texts.
	{initEmptyText, initEmptyTextIn(flavour.Terraform)},
	{initSuccessText, initSuccessTextIn(flavour.Terraform)},
	{initNextStepsText, initNextStepsTextIn(flavour.Terraform)},
	{lockCreatedText, lockCreatedTextIn(flavour.Terraform)},
	{lockChangedText, lockChangedTextIn(flavour.Terraform)},
	{backendConfiguredText, backendConfiguredTextIn(flavour.Terraform)},
	{backendUnconfiguringText, backendUnconfiguringTextIn(flavour.Terraform)},
	{backendUnsetText, backendUnsetTextIn(flavour.Terraform)},
	{errBackendClearSaved, errBackendClearSavedIn(flavour.Terraform)},
	{errBackendWriteSaved, errBackendWriteSavedIn(flavour.Terraform)},
	{errBackendSavedUnknown, errBackendSavedUnknownIn(flavour.Terraform)},
	// init_events.go
	{signingNotice, "\nPartner and community providers are signed by their developers.\n" +
		"If you'd like to know more about provider signing, you can read about it here:\n" +
		"https://developer.hashicorp.com/terraform/cli/plugins/signing"},
	{"- %s is built in to OpenTofu", "- %s is built in to Terraform"},
	// init_requirements.go
	{"OpenTofu has detected multiple providers of type %s (%s) which may be a misconfiguration.\n\nIf this is intentional you can ignore this warning",
		"Terraform has detected multiple providers of type %s (%s) which may be a misconfiguration.\n\nIf this is intentional you can ignore this warning"},
	{"\nSkip tofu init when using provider development overrides. It is not necessary and may error unexpectedly.",
		"\nSkip terraform init when using provider development overrides. It is not necessary and may error unexpectedly."},
	{"\n\nAll modules should specify their required_providers so that external consumers will get the correct providers when using a module. To see which modules are currently depending on %s, run the following command:\n    tofu providers",
		"\n\nAll modules should specify their required_providers so that external consumers will get the correct providers when using a module. To see which modules are currently depending on %s, run the following command:\n    terraform providers"},
	{"\n\nIf you believe this provider is missing from the registry, please submit a issue on the OpenTofu Registry https://github.com/opentofu/registry/issues/new/choose", ""},
	{"Due to the prefix of the resource type name OpenTofu guessed that you intended to associate %s with a provider whose local name is \"%s\", but that name is not declared in this module's required_providers block. OpenTofu therefore guessed that you intended to use %s, but that provider does not exist.\n\n" +
		"Make at least one of the following changes to tell OpenTofu which provider to use:\n\n" +
		"- Add a declaration for local name \"%s\" to this module's required_providers block, specifying the full source address for the provider you intended to use.\n" +
		"- Verify that \"%s\" is the correct resource type name to use. Did you omit a prefix which would imply the correct provider?\n" +
		"- Use a \"provider\" argument within this resource block to override OpenTofu's automatic selection of the local name \"%s\".\n",
		"Due to the prefix of the resource type name Terraform guessed that you intended to associate %s with a provider whose local name is \"%s\", but that name is not declared in this module's required_providers block. Terraform therefore guessed that you intended to use %s, but that provider does not exist.\n\n" +
			"Make at least one of the following changes to tell Terraform which provider to use:\n\n" +
			"- Add a declaration for local name \"%s\" to this module's required_providers block, specifying the full source address for the provider you intended to use.\n" +
			"- Verify that \"%s\" is the correct resource type name to use. Did you omit a prefix which would imply the correct provider?\n" +
			"- Use a \"provider\" argument within this resource block to override Terraform's automatic selection of the local name \"%s\".\n"},
	// init_lock.go
	{`Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run "tofu init" without the "-lockfile=readonly" flag.`,
		`Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run "terraform init" without the "-lockfile=readonly" flag.`},
	{`Changes to the provider selections were detected, but not saved in the .terraform.lock.hcl file. To record these selections, run "tofu init" without the "-lockfile=readonly" flag.`,
		`Changes to the provider selections were detected, but not saved in the .terraform.lock.hcl file. To record these selections, run "terraform init" without the "-lockfile=readonly" flag.`},
	// init_diags.go
	{"The given source address %q specifies a GitHub repository rather than a OpenTofu provider. Refer to the documentation of the provider to find the correct source address to use.",
		"The given source address %q specifies a GitHub repository rather than a Terraform provider. Refer to the documentation of the provider to find the correct source address to use."},
	{"The host %q given in provider source address %q does not offer a OpenTofu provider registry that is compatible with this OpenTofu version, but it may be compatible with a different OpenTofu version.",
		"The host %q given in provider source address %q does not offer a Terraform provider registry that is compatible with this Terraform version, but it may be compatible with a different Terraform version."},
	{"The host %q given in provider source address %q does not offer a OpenTofu provider registry.",
		"The host %q given in provider source address %q does not offer a Terraform provider registry."},
	{"Provider %q v%s is not compatible with OpenTofu %s.\n" +
		"You need to downgrade to v%s or earlier. Select it with the following constraint:\n\tversion = %q\n\n" +
		"OpenTofu checked all of the plugin versions matching the given constraint:\n\t%s\n\n" +
		"Consult the documentation for this provider for more information on compatibility between provider and OpenTofu versions.\n" +
		"Alternatively, upgrade to the latest version of OpenTofu for compatibility with newer provider releases.\n",
		"Provider %q v%s is not compatible with Terraform %s.\n" +
			"You need to downgrade to v%s or earlier. Select it with the following constraint:\n\tversion = %q\n\n" +
			"Terraform checked all of the plugin versions matching the given constraint:\n\t%s\n\n" +
			"Consult the documentation for this provider for more information on compatibility between provider and Terraform versions.\n" +
			"Alternatively, upgrade to the latest version of Terraform for compatibility with newer provider releases.\n"},
	{"Provider %q v%s is not compatible with OpenTofu %s.\n" +
		"Provider version %s is the latest compatible version. Select it with the following version constraint:\n\tversion = %q\n\n" +
		"OpenTofu checked all of the plugin versions matching the given constraint:\n\t%s\n\n" +
		"Consult the documentation for this provider for more information on compatibility between provider and OpenTofu versions.\n",
		"Provider %q v%s is not compatible with Terraform %s.\n" +
			"Provider version %s is the latest compatible version. Select it with the following version constraint:\n\tversion = %q\n\n" +
			"Terraform checked all of the plugin versions matching the given constraint:\n\t%s\n\n" +
			"Consult the documentation for this provider for more information on compatibility between provider and Terraform versions.\n"},
	{"Your chosen provider mirror at %s does not have a %s v%s package available for your current platform, %s.\n\n" +
		"Provider releases are separate from OpenTofu CLI releases, so this provider might not support your current platform. " +
		"Alternatively, the mirror itself might have only a subset of the plugin packages available in the origin registry, at %s.",
		"Your chosen provider mirror at %s does not have a %s v%s package available for your current platform, %s.\n\n" +
			"Provider releases are separate from Terraform CLI releases, so this provider might not support your current platform. " +
			"Alternatively, the mirror itself might have only a subset of the plugin packages available in the origin registry, at %s."},
	{"Provider %s v%s does not have a package available for your current platform, %s.\n\n" +
		"Provider releases are separate from OpenTofu CLI releases, so not all providers are available for all platforms. " +
		"Other versions of this provider may have different platforms supported.",
		"Provider %s v%s does not have a package available for your current platform, %s.\n\n" +
			"Provider releases are separate from Terraform CLI releases, so not all providers are available for all platforms. " +
			"Other versions of this provider may have different platforms supported."},
	{"Due to your customized provider installation methods, OpenTofu was forced to calculate lock file checksums locally for the following providers:\n  - %s\n\n" +
		"The current .terraform.lock.hcl file only includes checksums for %s, so OpenTofu running on another platform will fail to install these providers.\n\n" +
		"To calculate additional checksums for another platform, run:\n  tofu providers lock -platform=linux_amd64\n(where linux_amd64 is the platform to generate)",
		"Due to your customized provider installation methods, Terraform was forced to calculate lock file checksums locally for the following providers:\n  - %s\n\n" +
			"The current .terraform.lock.hcl file only includes checksums for %s, so Terraform running on another platform will fail to install these providers.\n\n" +
			"To calculate additional checksums for another platform, run:\n  terraform providers lock -platform=linux_amd64\n(where linux_amd64 is the platform to generate)"},
}

// formatVerb matches a verb of a fmt format.
var formatVerb = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z]`)

// legacyWords replaces, in the Terraform flavour, the literal parts of
// legacyTexts that differ between the two formats.
var legacyWords = newLegacyReplacer(legacyTexts)

func newLegacyReplacer(pairs [][2]string) *strings.Replacer {
	seen := map[string]string{}
	for _, p := range pairs {
		opentofu, terraform := formatVerb.Split(p[0], -1), formatVerb.Split(p[1], -1)
		if len(opentofu) != len(terraform) {
			panic(fmt.Sprintf("legacy text %q: the Terraform format has other verbs", p[0]))
		}
		for i := range opentofu {
			if opentofu[i] == terraform[i] {
				continue
			}
			if opentofu[i] == "" {
				panic(fmt.Sprintf("legacy text %q: an empty part differs", p[0]))
			}
			if prev, ok := seen[opentofu[i]]; ok && prev != terraform[i] {
				panic(fmt.Sprintf("legacy text part %q has two Terraform forms", opentofu[i]))
			}
			seen[opentofu[i]] = terraform[i]
		}
	}
	parts := make([]string, 0, len(seen))
	for k := range seen {
		parts = append(parts, k)
	}
	// The longest first: the replacer tries its pairs in order.
	sort.Slice(parts, func(i, j int) bool {
		if len(parts[i]) != len(parts[j]) {
			return len(parts[i]) > len(parts[j])
		}
		return parts[i] < parts[j]
	})
	args := make([]string, 0, 2*len(parts))
	for _, k := range parts {
		args = append(args, k, seen[k])
	}
	return strings.NewReplacer(args...)
}

// words returns s with the remaining legacy texts in the flavour's words.
func (m *Meta) words(s string) string { return wordsFor(m.Flavour, s) }

// wordsFor returns s with the remaining legacy texts in flavour f's words.
func wordsFor(f flavour.Flavour, s string) string {
	if f != flavour.Terraform {
		return s
	}
	return legacyWords.Replace(s)
}

// wordDiagnostics returns diags with the remaining legacy texts in the
// flavour's words (copies: the callers' diagnostics are left alone).
func (m *Meta) wordDiagnostics(diags hcl.Diagnostics) hcl.Diagnostics {
	if m.Flavour != flavour.Terraform {
		return diags
	}
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		c := *d
		c.Summary, c.Detail = m.words(d.Summary), m.words(d.Detail)
		out[i] = &c
	}
	return out
}
