package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// terraformModuleBlockSchema is a module block as Terraform v1.15 reads
// it: OpenTofu's arguments and blocks plus ignore_nested_deprecations.
var terraformModuleBlockSchema = &hcl.BodySchema{
	Attributes: append(append([]hcl.AttributeSchema{}, moduleBlockSchema.Attributes...), hcl.AttributeSchema{Name: "ignore_nested_deprecations"}),
	Blocks:     moduleBlockSchema.Blocks,
}

// checkIgnoreNestedDeprecations is Terraform's check that a module's
// ignore_nested_deprecations argument is a static boolean.
func checkIgnoreNestedDeprecations(attr *hcl.Attribute) hcl.Diagnostics {
	var diags hcl.Diagnostics
	val, evalDiags := attr.Expr.Value(&hcl.EvalContext{})
	if evalDiags.HasErrors() {
		diags = append(diags, errorDiag("Invalid value for ignore_nested_deprecations", "The value for ignore_nested_deprecations must be a static boolean (true or false).", attr.Expr.Range().Ptr()))
	}
	if val.Type() != cty.Bool {
		diags = append(diags, errorDiag("Invalid type for ignore_nested_deprecations", fmt.Sprintf("The value for ignore_nested_deprecations must be a boolean (true or false), but the given value has type %s.", val.Type().FriendlyName()), attr.Expr.Range().Ptr()))
	}
	return diags
}
