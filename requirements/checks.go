package requirements

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
)

// SummaryPredecessorProvider is the Summary of tfdeps' own warning about a
// module that requires hashicorp/terraform. OpenTofu has no such warning.
const SummaryPredecessorProvider = "Incompatible provider hashicorp/terraform"

// Check reports the problems OpenTofu finds in provider names and provider
// configurations while building the module tree (providers.md §4.4 and
// OpenTofu's provider configuration validation), module by module, children
// before their parent as in OpenTofu: one provider required under two local
// names, a default-namespace provider required under another name than its
// provider block's, a resource whose implied local name is missing from
// required_providers while its provider is listed under another name, a
// resource type whose prefix is not a valid provider name, references to
// provider configurations with for_each (checkProviderInstances), and the
// provider configurations passed between modules (checkProviderConfigs).
// It adds the tfdeps warning for a module that requires
// hashicorp/terraform.
func Check(tree *config.Tree) hcl.Diagnostics {
	return checkModule(tree, nil)
}

// checkModule checks t and its descendants; noConfig, when set, is the
// count, for_each, enabled or depends_on argument of a call above t that
// forbids provider configurations in t.
func checkModule(t *config.Tree, noConfig *hcl.Range) hcl.Diagnostics {
	if t == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(t.Children) {
		child := t.Children[name]
		childNoConfig := noConfig
		if t.Module != nil && t.Module.ModuleCalls[name] != nil {
			if r := expansionRange(t.Module.ModuleCalls[name]); r != nil {
				childNoConfig = r
			}
		}
		diags = append(diags, checkModule(child, childNoConfig)...)
	}
	if t.Module == nil {
		return diags
	}
	localNames, ds := checkRequiredProviders(t.Module)
	diags = append(diags, ds...)
	diags = append(diags, checkImpliedNames(t, localNames)...)
	diags = append(diags, checkProviderInstances(t, newModuleProviders(t, localNames))...)
	diags = append(diags, checkProviderConfigs(t, localNames, noConfig)...)
	if len(t.Path) == 0 {
		diags = append(diags, checkTestProviders(t.Module)...)
	}
	diags = append(diags, checkPredecessor(t.Module)...)
	return diags
}

// localName is one required_providers entry seen so far.
type localName struct {
	name string
	typ  addrs.Provider
}

// checkRequiredProviders checks the entries in declaration order and
// returns them.
func checkRequiredProviders(m *config.Module) ([]localName, hcl.Diagnostics) {
	fl := m.Flavour()
	var diags hcl.Diagnostics
	var seen []localName
	if m.RequiredProviders == nil {
		return nil, nil
	}
	for _, name := range m.RequiredProviders.Order {
		rp := m.RequiredProviders.RequiredProviders[name]
		if rp == nil || rp.Type.IsZero() {
			continue
		}
		subject := entryValueRange(rp)
		if prev := lastWithType(seen, rp.Type); prev != "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Duplicate required provider",
				Detail: fmt.Sprintf("Provider %s with the local name %q was previously required as %q. A provider can only be required once within required_providers.",
					rp.Type.ForDisplayIn(fl), name, prev),
				Subject: subject.Ptr(),
			})
		} else if rp.Type.IsDefaultIn(fl) && name != rp.Type.Type && hasProviderBlockNamed(m, rp.Type.Type) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Duplicate required provider",
				Detail: fmt.Sprintf("Provider %s with the local name %q was implicitly required via a configuration block as %q. The provider configuration block name must match the name used in required_providers.",
					rp.Type.ForDisplayIn(fl), name, rp.Type.Type),
				Subject: subject.Ptr(),
			})
		}
		seen = append(seen, localName{name: name, typ: rp.Type})
	}
	return seen, diags
}

// checkImpliedNames checks the resources that have no provider argument.
func checkImpliedNames(t *config.Tree, names []localName) hcl.Diagnostics {
	fl := t.Module.Flavour()
	var diags hcl.Diagnostics
	for _, r := range moduleResources(t.Module) {
		if r.ProviderConfigRef != nil {
			continue
		}
		implied, _, _ := strings.Cut(r.Type, "_")
		if _, err := addrs.ParseProviderPart(implied); err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider local name",
				Detail:   fmt.Sprintf("%q is an invalid implied provider local name: %s", implied, err),
				Subject:  r.DeclRange.Ptr(),
			})
			continue
		}
		if hasLocalName(names, implied) {
			continue
		}
		def := addrs.ImpliedProviderIn(fl, implied)
		for _, ln := range names {
			if ln.typ != def {
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Duplicate required provider",
				Detail: fmt.Sprintf("Provider %q was implicitly required via resource %q, but listed in required_providers as %q. Either the local name in required_providers must match the resource name, or the %q provider must be assigned within the resource block.",
					def.String(), absAddress(t.PathString(), r.Key()), ln.name, ln.name),
				Subject: r.DeclRange.Ptr(),
			})
		}
	}
	return diags
}

// checkPredecessor warns about required_providers entries naming
// hashicorp/terraform on the OpenTofu or Terraform registry.
func checkPredecessor(m *config.Module) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if m.RequiredProviders == nil {
		return nil
	}
	for _, name := range m.RequiredProviders.Order {
		rp := m.RequiredProviders.RequiredProviders[name]
		if rp == nil || !isPredecessor(rp.Type) {
			continue
		}
		subject := entryValueRange(rp)
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  SummaryPredecessorProvider,
			Detail: fmt.Sprintf("The required_providers entry %q names %s, the registry release of the \"terraform\" provider that came before %[3]s's built-in provider. %[3]s's documentation says it is incompatible and must not be declared; %[3]s itself only fails later, when the provider is used.\n\nThe built-in provider terraform.io/builtin/terraform (terraform_data, terraform_remote_state) needs no required_providers entry: remove this one.",
				name, rp.Type.String(), m.Flavour().Product()),
			Subject: subject.Ptr(),
		})
	}
	return diags
}

func isPredecessor(p addrs.Provider) bool {
	return p.Namespace == "hashicorp" && p.Type == "terraform" &&
		(p.Hostname == addrs.DefaultProviderRegistryHost || p.Hostname == "registry.terraform.io")
}

// entryValueRange is the range of a required_providers entry's value,
// which OpenTofu uses as the entry's declaration range in these checks.
func entryValueRange(rp *config.RequiredProvider) hcl.Range {
	if rp.Syntax != nil && rp.Syntax.Expr != nil {
		return rp.Syntax.Expr.Range()
	}
	return rp.DeclRange
}

// lastWithType returns the most recent earlier local name for typ, or "".
func lastWithType(seen []localName, typ addrs.Provider) string {
	for i := len(seen) - 1; i >= 0; i-- {
		if seen[i].typ == typ {
			return seen[i].name
		}
	}
	return ""
}

func hasLocalName(names []localName, name string) bool {
	for _, ln := range names {
		if ln.name == name {
			return true
		}
	}
	return false
}

func hasProviderBlockNamed(m *config.Module, name string) bool {
	for _, pc := range m.ProviderConfigs {
		if pc.Name == name {
			return true
		}
	}
	return false
}

// CheckChildModules reports what OpenTofu reports for child modules while
// it loads them into the tree: a backend block is ignored (warning; in the
// Terraform flavour a cloud block too) and import blocks are not allowed
// (error, at the first one). Errors here stop
// Check, as OpenTofu's tree-building errors do.
func CheckChildModules(tree *config.Tree) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if tree == nil {
		return nil
	}
	tree.Walk(func(t *config.Tree) {
		if len(t.Path) == 0 || t.Module == nil {
			return
		}
		if b := t.Module.Backend; b != nil {
			// OpenTofu's text says "provider configurations" here,
			// Terraform's "backend configurations".
			expects := "provider"
			if t.Module.Flavour() == flavour.Terraform {
				expects = "backend"
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Backend configuration ignored",
				Detail:   "Any selected backend applies to the entire configuration, so " + t.Module.Flavour().Product() + " expects " + expects + " configurations only in the root module.\n\nThis is a warning rather than an error because it's sometimes convenient to temporarily call a root module as a child module for testing purposes, but this backend configuration block will have no effect.",
				Subject:  b.DeclRange.Ptr(),
			})
		}
		if c := t.Module.Cloud; c != nil && t.Module.Flavour() == flavour.Terraform {
			// Terraform warns about a cloud block too; OpenTofu says nothing.
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Cloud configuration ignored",
				Detail:   "A cloud configuration block applies to the entire configuration, so Terraform expects 'cloud' blocks to only be in the root module.\n\nThis is a warning rather than an error because it's sometimes convenient to temporarily call a root module as a child module for testing purposes, but this cloud configuration block will have no effect.",
				Subject:  c.DeclRange.Ptr(),
			})
		}
		if len(t.Module.Imports) > 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid import configuration",
				Detail:   fmt.Sprintf("An import block was detected in %q. Import blocks are only allowed in the root module.", t.PathString()),
				Subject:  t.Module.Imports[0].DeclRange.Ptr(),
			})
		}
	})
	return diags
}
