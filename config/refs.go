package config

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// shimTraversalInString lets a quoted string stand for a reference, as in
// JSON files and legacy native syntax: "aws_instance.x" reads as
// aws_instance.x.
func shimTraversalInString(expr hcl.Expression) (hcl.Expression, hcl.Diagnostics) {
	if _, diags := hcl.AbsTraversalForExpr(expr); !diags.HasErrors() {
		return expr, nil
	}
	val, diags := expr.Value(nil)
	if diags.HasErrors() || val.IsNull() || !val.IsKnown() || val.Type() != cty.String {
		return expr, nil
	}
	rng := expr.Range()
	start := rng.Start
	start.Column++
	start.Byte++
	tr, trDiags := hclsyntax.ParseTraversalAbs([]byte(val.AsString()), rng.Filename, start)
	return &hclsyntax.ScopeTraversalExpr{Traversal: tr, SrcRange: rng}, trDiags
}

// decodeProviderConfigRef reads a provider argument: NAME or NAME.ALIAS.
func decodeProviderConfigRef(expr hcl.Expression, argName string) (*ProviderConfigRef, hcl.Diagnostics) {
	expr, diags := shimTraversalInString(expr)
	if diags.HasErrors() {
		return nil, diags
	}
	tr, trDiags := hcl.AbsTraversalForExpr(expr)
	if trDiags.HasErrors() || len(tr) == 0 {
		return nil, append(diags, invalidProviderRef(expr, argName))
	}
	ref := &ProviderConfigRef{Name: tr.RootName(), NameRange: tr[0].SourceRange()}
	if len(tr) > 1 {
		aliasStep, ok := tr[1].(hcl.TraverseAttr)
		if !ok {
			return nil, append(diags, invalidProviderRef(expr, argName))
		}
		ref.Alias = aliasStep.Name
		r := aliasStep.SourceRange()
		ref.AliasRange = &r
	}
	for _, step := range tr[min(len(tr), 2):] {
		if _, ok := step.(hcl.TraverseIndex); !ok {
			return nil, append(diags, invalidProviderRef(expr, argName))
		}
	}
	return ref, diags
}

func invalidProviderRef(expr hcl.Expression, argName string) *hcl.Diagnostic {
	return errorDiag("Invalid provider configuration reference", "The "+argName+" argument requires a provider type name, optionally followed by a period and then a configuration alias.", expr.Range().Ptr())
}

// traversalString writes a traversal as text: null_resource.a, x["k"], y[0].
func traversalString(tr hcl.Traversal) string {
	s := ""
	for i, step := range tr {
		switch st := step.(type) {
		case hcl.TraverseRoot:
			s += st.Name
		case hcl.TraverseAttr:
			if i == 0 {
				s += st.Name
			} else {
				s += "." + st.Name
			}
		case hcl.TraverseIndex:
			s += "[" + ctyKeyString(st.Key) + "]"
		case hcl.TraverseSplat:
			s += "[*]"
		}
	}
	return s
}

func ctyKeyString(v cty.Value) string {
	if !v.IsKnown() || v.IsNull() {
		return "?"
	}
	switch v.Type() {
	case cty.String:
		return `"` + v.AsString() + `"`
	case cty.Number:
		return v.AsBigFloat().Text('f', -1)
	}
	return "?"
}

func sortHCLAttributes(attrs []*hcl.Attribute) {
	sort.SliceStable(attrs, func(i, j int) bool { return attrs[i].Range.Start.Byte < attrs[j].Range.Start.Byte })
}

// bodyContent is hcl.Body.Content with a deterministic order: HCL reports
// unexpected native arguments in map order, tfdeps in source order.
func bodyContent(body hcl.Body, schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	content, diags := body.Content(schema)
	start := -1
	for i := 0; i <= len(diags); i++ {
		if i < len(diags) && diags[i].Summary == "Unsupported argument" && diags[i].Subject != nil {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			run := diags[start:i]
			sort.SliceStable(run, func(a, b int) bool { return run[a].Subject.Start.Byte < run[b].Subject.Start.Byte })
			start = -1
		}
	}
	return content, diags
}
