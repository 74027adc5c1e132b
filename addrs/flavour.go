package addrs

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/opentofu/svchost"

	"github.com/tfdeps/tfdeps/flavour"
)

// The flavour changes two things in this package: the registry host of a
// provider source address that names none (registry.opentofu.org for
// OpenTofu, registry.terraform.io for Terraform), and with it which host
// ForDisplayIn omits and which providers IsDefaultIn reports; and, in
// parsing a source address, the rules where Terraform's address library
// (terraform-registry-address v0.4.0, in Terraform v1.15.9) differs from
// OpenTofu's: the legacy namespace "-" belongs to registry.terraform.io,
// and a type may start with "opentofu-". The functions without a flavour
// are OpenTofu's.

// ParseProviderSourceIn is ParseProviderSource as flavour f parses it, with
// f's default host for a source of one or two parts.
func ParseProviderSourceIn(f flavour.Flavour, s string) (Provider, error) {
	if f == flavour.Terraform {
		return parseTerraformSource(s)
	}
	return ParseProviderSource(s)
}

// ParseProviderSourceDiagsIn is ParseProviderSourceDiags as flavour f
// parses the source.
func ParseProviderSourceDiagsIn(f flavour.Flavour, s string, subject *hcl.Range) (Provider, hcl.Diagnostics) {
	p, err := ParseProviderSourceIn(f, s)
	if err != nil {
		var pe *ParseError
		errors.As(err, &pe)
		return Provider{}, hcl.Diagnostics{pe.Diagnostic(subject)}
	}
	return p, nil
}

// parseTerraformSource parses s as Terraform does. Its parser checks, in
// order: the form and the type's characters, the namespace, the hostname,
// the legacy namespace's host, and the "terraform-" prefixes — as
// OpenTofu's does, with the same texts, but for the legacy namespace's host
// (registry.terraform.io) and the prefix OpenTofu reserves besides
// ("opentofu-"). So OpenTofu's parser answers for the first three checks,
// and the last two are made here.
func parseTerraformSource(s string) (Provider, error) {
	p, err := ParseProviderSource(s)
	var pe *ParseError
	if err != nil && (!errors.As(err, &pe) || !isTerraformRuleError(pe)) {
		return Provider{}, err
	}
	parts := strings.Split(s, "/")
	n := len(parts)
	if err != nil {
		// The source passed the first three checks; take its parts.
		p = Provider{Hostname: flavour.TerraformRegistryHost, Namespace: DefaultProviderNamespace}
		if n == 3 {
			hostOnly := parts[0] + "/x/x"
			h, err := ParseProviderSource(hostOnly)
			if err != nil {
				// A hostname tfdeps refuses (checkHostnameDisplayable),
				// which OpenTofu's parser does not check before its prefix
				// rules: the same error, about s.
				if errors.As(err, &pe) {
					pe.Detail = strings.Replace(pe.Detail, strconv.Quote(hostOnly), strconv.Quote(s), 1)
				}
				return Provider{}, err
			}
			p.Hostname = h.Hostname
		}
		if n >= 2 {
			p.Namespace = parts[n-2]
			if p.Namespace != LegacyProviderNamespace {
				p.Namespace, _ = ParseProviderPart(p.Namespace)
			}
		}
		p.Type, _ = ParseProviderPart(parts[n-1])
	} else if n < 3 {
		p.Hostname = flavour.TerraformRegistryHost
	}
	if n == 1 {
		return p, nil // no prefix checks for a type alone
	}
	if p.Namespace == LegacyProviderNamespace && p.Hostname != flavour.TerraformRegistryHost {
		return Provider{}, &ParseError{
			Summary: "Invalid provider namespace",
			Detail:  `The legacy provider namespace "-" can be used only with hostname ` + string(flavour.TerraformRegistryHost) + ".",
		}
	}
	const redundant, mistaken = "terraform-", "terraform-provider-"
	if !strings.HasPrefix(p.Type, redundant) {
		return p, nil
	}
	if rest := strings.TrimPrefix(p.Type, mistaken); rest != p.Type {
		if _, err := ParseProviderPart(rest); err == nil {
			suggested := p
			suggested.Type = rest
			return Provider{}, &ParseError{
				Summary: "Invalid provider type",
				Detail: fmt.Sprintf("Provider source %q has a type with the prefix %q, which isn't valid. Although that prefix is often used in the names of version control repositories for Terraform providers, provider source strings should not include it.\n\nDid you mean %q?",
					p.ForDisplayIn(flavour.Terraform), mistaken, suggested.ForDisplayIn(flavour.Terraform)),
			}
		}
	}
	return Provider{}, &ParseError{
		Summary: "Invalid provider type",
		Detail:  fmt.Sprintf("Provider source %q has a type with the prefix %q, which isn't allowed because it would be redundant to name a Terraform provider with that prefix. If you are the author of this provider, rename it to not include the prefix.", p.String(), redundant),
	}
}

// isTerraformRuleError reports whether OpenTofu's parser refused a source
// by one of the two checks the Terraform flavour makes itself: the legacy
// namespace's host, or a reserved type prefix.
func isTerraformRuleError(pe *ParseError) bool {
	return strings.HasPrefix(pe.Detail, `The legacy provider namespace "-" can be used only`) ||
		pe.Summary == "Invalid provider type" && strings.HasPrefix(pe.Detail, `Provider source "`)
}

// NewDefaultProviderIn returns DEFAULT_HOST/hashicorp/TYPE for flavour f.
func NewDefaultProviderIn(f flavour.Flavour, typ string) Provider {
	return Provider{Type: typ, Namespace: DefaultProviderNamespace, Hostname: f.DefaultHost()}
}

// ImpliedProviderIn is ImpliedProviderForUnqualifiedType for flavour f:
// terraform.io/builtin/terraform for "terraform" in both flavours.
func ImpliedProviderIn(f flavour.Flavour, typ string) Provider {
	if typ == "terraform" {
		return NewBuiltInProvider(typ)
	}
	return NewDefaultProviderIn(f, typ)
}

// ForDisplayIn is ForDisplay for flavour f: the host is omitted when it is
// f's default host.
func (p Provider) ForDisplayIn(f flavour.Flavour) string {
	if p.IsZero() {
		return ""
	}
	if p.Hostname == f.DefaultHost() {
		return p.Namespace + "/" + p.Type
	}
	return p.String()
}

// IsDefaultIn is IsDefault for flavour f.
func (p Provider) IsDefaultIn(f flavour.Flavour) bool {
	return p.Hostname == f.DefaultHost() && p.Namespace == DefaultProviderNamespace
}

// IsLegacyIn is IsLegacy for flavour f.
func (p Provider) IsLegacyIn(f flavour.Flavour) bool {
	return p.Hostname == f.DefaultHost() && p.Namespace == LegacyProviderNamespace
}

// DefaultHostIn is f's default provider registry host.
func DefaultHostIn(f flavour.Flavour) svchost.Hostname { return f.DefaultHost() }
