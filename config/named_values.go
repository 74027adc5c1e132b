package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

var variableBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"},
		{Name: "default"},
		{Name: "type"},
		{Name: "sensitive"},
		{Name: "nullable"},
		{Name: "ephemeral"},
		{Name: "deprecated"},
		{Name: "const"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "validation"}},
}

// reservedVariableNames are meaningful inside module blocks.
var reservedVariableNames = map[string]bool{
	"source": true, "version": true, "providers": true, "count": true,
	"for_each": true, "lifecycle": true, "depends_on": true, "locals": true,
}

func decodeVariableBlock(block *hcl.Block, override bool) (*Variable, hcl.Diagnostics) {
	v := &Variable{
		Name:      block.Labels[0],
		DeclRange: block.DefRange,
		Syntax:    newSyntaxBlock(block, variableShape),
	}
	var diags hcl.Diagnostics
	if !override {
		v.Type = cty.DynamicPseudoType
		v.ConstraintType = cty.DynamicPseudoType
		v.ParsingMode = VariableParseLiteral
		v.Nullable = true
	}
	if reservedVariableNames[v.Name] {
		diags = append(diags, errorDiag("Invalid variable name", fmt.Sprintf("The variable name %q is reserved due to its special meaning inside module blocks.", v.Name), &block.LabelRanges[0]))
	} else if !hclsyntax.ValidIdentifier(v.Name) {
		diags = append(diags, errorDiag("Invalid variable name", badIdentifierDetail, &block.LabelRanges[0]))
	}

	content, moreDiags := bodyContent(block.Body, variableBlockSchema)
	diags = append(diags, moreDiags...)
	if content == nil {
		return v, diags
	}
	if attr, ok := content.Attributes["description"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Description)...)
		v.DescriptionSet = true
	}
	if attr, ok := content.Attributes["type"]; ok {
		ty, defaults, tyDiags := typeexpr.TypeConstraintWithDefaults(attr.Expr)
		diags = append(diags, tyDiags...)
		if !tyDiags.HasErrors() {
			v.Type, v.ConstraintType, v.TypeDefaults = ty.WithoutOptionalAttributesDeep(), ty, defaults
		} else {
			v.Type, v.ConstraintType = cty.DynamicPseudoType, cty.DynamicPseudoType
		}
		v.ParsingMode = VariableParseHCL
		if ty.IsPrimitiveType() {
			v.ParsingMode = VariableParseLiteral
		}
	}
	for _, b := range []struct {
		name string
		dst  *bool
		set  *bool
	}{
		{"sensitive", &v.Sensitive, &v.SensitiveSet},
		{"ephemeral", &v.Ephemeral, &v.EphemeralSet},
		{"nullable", &v.Nullable, &v.NullableSet},
		{"const", &v.Const, &v.ConstSet},
	} {
		if attr, ok := content.Attributes[b.name]; ok {
			diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, b.dst)...)
			*b.set = true
		}
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Deprecated)...)
	}
	if attr, ok := content.Attributes["default"]; ok {
		diags = append(diags, v.decodeDefault(attr)...)
	}
	for _, b := range content.Blocks {
		if override {
			diags = append(diags, cantOverride(b))
			continue
		}
		cr, crDiags := decodeCheckRuleBlock(b)
		diags = append(diags, crDiags...)
		v.Validations = append(v.Validations, cr)
	}
	return v, diags
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
	}
	if v.NullableSet && !v.Nullable && val.IsNull() {
		diags = append(diags, errorDiag("Invalid default value for variable", "A null default value is not valid when nullable=false.", attr.Expr.Range().Ptr()))
	}
	v.Default = val
	return diags
}

// convertErrorText formats a cty conversion error as OpenTofu does for
// decode-time errors: a path prefix when the error is inside a value.
func convertErrorText(err error) string {
	if pe, ok := err.(cty.PathError); ok && len(pe.Path) > 0 {
		return fmt.Sprintf("%s: %s", formatCtyPath(pe.Path), pe.Error())
	}
	return err.Error()
}

func formatCtyPath(path cty.Path) string {
	s := ""
	for _, step := range path {
		switch st := step.(type) {
		case cty.GetAttrStep:
			s += "." + st.Name
		case cty.IndexStep:
			switch st.Key.Type() {
			case cty.String:
				s += fmt.Sprintf("[%q]", st.Key.AsString())
			case cty.Number:
				s += "[" + st.Key.AsBigFloat().Text('f', -1) + "]"
			}
		}
	}
	if len(s) > 0 && s[0] == '.' {
		s = s[1:]
	}
	return "attribute " + fmt.Sprintf("%q", s)
}

var checkRuleBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: true},
		{Name: "error_message"},
	},
}

func decodeCheckRuleBlock(block *hcl.Block) (*CheckRule, hcl.Diagnostics) {
	cr := &CheckRule{DeclRange: block.DefRange}
	content, diags := bodyContent(block.Body, checkRuleBlockSchema)
	if content == nil {
		return cr, diags
	}
	if attr, ok := content.Attributes["condition"]; ok {
		cr.Condition = attr.Expr
	}
	if attr, ok := content.Attributes["error_message"]; ok {
		cr.ErrorMessage = attr.Expr
	}
	return cr, diags
}

func decodeLocalsBlock(block *hcl.Block, syn *Block) ([]*Local, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	byName := map[string]*Attribute{}
	for _, a := range syn.Body.Attributes {
		byName[a.Name] = a
	}
	ordered := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		ordered = append(ordered, a)
	}
	sortHCLAttributes(ordered)
	var locals []*Local
	for _, attr := range ordered {
		if !hclsyntax.ValidIdentifier(attr.Name) {
			diags = append(diags, errorDiag("Invalid local value name", badIdentifierDetail, &attr.NameRange))
		}
		syntax := byName[attr.Name]
		if syntax == nil {
			syntax = newAttribute(attr, emptyShape)
		}
		locals = append(locals, &Local{
			Name:      attr.Name,
			Expr:      attr.Expr,
			DeclRange: attr.Range,
			Syntax:    syntax,
			block:     syn,
		})
	}
	return locals, diags
}

var outputBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"},
		{Name: "value", Required: true},
		{Name: "depends_on"},
		{Name: "sensitive"},
		{Name: "ephemeral"},
		{Name: "deprecated"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}, {Type: "postcondition"}},
}

func decodeOutputBlock(block *hcl.Block, override bool) (*Output, hcl.Diagnostics) {
	o := &Output{
		Name:      block.Labels[0],
		DeclRange: block.DefRange,
		Syntax:    newSyntaxBlock(block, outputShape),
	}
	var diags hcl.Diagnostics
	if !hclsyntax.ValidIdentifier(o.Name) {
		diags = append(diags, errorDiag("Invalid output name", badIdentifierDetail, &block.LabelRanges[0]))
	}
	schema := outputBlockSchema
	if override {
		schema = schemaForOverrides(schema)
	}
	content, moreDiags := bodyContent(block.Body, schema)
	diags = append(diags, moreDiags...)
	if content == nil {
		return o, diags
	}
	if attr, ok := content.Attributes["description"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Description)...)
		o.DescriptionSet = true
	}
	if attr, ok := content.Attributes["value"]; ok {
		o.Expr = attr.Expr
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Sensitive)...)
		o.SensitiveSet = true
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Ephemeral)...)
		o.EphemeralSet = true
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Deprecated)...)
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, depsDiags := decodeDependsOn(attr)
		diags = append(diags, depsDiags...)
		o.DependsOn = deps
	}
	for _, b := range content.Blocks {
		if override {
			diags = append(diags, cantOverride(b))
			continue
		}
		if b.Type == "postcondition" {
			diags = append(diags, errorDiag("Postconditions are not allowed", "Output values can only have preconditions, not postconditions.", b.TypeRange.Ptr()))
			continue
		}
		cr, crDiags := decodeCheckRuleBlock(b)
		diags = append(diags, crDiags...)
		o.Preconditions = append(o.Preconditions, cr)
	}
	return o, diags
}

// schemaForOverrides returns a copy of schema with no required arguments.
func schemaForOverrides(schema *hcl.BodySchema) *hcl.BodySchema {
	ret := &hcl.BodySchema{Blocks: schema.Blocks}
	for _, a := range schema.Attributes {
		a.Required = false
		ret.Attributes = append(ret.Attributes, a)
	}
	return ret
}

// decodeDependsOn reads a depends_on list of references.
func decodeDependsOn(attr *hcl.Attribute) ([]hcl.Traversal, hcl.Diagnostics) {
	var ret []hcl.Traversal
	exprs, diags := hcl.ExprList(attr.Expr)
	for _, expr := range exprs {
		expr, shimDiags := shimTraversalInString(expr)
		diags = append(diags, shimDiags...)
		tr, trDiags := hcl.AbsTraversalForExpr(expr)
		diags = append(diags, trDiags...)
		if len(tr) != 0 {
			ret = append(ret, tr)
		}
	}
	if ret == nil && !diags.HasErrors() {
		ret = []hcl.Traversal{}
	}
	return ret, diags
}
