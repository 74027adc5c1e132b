package lockfile

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// decodeString evaluates expr without variables or functions and converts
// the result to a string, as OpenTofu's lock file decoder does: evaluation
// errors are returned alone; a value that is not a string and does not
// convert to one gives "Unsuitable value type". A null value gives nil.
func decodeString(expr hcl.Expression) (*string, hcl.Diagnostics) {
	val, diags := expr.Value(nil)
	if diags.HasErrors() {
		return nil, diags
	}
	unsuitable := func(msg string) hcl.Diagnostics {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsuitable value type",
			Detail:   fmt.Sprintf("Unsuitable value: %s", msg),
			Subject:  expr.StartRange().Ptr(),
			Context:  expr.Range().Ptr(),
		})
	}
	val, err := convert.Convert(val, cty.String)
	if err != nil {
		return nil, unsuitable(err.Error())
	}
	if val.IsNull() {
		return nil, diags
	}
	if !val.IsWhollyKnown() {
		return nil, unsuitable("value must be known")
	}
	s := val.AsString()
	return &s, diags
}
