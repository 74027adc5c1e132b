package config

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/flavour"
)

// callArgumentDiags is Terraform's check, while init builds the module
// tree, of a module call's arguments against the variables of the module
// it loaded: an argument the module does not declare is an "Unsupported
// argument", a nested block an "Unsupported block type", and a const
// variable without a default that the call does not set a "Missing
// required argument". Terraform then does not descend into the module.
// OpenTofu checks the arguments only when it plans; nil in its flavour.
func callArgumentDiags(call *ModuleCall, child *Module) hcl.Diagnostics {
	if child == nil || child.flavour != flavour.Terraform || call.Syntax == nil {
		return nil
	}
	body := call.Config()
	names := make([]string, 0, len(child.Variables))
	for n := range child.Variables {
		names = append(names, n)
	}
	sort.Strings(names)
	given := map[string]bool{}
	var diags hcl.Diagnostics
	for _, a := range body.Attributes {
		given[a.Name] = true
		if _, ok := child.Variables[a.Name]; ok {
			continue
		}
		detail := fmt.Sprintf("An argument named %q is not expected here.", a.Name)
		if s := nameSuggestion(a.Name, names); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		}
		diags = append(diags, errorDiag("Unsupported argument", detail, a.NameRange.Ptr()))
	}
	for _, b := range body.Blocks {
		diags = append(diags, errorDiag("Unsupported block type", fmt.Sprintf("Blocks of type %q are not expected here.", b.Type), b.DefRange.Ptr()))
	}
	for _, n := range names {
		v := child.Variables[n]
		if v.Const && v.Default == cty.NilVal && !given[n] {
			rng := bodyMissingItem(call)
			diags = append(diags, errorDiag("Missing required argument", fmt.Sprintf("The argument %q is required, but no definition was found.", n), &rng))
		}
	}
	return diags
}
