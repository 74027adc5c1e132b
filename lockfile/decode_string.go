package lockfile

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// decodeString evaluates expr without variables or functions and converts
// the result to a string, as flavour f's lock file decoder does. A value
// that is not a string and does not convert to one, or is not known, gives
// "Unsuitable value type". A null value gives nil.
//
// After an evaluation error, OpenTofu returns that error alone; Terraform
// converts the (unknown) result all the same, so "Unsuitable value type"
// follows the error. Either way the string is nil when there are errors.
func decodeString(f Flavour, expr hcl.Expression) (*string, hcl.Diagnostics) {
	val, diags := expr.Value(nil)
	if diags.HasErrors() && f != Terraform {
		return nil, diags
	}
	val, err := convert.Convert(val, cty.String)
	switch {
	case err != nil:
		return nil, append(diags, unsuitableValue(expr, err.Error()))
	case val.IsNull():
		return nil, diags
	case !val.IsWhollyKnown():
		return nil, append(diags, unsuitableValue(expr, "value must be known"))
	case diags.HasErrors():
		return nil, diags
	}
	s := val.AsString()
	return &s, diags
}

// unsuitableValue is gohcl's error for a value it cannot decode into a Go
// string.
func unsuitableValue(expr hcl.Expression, msg string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unsuitable value type",
		Detail:   fmt.Sprintf("Unsuitable value: %s", msg),
		Subject:  expr.StartRange().Ptr(),
		Context:  expr.Range().Ptr(),
	}
}

// nullNotAllowed is gohcl's error for a null decoded into a plain (not
// pointer) Go string, as the constraints and each hash are.
func nullNotAllowed(expr hcl.Expression) *hcl.Diagnostic {
	return unsuitableValue(expr, "null value is not allowed")
}
