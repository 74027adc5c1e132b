package config

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/flavour"
)

// exprIsNativeQuotedString reports whether expr is a quoted string (a
// template) in the native syntax.
func exprIsNativeQuotedString(expr hcl.Expression) bool {
	_, ok := expr.(*hclsyntax.TemplateExpr)
	return ok
}

// quotedDetail is the detail of the warning for a quoted keyword or
// reference (what: "keyword" or "reference") in flavour f's words.
func quotedDetail(what string, f flavour.Flavour) string {
	return fmt.Sprintf("In this context, %[1]ss are expected literally rather than in quotes. %[2]s 0.11 and earlier required quotes, but quoted %[1]ss are now deprecated and will be removed in a future version of %[2]s. Remove the quotes surrounding this %[1]s to silence this warning.", what, f.Product())
}

// shimTraversalInString reads a native quoted string where a reference (or,
// with wantKeyword, a keyword) is expected, as OpenTofu 0.11 required: the
// string is parsed as a traversal and a deprecation warning is returned.
// Other expressions, JSON strings included, are returned unchanged.
func shimTraversalInString(expr hcl.Expression, wantKeyword bool, f flavour.Flavour) (hcl.Expression, hcl.Diagnostics) {
	if ocke, ok := expr.(*hclsyntax.ObjectConsKeyExpr); ok {
		expr = ocke.Wrapped
	}
	if !exprIsNativeQuotedString(expr) {
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
	diags = append(diags, trDiags...)
	if wantKeyword {
		diags = append(diags, warningDiag("Quoted keywords are deprecated", quotedDetail("keyword", f), &rng))
	} else {
		diags = append(diags, warningDiag("Quoted references are deprecated", quotedDetail("reference", f), &rng))
	}
	return &hclsyntax.ScopeTraversalExpr{Traversal: tr, SrcRange: rng}, diags
}

func isJSONExpression(expr hcl.Expression) bool { return hcljson.IsJSONExpression(expr) }

// jsonExprAsNative re-parses a JSON string expression as a native
// expression, as OpenTofu does for arguments it analyses statically
// (replace_triggered_by, import to, provider references).
func jsonExprAsNative(expr hcl.Expression) (hcl.Expression, hcl.Diagnostics) {
	val, diags := expr.Value(nil)
	if diags.HasErrors() {
		return nil, diags
	}
	if val.Type() != cty.String || val.IsNull() {
		return nil, append(diags, errorDiag("Expected string expression", fmt.Sprintf("This value must be a string, but got %s.", val.Type().FriendlyName()), expr.Range().Ptr()))
	}
	rng := expr.Range()
	native, pDiags := hclsyntax.ParseExpression([]byte(val.AsString()), rng.Filename, rng.Start)
	diags = append(diags, pDiags...)
	if diags.HasErrors() {
		return nil, diags
	}
	return native, diags
}

const providerRefDetail = "Provider name must either stand alone or be followed by a period and then a configuration alias."

// decodeProviderConfigRef reads a provider argument: NAME, NAME.ALIAS or
// NAME.ALIAS[KEY], where KEY is a constant or, for a for_each provider
// configuration, an expression.
// The Terraform flavour reads NAME or NAME.ALIAS only (Terraform has no
// provider instances), with its own wording.
func decodeProviderConfigRef(expr hcl.Expression, argName string, f flavour.Flavour) (*ProviderConfigRef, hcl.Diagnostics) {
	terraform := f == flavour.Terraform
	var diags hcl.Diagnostics
	if !terraform && hcljson.IsJSONExpression(expr) {
		expr, diags = jsonExprAsNative(expr)
		if diags.HasErrors() {
			return nil, diags
		}
	}
	var keyExpr hcl.Expression
	maxLen, detail := 3, "The %s argument requires a provider type name, optionally followed by a period and then a configuration alias and optional instance key."
	if terraform {
		maxLen, detail = 2, "The %s argument requires a provider type name, optionally followed by a period and then a configuration alias."
	} else if iex, ok := expr.(*hclsyntax.IndexExpr); ok {
		maxLen = 2
		keyExpr = iex.Key
		expr = iex.Collection
	}
	expr, shimDiags := shimTraversalInString(expr, false, f)
	diags = append(diags, shimDiags...)
	tr, trDiags := hcl.AbsTraversalForExpr(expr)
	if !trDiags.HasErrors() {
		diags = append(diags, trDiags...)
	}
	if len(tr) == 0 || len(tr) > maxLen {
		if exprIsNativeQuotedString(expr) {
			return nil, append(diags, errorDiag("Invalid provider configuration reference", "A provider configuration reference must not be given in quotes.", expr.Range().Ptr()))
		}
		return nil, append(diags, errorDiag("Invalid provider configuration reference", fmt.Sprintf(detail, argName), expr.Range().Ptr()))
	}
	name := tr.RootName()
	diags = append(diags, checkProviderNameNormalized(name, tr[0].SourceRange())...)
	if diags.HasErrors() {
		return nil, diags
	}
	ref := &ProviderConfigRef{Name: name, NameRange: tr[0].SourceRange(), KeyExpression: keyExpr}
	if len(tr) > 1 {
		aliasStep, ok := tr[1].(hcl.TraverseAttr)
		if !ok {
			return ref, append(diags, errorDiag("Invalid provider configuration reference", providerRefDetail, tr[1].SourceRange().Ptr()))
		}
		ref.Alias = aliasStep.Name
		r := aliasStep.SourceRange()
		ref.AliasRange = &r
	}
	if len(tr) > 2 {
		idx, ok := tr[2].(hcl.TraverseIndex)
		if !ok {
			return ref, append(diags, errorDiag("Invalid provider configuration reference", providerRefDetail, tr[2].SourceRange().Ptr()))
		}
		ref.KeyExpression = hcl.StaticExpr(idx.Key, tr.SourceRange())
	}
	if ref.Alias == "" && ref.KeyExpression != nil {
		diags = append(diags, errorDiag("Invalid provider configuration reference", "Provider assignment requires an alias when specifying an instance key, in the form of provider.name[instance_key]", tr.SourceRange().Ptr()))
	}
	return ref, diags
}

// checkProviderNameNormalized is OpenTofu's check that a provider local
// name is valid and already in normal form.
func checkProviderNameNormalized(name string, rng hcl.Range) hcl.Diagnostics {
	part, err := parseProviderPart(name)
	if err != nil {
		return hcl.Diagnostics{errorDiag("Invalid provider local name", fmt.Sprintf("%s is an invalid provider local name: %s", name, err), &rng)}
	}
	if part != name {
		return hcl.Diagnostics{errorDiag("Invalid provider local name", fmt.Sprintf("Provider names must be normalized. Replace %q with %q to fix this error.", name, part), &rng)}
	}
	return nil
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
