package workdir

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/requirements"
)

// providerAddressDiags checks the required providers: a legacy address
// is an error; several hashicorp/opentofu providers of one type are worth
// a warning.
func providerAddressDiags(fl flavour.Flavour, reqs providerinstall.Requirements) hcl.Diagnostics {
	var diags hcl.Diagnostics
	byType := map[string][]string{}
	for _, p := range sortedRequirementAddrs(reqs) {
		if p.IsLegacyIn(fl) {
			diags = append(diags, errorDiag("Invalid legacy provider address", fmt.Sprintf(
				"This configuration or its associated state refers to the unqualified provider %q.\n\nYou must complete the Terraform 0.13 upgrade process before upgrading to later versions.", p.Type)))
			continue
		}
		if p.Namespace == "hashicorp" || p.Namespace == "opentofu" {
			byType[p.Type] = append(byType[p.Type], p.ForDisplayIn(fl))
		}
	}
	types := make([]string, 0, len(byType))
	for t := range byType {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		if names := byType[t]; len(names) >= 2 {
			sort.Strings(names)
			diags = append(diags, warningDiag("Potential provider misconfiguration", fmt.Sprintf(wordsOf(fl,
				"OpenTofu has detected multiple providers of type %s (%s) which may be a misconfiguration.\n\nIf this is intentional you can ignore this warning"), t, strings.Join(names, ", "))))
		}
	}
	return diags
}

// devOverridesDiag warns of the CLI configuration's development
// overrides, or is nil without overrides.
func devOverridesDiag(fl flavour.Flavour, overrides map[addrs.Provider]string) *hcl.Diagnostic {
	if len(overrides) == 0 {
		return nil
	}
	ps := make([]addrs.Provider, 0, len(overrides))
	for p := range overrides {
		ps = append(ps, p)
	}
	sortAddrs(ps)
	var b strings.Builder
	b.WriteString("The following provider development overrides are set in the CLI configuration:\n")
	for _, p := range ps {
		fmt.Fprintf(&b, " - %s in %s\n", p.ForDisplayIn(fl), overrides[p])
	}
	b.WriteString(wordsOf(fl, "\nSkip tofu init when using provider development overrides. It is not necessary and may error unexpectedly."))
	return warningDiag("Provider development overrides are in effect", b.String())
}

// suggester builds, for a provider the registry does not know, the text
// suggesting another address and the warning about an inferred provider.
type suggester struct {
	ctx    context.Context
	reqs   *requirements.Result
	client *registry.Client
	// flavour gives the default registry host.
	flavour flavour.Flavour
}

func (s *suggester) suggestion(p addrs.Provider) string {
	fl := s.flavour
	text := fmt.Sprintf(wordsOf(fl, "\n\nAll modules should specify their required_providers so that external consumers will get the correct providers when using a module. To see which modules are currently depending on %s, run the following command:\n    tofu providers"), p.ForDisplayIn(fl))
	if p.IsDefaultIn(fl) {
		if alt := s.alternative(p); !alt.IsZero() {
			text = fmt.Sprintf(wordsOf(fl, "\n\nDid you intend to use %s? If so, you must specify that source address in each module which requires that provider. To see which modules are currently depending on %s, run the following command:\n    tofu providers"), alt.ForDisplayIn(fl), p.ForDisplayIn(fl))
		}
	}
	if p.Hostname == flavour.OpenTofuRegistryHost && fl != flavour.Terraform {
		text += "\n\nIf you believe this provider is missing from the registry, please submit a issue on the OpenTofu Registry https://github.com/opentofu/registry/issues/new/choose"
	}
	return text
}

// alternative is the lowest other required provider of p's type, else the
// registry's answer for the legacy address.
func (s *suggester) alternative(p addrs.Provider) addrs.Provider {
	if s.reqs != nil {
		for _, q := range s.reqs.Sorted() {
			if q != p && q.Type == p.Type {
				return q
			}
		}
	}
	if s.client != nil {
		if ns := s.client.LegacyNamespace(s.ctx, p); ns != "" && ns != p.Namespace {
			return addrs.NewProvider(p.Hostname, ns, p.Type)
		}
	}
	return addrs.Provider{}
}

// inferredDiag is the inferred-provider warning for p, or nil when p was required explicitly or its
// first implying resource names its provider.
func (s *suggester) inferredDiag(p addrs.Provider) *hcl.Diagnostic {
	fl := s.flavour
	if s.reqs == nil || s.reqs.Explicit[p] || len(s.reqs.Implicit[p]) == 0 {
		return nil
	}
	ref := s.reqs.Implicit[p][0]
	if ref.HasProviderArg {
		return nil
	}
	resType := ref.Address
	if i := strings.LastIndex(resType, "."); i >= 0 {
		resType = resType[:i]
	}
	if i := strings.LastIndex(resType, "."); i >= 0 {
		resType = resType[i+1:]
	}
	d := warningDiag("Automatically-inferred provider dependency", fmt.Sprintf(wordsOf(fl,
		"Due to the prefix of the resource type name OpenTofu guessed that you intended to associate %s with a provider whose local name is \"%s\", but that name is not declared in this module's required_providers block. OpenTofu therefore guessed that you intended to use %s, but that provider does not exist.\n\n"+
			"Make at least one of the following changes to tell OpenTofu which provider to use:\n\n"+
			"- Add a declaration for local name \"%s\" to this module's required_providers block, specifying the full source address for the provider you intended to use.\n"+
			"- Verify that \"%s\" is the correct resource type name to use. Did you omit a prefix which would imply the correct provider?\n"+
			"- Use a \"provider\" argument within this resource block to override OpenTofu's automatic selection of the local name \"%s\".\n"),
		ref.Address, p.Type, p.ForDisplayIn(fl), p.Type, resType, p.Type))
	d.Subject = ref.Range.Ptr()
	return d
}

func sortedRequirementAddrs(reqs providerinstall.Requirements) []addrs.Provider {
	ps := make([]addrs.Provider, 0, len(reqs))
	for p := range reqs {
		ps = append(ps, p)
	}
	sortAddrs(ps)
	return ps
}

func sortAddrs(ps []addrs.Provider) {
	sort.Slice(ps, func(i, j int) bool { return ps[i].LessThan(ps[j]) })
}
