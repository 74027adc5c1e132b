package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

var resourceBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "count"},
		{Name: "for_each"},
		{Name: "provider"},
		{Name: "depends_on"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "locals"},
		{Type: "lifecycle"},
		{Type: "connection"},
		{Type: "provisioner", LabelNames: []string{"type"}},
		{Type: "_"},
	},
}

var dataBlockSchema = &hcl.BodySchema{
	Attributes: resourceBlockSchema.Attributes,
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "locals"},
		{Type: "_"},
	},
}

var managedLifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "create_before_destroy"},
		{Name: "prevent_destroy"},
		{Name: "destroy"},
		{Name: "ignore_changes"},
		{Name: "replace_triggered_by"},
		{Name: "enabled"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}, {Type: "postcondition"}},
}

var dataLifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "enabled"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "precondition"}, {Type: "postcondition"}},
}

func (m ResourceMode) blockType() string {
	switch m {
	case DataResourceMode:
		return "data"
	case EphemeralResourceMode:
		return "ephemeral"
	}
	return "resource"
}

// decodeResourceBlock decodes a resource, data or ephemeral block.
func decodeResourceBlock(block *hcl.Block, mode ResourceMode, override bool) (*Resource, hcl.Diagnostics) {
	return decodeResource(block, mode, override, false)
}

func decodeResource(block *hcl.Block, mode ResourceMode, override, nested bool) (*Resource, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	shape := dataShape
	if mode == ManagedResourceMode {
		shape = resourceShape
	}
	r := &Resource{
		Mode:      mode,
		Type:      block.Labels[0],
		Name:      block.Labels[1],
		DeclRange: block.DefRange,
		TypeRange: block.LabelRanges[0],
		Syntax:    newSyntaxBlock(block, shape),
	}
	if mode == ManagedResourceMode {
		r.Managed = &ManagedResource{}
	}
	schema := resourceBlockSchema
	if mode != ManagedResourceMode {
		schema = dataBlockSchema
	}
	content, _, moreDiags := block.Body.PartialContent(schema)
	diags = append(diags, moreDiags...)
	diags = append(diags, checkResourceNames(block, mode)...)
	if content == nil {
		return r, diags
	}
	var counters []*hcl.Attribute
	if attr, ok := content.Attributes["count"]; ok {
		if nested {
			diags = append(diags, nestedDataMeta("count", attr))
		} else {
			r.Count = attr.Expr
			counters = append(counters, attr)
		}
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		if nested {
			diags = append(diags, nestedDataMeta("for_each", attr))
		} else {
			r.ForEach = attr.Expr
			counters = append(counters, attr)
		}
	}
	if attr, ok := content.Attributes["provider"]; ok {
		ref, refDiags := decodeProviderConfigRef(attr.Expr, "provider")
		diags = append(diags, refDiags...)
		r.ProviderConfigRef = ref
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, depsDiags := decodeDependsOn(attr)
		diags = append(diags, depsDiags...)
		r.DependsOn = deps
	}
	var seenLifecycle, seenConnection, seenEscape *hcl.Block
	for _, b := range content.Blocks {
		switch {
		case b.Type == "lifecycle":
			if seenLifecycle != nil {
				what := "resource"
				if mode == EphemeralResourceMode {
					what = "ephemeral resource"
				}
				diags = append(diags, duplicateLifecycleBlock(what, seenLifecycle, b))
				continue
			}
			seenLifecycle = b
			enabled, lcDiags := r.decodeLifecycle(b, override)
			diags = append(diags, lcDiags...)
			if enabled != nil {
				counters = append(counters, enabled)
			}
		case b.Type == "connection":
			if seenConnection != nil {
				diags = append(diags, errorDiag("Duplicate connection block", fmt.Sprintf("This resource already has a connection block at %s.", seenConnection.DefRange), &b.DefRange))
				continue
			}
			seenConnection = b
			r.Managed.Connection = &Connection{DeclRange: b.DefRange}
		case b.Type == "provisioner":
			pv, pvDiags := decodeProvisionerBlock(b)
			diags = append(diags, pvDiags...)
			r.Managed.Provisioners = append(r.Managed.Provisioners, pv)
		case b.Type == "_":
			if seenEscape != nil {
				kind := mode.blockType()
				if mode == EphemeralResourceMode {
					kind = "resource"
				}
				diags = append(diags, duplicateEscapingBlock("resource-type-specific", kind, seenEscape, b))
				continue
			}
			seenEscape = b
		default:
			diags = append(diags, reservedBlockName(mode.blockType(), b))
		}
	}
	if d := countCombination(counters); d != nil {
		diags = append(diags, d)
	}
	r.linkSyntax()
	return r, diags
}

// linkSyntax points the typed connection and provisioners at their
// Document blocks.
func (r *Resource) linkSyntax() {
	if r.Managed == nil {
		return
	}
	if r.Managed.Connection != nil {
		if cs := r.Syntax.Body.BlocksOfType("connection"); len(cs) > 0 {
			r.Managed.Connection.Syntax = cs[0]
		}
	}
	ps := r.Syntax.Body.BlocksOfType("provisioner")
	for i, p := range r.Managed.Provisioners {
		if i < len(ps) {
			p.Syntax = ps[i]
		}
	}
}

func checkResourceNames(block *hcl.Block, mode ResourceMode) hcl.Diagnostics {
	var diags hcl.Diagnostics
	typeSummary, nameSummary := "Invalid resource type name", "Invalid resource name"
	switch mode {
	case DataResourceMode:
		typeSummary, nameSummary = "Invalid data source name", "Invalid data resource name"
	case EphemeralResourceMode:
		typeSummary, nameSummary = "Invalid ephemeral resource type name", "Invalid ephemeral resource name"
	}
	if !hclsyntax.ValidIdentifier(block.Labels[0]) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: typeSummary, Detail: badIdentifierDetail, Subject: &block.LabelRanges[0]})
	}
	if !hclsyntax.ValidIdentifier(block.Labels[1]) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: nameSummary, Detail: badIdentifierDetail, Subject: &block.LabelRanges[1]})
	}
	return diags
}

func nestedDataMeta(name string, attr *hcl.Attribute) *hcl.Diagnostic {
	return errorDiag(fmt.Sprintf("Invalid %q attribute", name), `The "count" and "for_each" meta-arguments are not supported within nested data blocks.`, &attr.NameRange)
}

// decodeLifecycle reads a lifecycle block; it returns the enabled argument
// (for the count/for_each/enabled check) when present.
func (r *Resource) decodeLifecycle(b *hcl.Block, override bool) (*hcl.Attribute, hcl.Diagnostics) {
	schema := dataLifecycleSchema
	if r.Mode == ManagedResourceMode {
		schema = managedLifecycleSchema
	}
	lc, diags := bodyContent(b.Body, schema)
	if lc == nil {
		return nil, diags
	}
	enabled := lc.Attributes["enabled"]
	if enabled != nil {
		r.Enabled = enabled.Expr
	}
	if m := r.Managed; m != nil {
		if attr, ok := lc.Attributes["create_before_destroy"]; ok {
			diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &m.CreateBeforeDestroy)...)
			m.CreateBeforeDestroySet = true
		}
		if attr, ok := lc.Attributes["prevent_destroy"]; ok {
			m.PreventDestroy = attr.Expr
		}
		if attr, ok := lc.Attributes["destroy"]; ok {
			m.Destroy = attr.Expr
		}
		if attr, ok := lc.Attributes["replace_triggered_by"]; ok {
			exprs, listDiags := hcl.ExprList(attr.Expr)
			diags = append(diags, listDiags...)
			r.TriggersReplacement = append(r.TriggersReplacement, exprs...)
		}
		if attr, ok := lc.Attributes["ignore_changes"]; ok {
			diags = append(diags, m.decodeIgnoreChanges(attr)...)
		}
	}
	for _, cb := range lc.Blocks {
		if override {
			diags = append(diags, cantOverride(cb))
			continue
		}
		cr, crDiags := decodeCheckRuleBlock(cb)
		diags = append(diags, crDiags...)
		if cb.Type == "precondition" {
			r.Preconditions = append(r.Preconditions, cr)
		} else {
			r.Postconditions = append(r.Postconditions, cr)
		}
	}
	return enabled, diags
}

func (m *ManagedResource) decodeIgnoreChanges(attr *hcl.Attribute) hcl.Diagnostics {
	if hcl.ExprAsKeyword(attr.Expr) == "all" {
		m.IgnoreAllChanges = true
		return nil
	}
	exprs, diags := hcl.ExprList(attr.Expr)
	for _, expr := range exprs {
		if v, vDiags := expr.Value(nil); !vDiags.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type().FriendlyName() == "string" && v.AsString() == "*" {
			m.IgnoreAllChanges = true
			diags = append(diags, errorDiag("Invalid ignore_changes wildcard", "The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes.", attr.Expr.Range().Ptr()))
			continue
		}
		expr, shimDiags := shimTraversalInString(expr)
		diags = append(diags, shimDiags...)
		tr, trDiags := hcl.RelTraversalForExpr(expr)
		diags = append(diags, trDiags...)
		if len(tr) != 0 {
			m.IgnoreChanges = append(m.IgnoreChanges, tr)
		}
	}
	return diags
}

var provisionerBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "when"},
		{Name: "on_failure"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "connection"},
		{Type: "lifecycle"},
		{Type: "_"},
	},
}

func decodeProvisionerBlock(block *hcl.Block) (*Provisioner, hcl.Diagnostics) {
	pv := &Provisioner{Type: block.Labels[0], DeclRange: block.DefRange}
	content, _, diags := block.Body.PartialContent(provisionerBlockSchema)
	if content == nil {
		return pv, diags
	}
	if attr, ok := content.Attributes["when"]; ok {
		pv.When = hcl.ExprAsKeyword(attr.Expr)
		if pv.When != "create" && pv.When != "destroy" {
			diags = append(diags, errorDiag("Invalid \"when\" keyword", "The \"when\" argument requires one of the following keywords: create or destroy.", attr.Expr.Range().Ptr()))
		}
	}
	if attr, ok := content.Attributes["on_failure"]; ok {
		pv.OnFailure = hcl.ExprAsKeyword(attr.Expr)
		if pv.OnFailure != "continue" && pv.OnFailure != "fail" {
			diags = append(diags, errorDiag("Invalid \"on_failure\" keyword", "The \"on_failure\" argument requires one of the following keywords: continue or fail.", attr.Expr.Range().Ptr()))
		}
	}
	var seenConnection, seenEscape *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "connection":
			if seenConnection != nil {
				diags = append(diags, errorDiag("Duplicate connection block", fmt.Sprintf("This provisioner already has a connection block at %s.", seenConnection.DefRange), &b.DefRange))
				continue
			}
			seenConnection = b
			pv.Connection = &Connection{DeclRange: b.DefRange}
		case "_":
			if seenEscape != nil {
				diags = append(diags, duplicateEscapingBlock("provisioner-type-specific", "provisioner", seenEscape, b))
				continue
			}
			seenEscape = b
		default:
			diags = append(diags, reservedBlockName("provisioner", b))
		}
	}
	return pv, diags
}
