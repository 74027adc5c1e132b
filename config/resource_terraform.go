package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/tfdeps/tfdeps/flavour"
)

// terraformLifecycleSchema is a resource's lifecycle block as Terraform
// v1.15 reads it: no "enabled" or "destroy" argument (OpenTofu's), and
// action_trigger blocks (checked by decodeActionTrigger).
var terraformLifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "create_before_destroy"},
		{Name: "prevent_destroy"},
		{Name: "ignore_changes"},
		{Name: "replace_triggered_by"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}, {Type: "postcondition"}, {Type: "action_trigger"}},
}

// decodeTerraformLifecycle reads a lifecycle block as Terraform does. It
// returns no enabled argument: Terraform has none.
func (r *Resource) decodeTerraformLifecycle(b *hcl.Block, override bool) (*hcl.Attribute, hcl.Diagnostics) {
	lc, diags := bodyContent(b.Body, terraformLifecycleSchema)
	if lc == nil {
		return nil, diags
	}
	if r.Mode == ManagedResourceMode {
		if attr, ok := lc.Attributes["prevent_destroy"]; ok {
			// Terraform wants a literal bool here.
			var preventDestroy bool
			diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &preventDestroy)...)
		}
		diags = append(diags, r.Managed.decodeLifecycleArgs(r, lc, flavour.Terraform)...)
	}
	noun := "data resource"
	if r.Mode == EphemeralResourceMode {
		noun = "ephemeral resource"
	}
	if r.Mode != ManagedResourceMode {
		for _, attr := range sortedAttributes(lc.Attributes) {
			diags = append(diags, errorDiag(fmt.Sprintf("Invalid %s lifecycle argument", noun), fmt.Sprintf("The lifecycle argument %q is defined only for managed resources (\"resource\" blocks), and is not valid for %ss.", attr.Name, noun), attr.NameRange.Ptr()))
		}
	}
	addr := resourceAddr{Mode: r.Mode, Type: r.Type, Name: r.Name}
	for _, cb := range lc.Blocks {
		if cb.Type == "action_trigger" {
			if r.Mode != ManagedResourceMode {
				diags = append(diags, errorDiag(fmt.Sprintf("Invalid %s lifecycle nested block", noun), fmt.Sprintf("The lifecycle nested block %q is defined only for managed resources (\"resource\" blocks), and is not valid for %ss.", cb.Type, noun), cb.TypeRange.Ptr()))
			} else {
				diags = append(diags, decodeActionTrigger(cb)...)
			}
			continue
		}
		cr, crDiags := decodeCheckRuleBlock(cb, override)
		diags = append(diags, crDiags...)
		diags = append(diags, cr.selfReferences(cb.Type, addr, flavour.Terraform)...)
		if override {
			continue
		}
		if cb.Type == "precondition" {
			r.Preconditions = append(r.Preconditions, cr)
		} else {
			r.Postconditions = append(r.Postconditions, cr)
		}
	}
	return nil, diags
}

// terraformCountAndForEach is Terraform's error for a resource or module
// block with both count and for_each (counters: the attributes present, in
// that order), reported at for_each as soon as the two are read.
func terraformCountAndForEach(counters []*hcl.Attribute) hcl.Diagnostics {
	if len(counters) < 2 {
		return nil
	}
	return hcl.Diagnostics{errorDiag(`Invalid combination of "count" and "for_each"`, `The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.`, counters[1].NameRange.Ptr())}
}
