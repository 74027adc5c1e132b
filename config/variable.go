package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tfdeps/tfdeps/flavour"
)

var variableBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"},
		{Name: "default"},
		{Name: "type"},
		{Name: "sensitive"},
		{Name: "ephemeral"},
		{Name: "const"},
		{Name: "deprecated"},
		{Name: "nullable"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "validation"}},
}

// decodeVariableBlock decodes a variable block as OpenTofu does, in the same
// order of checks: schema, name, reserved names, then each argument. In the
// Terraform flavour a const variable may be neither sensitive nor
// ephemeral (checked in each block as written, overrides included).
func decodeVariableBlock(block *hcl.Block, override bool, f flavour.Flavour) (*Variable, hcl.Diagnostics) {
	v := &Variable{
		Name:      block.Labels[0],
		DeclRange: block.DefRange,
		Syntax:    newSyntaxBlock(block, variableShape),
	}
	if !override {
		v.Type = cty.DynamicPseudoType
		v.ConstraintType = cty.DynamicPseudoType
		v.ParsingMode = VariableParseLiteral
	}
	content, diags := bodyContent(block.Body, variableBlockSchema)
	if !hclsyntax.ValidIdentifier(v.Name) {
		diags = append(diags, errorDiag("Invalid variable name", badIdentifierDetail, &block.LabelRanges[0]))
	}
	diags = append(diags, reservedVariableName(v.Name, block.LabelRanges[0])...)
	if content == nil {
		return v, diags
	}
	if attr, ok := content.Attributes["description"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Description)...)
		v.DescriptionSet = true
	}
	if attr, ok := content.Attributes["type"]; ok {
		ty, defaults, mode, tyDiags := decodeVariableType(attr.Expr, f)
		diags = append(diags, tyDiags...)
		v.ConstraintType, v.TypeDefaults, v.ParsingMode = ty, defaults, mode
		v.Type = ty.WithoutOptionalAttributesDeep()
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Sensitive)...)
		v.SensitiveSet = true
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		valDiags := gohcl.DecodeExpression(attr.Expr, nil, &v.Deprecated)
		diags = append(diags, valDiags...)
		if !valDiags.HasErrors() && strings.TrimSpace(v.Deprecated) == "" {
			diags = append(diags, errorDiag("Invalid `deprecated` value", `The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated variable.`, &block.LabelRanges[0]))
		}
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Ephemeral)...)
		v.EphemeralSet = true
	}
	if attr, ok := content.Attributes["nullable"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Nullable)...)
		v.NullableSet = true
	} else {
		v.Nullable = true
	}
	if attr, ok := content.Attributes["const"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Const)...)
		v.ConstSet = true
	}
	if f == flavour.Terraform && v.Const {
		if v.Sensitive {
			diags = append(diags, errorDiag("Const variable cannot be sensitive", `A variable that is marked as "const" cannot also be marked as "sensitive".`, v.DeclRange.Ptr()))
		}
		if v.Ephemeral {
			diags = append(diags, errorDiag("Const variable cannot be ephemeral", `A variable that is marked as "const" cannot also be marked as "ephemeral".`, v.DeclRange.Ptr()))
		}
	}
	if attr, ok := content.Attributes["default"]; ok {
		diags = append(diags, v.decodeDefault(attr)...)
	}
	for _, b := range content.Blocks {
		cr, crDiags := decodeVariableValidationBlock(v.Name, b, override, f)
		diags = append(diags, crDiags...)
		if !override {
			v.Validations = append(v.Validations, cr)
		}
	}
	return v, diags
}

// reservedVariableName is the error for a variable named like an argument
// or block type of a module block.
func reservedVariableName(name string, rng hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, a := range moduleBlockSchema.Attributes {
		if a.Name == name {
			diags = append(diags, errorDiag("Invalid variable name", fmt.Sprintf("The variable name %q is reserved due to its special meaning inside module blocks.", name), &rng))
		}
	}
	for _, b := range moduleBlockSchema.Blocks {
		if b.Type == name {
			diags = append(diags, errorDiag("Invalid variable name", fmt.Sprintf("The variable name %q is reserved due to its special meaning inside module blocks.", name), &rng))
		}
	}
	return diags
}

func (v *Variable) decodeDefault(attr *hcl.Attribute) hcl.Diagnostics {
	val, diags := attr.Expr.Value(nil)
	if v.ConstraintType != cty.NilType {
		if v.TypeDefaults != nil && !val.IsNull() {
			val = v.TypeDefaults.Apply(val)
		}
		converted, err := convert.Convert(val, v.ConstraintType)
		if err != nil {
			diags = append(diags, errorDiag("Invalid default value for variable", fmt.Sprintf("This default value is not compatible with the variable's type constraint: %s.", convertErrorText(err)), attr.Expr.Range().Ptr()))
			converted = cty.DynamicVal
		}
		val = converted
		diags = append(diags, lintVariableDefault(attr.Expr, v.ConstraintType)...)
	}
	if !v.Nullable && val.IsNull() {
		diags = append(diags, errorDiag("Invalid default value for variable", "A null default value is not valid when nullable=false.", attr.Expr.Range().Ptr()))
	}
	v.Default = val
	return diags
}

// quotedTypeDetail begins the detail of the error for a quoted type
// constraint, in flavour f's words.
func quotedTypeDetail(f flavour.Flavour) string {
	return fmt.Sprintf("%[1]s 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of %[1]s. Remove the quotes around ", f.Product())
}

// decodeVariableType reads a type argument, including the legacy forms:
// quoted type names (errors) and the bare keywords list and map.
func decodeVariableType(expr hcl.Expression, f flavour.Flavour) (cty.Type, *typeexpr.Defaults, VariableParsingMode, hcl.Diagnostics) {
	if exprIsNativeQuotedString(expr) {
		val, diags := expr.Value(nil)
		if diags.HasErrors() {
			return cty.DynamicPseudoType, nil, VariableParseHCL, diags
		}
		mode := VariableParseHCL
		var detail string
		switch str := val.AsString(); str {
		case "string":
			detail, mode = quotedTypeDetail(f)+`"string".`, VariableParseLiteral
		case "list", "map":
			detail = quotedTypeDetail(f) + fmt.Sprintf("%q and write %s(string) instead to explicitly indicate that the %s elements are strings.", str, str, str)
		default:
			return cty.DynamicPseudoType, nil, VariableParseHCL, hcl.Diagnostics{errorDiag("Invalid legacy variable type hint", `To provide a full type expression, remove the surrounding quotes and give the type expression directly.`, expr.Range().Ptr())}
		}
		return cty.DynamicPseudoType, nil, mode, append(diags, errorDiag("Invalid quoted type constraints", detail, expr.Range().Ptr()))
	}
	switch hcl.ExprAsKeyword(expr) {
	case "list":
		return cty.List(cty.DynamicPseudoType), nil, VariableParseHCL, nil
	case "map":
		return cty.Map(cty.DynamicPseudoType), nil, VariableParseHCL, nil
	}
	ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(expr)
	if diags.HasErrors() {
		return cty.DynamicPseudoType, nil, VariableParseHCL, diags
	}
	if ty.IsPrimitiveType() {
		return ty, defaults, VariableParseLiteral, diags
	}
	return ty, defaults, VariableParseHCL, diags
}

// decodeVariableValidationBlock is a check rule whose condition must refer
// to the variable itself.
func decodeVariableValidationBlock(name string, block *hcl.Block, override bool, f flavour.Flavour) (*CheckRule, hcl.Diagnostics) {
	cr, diags := decodeCheckRuleBlock(block, override)
	if cr.Condition == nil {
		return cr, diags
	}
	for _, tr := range cr.conditionRefs {
		if ref, refDiags := parseReference(tr, f); !refDiags.HasErrors() && ref.Kind == refVariable && ref.Name == name {
			return cr, diags
		}
	}
	return cr, append(diags, errorDiag("Invalid variable validation condition", fmt.Sprintf("The condition for variable %q must refer to var.%s in order to test incoming values.", name, name), cr.Condition.Range().Ptr()))
}

// convertErrorText formats a cty conversion error as OpenTofu does: a path
// prefix when the error is inside a value.
func convertErrorText(err error) string {
	if pe, ok := err.(cty.PathError); ok && len(pe.Path) > 0 {
		return fmt.Sprintf("%s: %s", formatCtyPath(pe.Path), pe.Error())
	}
	return err.Error()
}

// formatCtyPath writes a value path in HCL-like syntax: .a["k"][0].
func formatCtyPath(path cty.Path) string {
	var b strings.Builder
	for _, step := range path {
		switch st := step.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + st.Name)
		case cty.IndexStep:
			b.WriteByte('[')
			switch key := st.Key; {
			case key.IsNull():
				b.WriteString("null")
			case !key.IsKnown():
				b.WriteString("(not yet known)")
			case key.Type() == cty.Number:
				b.WriteString(key.AsBigFloat().Text('g', -1))
			case key.Type() == cty.String:
				b.WriteString(strconv.Quote(key.AsString()))
			default:
				b.WriteString("...")
			}
			b.WriteByte(']')
		}
	}
	return b.String()
}

// nameSuggestion is the first of names (sorted) within edit distance 2 of
// given, or "".
func nameSuggestion(given string, names []string) string {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	for _, n := range sorted {
		if editDistance(given, n) < 3 {
			return n
		}
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
