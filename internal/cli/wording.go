package cli

import (
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// The libraries word their diagnostics as OpenTofu does; in the Terraform
// flavour the CLI rewords what it prints (diagnostic summaries and details,
// init's messages and progress lines) with Terraform's product and command
// names and the few texts where Terraform's wording differs beyond the
// names. Source snippets and the rendered configuration are never
// reworded: they are the user's text.

// terraformWords maps OpenTofu's texts to Terraform's, longest first.
var terraformWords = strings.NewReplacer(
	"OpenTofu encountered problems during initialization", "Terraform encountered problems during initialisation",
	"\n\nIf you believe this provider is missing from the registry, please submit a issue on the OpenTofu Registry https://github.com/opentofu/registry/issues/new/choose", "",
	"https://opentofu.org/docs/language/files/dependency-lock/#checksum-verification", "https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification",
	"\nProviders are signed by their developers.\n", "\nPartner and community providers are signed by their developers.\n",
	"https://opentofu.org/docs/cli/plugins/signing/", "https://developer.hashicorp.com/terraform/cli/plugins/signing",
	"OpenTofu", "Terraform",
)

// tofuCommand matches the tofu command where a message names one.
var tofuCommand = regexp.MustCompile(`\btofu (init|providers|plan|get|refresh|apply|validate|state|login|version|test)\b`)

// words returns s as the chosen flavour words it.
func (m *Meta) words(s string) string {
	return wordsFor(m.Flavour, s)
}

func wordsFor(f flavour.Flavour, s string) string {
	if f != flavour.Terraform {
		return s
	}
	s = terraformWords.Replace(s)
	return tofuCommand.ReplaceAllString(s, "terraform $1")
}

// wordDiagnostics returns diags with their texts in the flavour's words
// (copies: the libraries' diagnostics are left alone).
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
