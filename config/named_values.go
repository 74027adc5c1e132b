package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfdeps/tfdeps/flavour"
)

var checkRuleBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: true},
		{Name: "error_message", Required: true},
	},
}

// decodeCheckRuleBlock decodes a validation, precondition, postcondition or
// assert block; in an override file it is error C9 instead.
func decodeCheckRuleBlock(block *hcl.Block, override bool) (*CheckRule, hcl.Diagnostics) {
	cr := &CheckRule{DeclRange: block.DefRange}
	if override {
		return cr, hcl.Diagnostics{cantOverride(block)}
	}
	content, diags := bodyContent(block.Body, checkRuleBlockSchema)
	if content == nil {
		return cr, diags
	}
	if attr, ok := content.Attributes["condition"]; ok {
		cr.Condition = attr.Expr
		cr.conditionRefs = attr.Expr.Variables()
		if len(cr.conditionRefs) == 0 {
			diags = append(diags, errorDiag(fmt.Sprintf("Invalid %s expression", block.Type), "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.", cr.Condition.Range().Ptr()))
		}
	}
	if attr, ok := content.Attributes["error_message"]; ok {
		cr.ErrorMessage = attr.Expr
	}
	return cr, diags
}

// selfReferences is the error for a resource's condition that refers to the
// resource itself (it can use self instead).
func (cr *CheckRule) selfReferences(blockType string, addr resourceAddr, f flavour.Flavour) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for i, expr := range []hcl.Expression{cr.Condition, cr.ErrorMessage} {
		if expr == nil {
			continue
		}
		trs := cr.conditionRefs
		if i == 1 {
			trs = expr.Variables()
		}
		for _, tr := range trs {
			if ref, _ := parseReference(tr, f); (ref.Kind == refResource || ref.Kind == refResourceInstance) && ref.Resource == addr {
				diags = append(diags, errorDiag("Invalid reference in "+blockType, fmt.Sprintf("Configuration for %s may not refer to itself.", addr), expr.Range().Ptr()))
				break
			}
		}
	}
	return diags
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

// terraformOutputBlockSchema is outputBlockSchema with Terraform's type
// argument.
var terraformOutputBlockSchema = &hcl.BodySchema{
	Attributes: append(slices.Clone(outputBlockSchema.Attributes), hcl.AttributeSchema{Name: "type"}),
	Blocks:     outputBlockSchema.Blocks,
}

func decodeOutputBlock(block *hcl.Block, override bool, f flavour.Flavour) (*Output, hcl.Diagnostics) {
	o := &Output{
		Name:      block.Labels[0],
		DeclRange: block.DefRange,
		Syntax:    newSyntaxBlock(block, outputShape),
	}
	schema := outputBlockSchema
	if f == flavour.Terraform {
		schema = terraformOutputBlockSchema
	}
	if override {
		schema = schemaForOverrides(schema)
	}
	content, diags := bodyContent(block.Body, schema)
	if !hclsyntax.ValidIdentifier(o.Name) {
		diags = append(diags, errorDiag("Invalid output name", badIdentifierDetail, &block.LabelRanges[0]))
	}
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
	if attr, ok := content.Attributes["type"]; ok {
		// Terraform's type constraint of an output value.
		_, _, d := typeexpr.TypeConstraintWithDefaults(attr.Expr)
		diags = append(diags, d...)
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Sensitive)...)
		o.SensitiveSet = true
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Deprecated)...)
		if !diags.HasErrors() && strings.TrimSpace(o.Deprecated) == "" {
			diags = append(diags, errorDiag("Invalid `deprecated` attribute", `The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated output value.`, attr.Expr.Range().Ptr()))
		}
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Ephemeral)...)
		o.EphemeralSet = true
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, depsDiags := decodeDependsOnIn(attr, f)
		diags = append(diags, depsDiags...)
		o.DependsOn = deps
	}
	for _, b := range content.Blocks {
		if b.Type == "postcondition" {
			diags = append(diags, errorDiag("Postconditions are not allowed", "Output values can only have preconditions, not postconditions.", b.TypeRange.Ptr()))
			continue
		}
		cr, crDiags := decodeCheckRuleBlock(b, override)
		diags = append(diags, crDiags...)
		if !override {
			o.Preconditions = append(o.Preconditions, cr)
		}
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

// decodeDependsOn reads a list of references as OpenTofu reads
// depends_on (a test run's replace, target and expect_failures in both
// flavours), in flavour f's words.
func decodeDependsOn(attr *hcl.Attribute, f flavour.Flavour) ([]hcl.Traversal, hcl.Diagnostics) {
	return decodeReferenceList(attr, false, f)
}

// decodeDependsOnIn reads a depends_on list of references; in the
// Terraform flavour a reference to an action is an error.
func decodeDependsOnIn(attr *hcl.Attribute, f flavour.Flavour) ([]hcl.Traversal, hcl.Diagnostics) {
	return decodeReferenceList(attr, f == flavour.Terraform, f)
}

// decodeReferenceList reads a list of references; with noActions a
// reference to an action is an error. f words the texts.
func decodeReferenceList(attr *hcl.Attribute, noActions bool, f flavour.Flavour) ([]hcl.Traversal, hcl.Diagnostics) {
	var ret []hcl.Traversal
	exprs, diags := hcl.ExprList(attr.Expr)
	for _, expr := range exprs {
		expr, shimDiags := shimTraversalInString(expr, false, f)
		diags = append(diags, shimDiags...)
		tr, trDiags := hcl.AbsTraversalForExpr(expr)
		diags = append(diags, trDiags...)
		if len(tr) != 0 && noActions && tr.RootName() == "action" {
			diags = append(diags, actionDependsOn(expr.Range()))
			continue
		}
		if len(tr) != 0 {
			ret = append(ret, tr)
		}
	}
	if ret == nil && !diags.HasErrors() {
		ret = []hcl.Traversal{}
	}
	return ret, diags
}
