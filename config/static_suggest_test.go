package config

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// The suggestion for an unknown function is the first close name in sorted
// order: "cb1" is as close to "abs" as to "can" (HCL picks in map order).
// Found by FuzzLoad (two loads of one file differed).
func TestUnknownFunctionSuggestionIsStable(t *testing.T) {
	funcs := staticFunctions()
	for _, tc := range []struct{ src, want string }{
		{`cb1(1)`, `There is no function named "cb1". Did you mean "abs"?`},
		{`zzzzzz(1)`, `There is no function named "zzzzzz".`},
		{`lenght("a")`, `There is no function named "lenght". Did you mean "length"?`},
	} {
		expr, d := hclsyntax.ParseExpression([]byte(tc.src), "t.tf", hcl.InitialPos)
		if d.HasErrors() {
			t.Fatal(d)
		}
		for i := 0; i < 50; i++ {
			_, diags := expr.Value(&hcl.EvalContext{Functions: funcs})
			diags = sortedSuggestions(diags, funcs)
			if len(diags) != 1 || diags[0].Summary != "Call to unknown function" || diags[0].Detail != tc.want {
				t.Fatalf("%s: got %v, want %q", tc.src, diags, tc.want)
			}
		}
	}
}
