package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfdeps/tfdeps/flavour"
)

// staticReferences lists the references of expr (its traversals, then its
// provider function calls) with OpenTofu's diagnostics for malformed ones.
func staticReferences(expr hcl.Expression, f flavour.Flavour) ([]reference, hcl.Diagnostics) {
	var refs []reference
	var diags hcl.Diagnostics
	for _, t := range expr.Variables() {
		ref, d := parseReference(t, f)
		diags = append(diags, d...)
		if ref.Kind != refInvalid {
			refs = append(refs, ref)
		}
	}
	if se, ok := expr.(hclsyntax.Expression); ok {
		hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
			if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && strings.HasPrefix(call.Name, "provider::") {
				refs = append(refs, reference{Kind: refProviderFunction, Subject: call.Name, Range: call.NameRange})
			}
			return nil
		})
	}
	return refs, diags
}

// checkStaticRefs rejects references static evaluation cannot resolve:
// anything but var, local, path and terraform/tofu. by names the object
// being evaluated.
func checkStaticRefs(refs []reference, by string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, r := range refs {
		summary := ""
		switch r.Kind {
		case refVariable, refLocal, refPath, refTerraform:
			continue
		case refModuleOutput:
			summary = "Module output not supported in static context"
		case refProviderFunction:
			summary = "Provider function in static context"
		default:
			summary = "Dynamic value in static context"
		}
		rng := r.Range
		diags = append(diags, errorDiag(summary, fmt.Sprintf("Unable to use %s in static context, which is required by %s", r.Subject, by), &rng))
	}
	return diags
}
