package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/flavour"
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
func decodeResourceBlock(block *hcl.Block, mode ResourceMode, override bool, f flavour.Flavour) (*Resource, hcl.Diagnostics) {
	return decodeResource(block, mode, override, false, f)
}

func decodeResource(block *hcl.Block, mode ResourceMode, override, nested bool, f flavour.Flavour) (*Resource, hcl.Diagnostics) {
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
	if mode == DataResourceMode || (mode == EphemeralResourceMode && f == flavour.Terraform) {
		// Terraform's ephemeral resources have no connection or
		// provisioner blocks: those are left to the provider's schema.
		schema = dataBlockSchema
	}
	content, _, diags := block.Body.PartialContent(schema)
	diags = append(diags, checkResourceNames(block, mode, f)...)
	if content == nil {
		return r, diags
	}
	var counters []*hcl.Attribute
	for _, name := range []string{"count", "for_each"} {
		attr, ok := content.Attributes[name]
		switch {
		case !ok:
		case nested:
			diags = append(diags, nestedDataMeta(name, attr, f))
		case name == "count":
			r.Count = attr.Expr
			counters = append(counters, attr)
		default:
			r.ForEach = attr.Expr
			counters = append(counters, attr)
		}
	}
	if f == flavour.Terraform {
		diags = append(diags, terraformCountAndForEach(counters)...)
		counters = nil
	}
	if attr, ok := content.Attributes["provider"]; ok {
		ref, refDiags := decodeProviderConfigRef(attr.Expr, "provider", f)
		diags = append(diags, refDiags...)
		r.ProviderConfigRef = ref
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, depsDiags := decodeDependsOnIn(attr, f)
		diags = append(diags, depsDiags...)
		r.DependsOn = deps
	}
	var seenLifecycle, seenConnection, seenEscape *hcl.Block
	for _, b := range content.Blocks {
		switch {
		case b.Type == "lifecycle":
			if nested {
				diags = append(diags, errorDiag("Invalid lifecycle block", `Nested data blocks do not support "lifecycle" blocks as the lifecycle is managed by the containing block.`, b.DefRange.Ptr()))
			}
			if seenLifecycle != nil {
				what := "resource"
				if mode == EphemeralResourceMode && f != flavour.Terraform {
					what = "ephemeral resource"
				}
				diags = append(diags, duplicateLifecycleBlock(what, seenLifecycle, b))
				continue
			}
			seenLifecycle = b
			decode := r.decodeLifecycle
			if f == flavour.Terraform {
				decode = r.decodeTerraformLifecycle
			}
			enabled, lcDiags := decode(b, override)
			diags = append(diags, lcDiags...)
			if enabled != nil {
				counters = append(counters, enabled)
			}
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
		case mode == EphemeralResourceMode && (b.Type == "connection" || b.Type == "provisioner"):
			diags = append(diags, errorDiag("Invalid configuration block for ephemeral resource", fmt.Sprintf("The block type %q cannot be used in ephemeral resources. This is meant to be used strictly in \"resource\" blocks.", b.Type), b.DefRange.Ptr()))
		case mode == ManagedResourceMode && b.Type == "connection":
			if seenConnection != nil {
				diags = append(diags, errorDiag("Duplicate connection block", fmt.Sprintf("This resource already has a connection block at %s.", seenConnection.DefRange), &b.DefRange))
				continue
			}
			seenConnection = b
			r.Managed.Connection = &Connection{DeclRange: b.DefRange, body: b.Body}
		case mode == ManagedResourceMode && b.Type == "provisioner":
			pv, pvDiags := decodeProvisionerBlock(b, f)
			diags = append(diags, pvDiags...)
			if pv != nil {
				r.Managed.Provisioners = append(r.Managed.Provisioners, pv)
			}
		default:
			diags = append(diags, reservedBlockName(mode.blockType(), b, f))
		}
	}
	if d := countCombination(counters, combinationDetail[mode]); d != nil {
		diags = append(diags, d)
	}
	if m := r.Managed; m != nil && m.Connection != nil {
		for _, p := range m.Provisioners {
			if p.When == "destroy" {
				diags = append(diags, onlySelfRefs(m.Connection.body)...)
				break
			}
		}
	}
	r.linkSyntax()
	return r, diags
}

var combinationDetail = map[ResourceMode]string{
	ManagedResourceMode:   "The %s meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of resources to be created.",
	DataResourceMode:      "The %s meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of data sources to be created.",
	EphemeralResourceMode: "The %s meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of ephemeral resources to be created.",
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

// checkResourceNames checks a resource block's labels; Terraform calls an
// invalid ephemeral resource type an "Invalid ephemeral resource type".
func checkResourceNames(block *hcl.Block, mode ResourceMode, f flavour.Flavour) hcl.Diagnostics {
	var diags hcl.Diagnostics
	typeSummary, nameSummary := "Invalid resource type name", "Invalid resource name"
	switch mode {
	case DataResourceMode:
		typeSummary, nameSummary = "Invalid data source name", "Invalid data resource name"
	case EphemeralResourceMode:
		typeSummary, nameSummary = "Invalid ephemeral resource type name", "Invalid ephemeral resource name"
		if f == flavour.Terraform {
			typeSummary = "Invalid ephemeral resource type"
		}
	}
	if !hclsyntax.ValidIdentifier(block.Labels[0]) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: typeSummary, Detail: badIdentifierDetail, Subject: &block.LabelRanges[0]})
	}
	if !hclsyntax.ValidIdentifier(block.Labels[1]) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: nameSummary, Detail: badIdentifierDetail, Subject: &block.LabelRanges[1]})
	}
	return diags
}

func nestedDataMeta(name string, attr *hcl.Attribute, f flavour.Flavour) *hcl.Diagnostic {
	detail := fmt.Sprintf("The %q meta-argument is not supported within nested data blocks.", name)
	if f == flavour.Terraform {
		detail = `The "count" and "for_each" meta-arguments are not supported within nested data blocks.`
	}
	return errorDiag(fmt.Sprintf("Invalid %q attribute", name), detail, &attr.NameRange)
}

// decodeLifecycle reads a lifecycle block; it returns the enabled argument
// (for the count/for_each/enabled check) when present.
func (r *Resource) decodeLifecycle(b *hcl.Block, override bool) (*hcl.Attribute, hcl.Diagnostics) {
	lc, diags := bodyContent(b.Body, managedLifecycleSchema)
	if lc == nil {
		return nil, diags
	}
	enabled := lc.Attributes["enabled"]
	if enabled != nil {
		r.Enabled = enabled.Expr
	}
	switch r.Mode {
	case ManagedResourceMode:
		diags = append(diags, r.Managed.decodeLifecycleArgs(r, lc, flavour.OpenTofu)...)
	case DataResourceMode:
		for _, attr := range sortedAttributes(lc.Attributes) {
			if attr.Name != "enabled" {
				diags = append(diags, errorDiag("Invalid data resource lifecycle argument", fmt.Sprintf("The lifecycle argument %q is defined only for managed resources (\"resource\" blocks), and is not valid for data resources.", attr.Name), attr.NameRange.Ptr()))
			}
		}
	case EphemeralResourceMode:
		for _, name := range []string{"create_before_destroy", "destroy", "prevent_destroy", "replace_triggered_by", "ignore_changes"} {
			if _, ok := lc.Attributes[name]; ok {
				diags = append(diags, errorDiag("Invalid lifecycle configuration for ephemeral resource", fmt.Sprintf("The lifecycle argument %q cannot be used in ephemeral resources. This is meant to be used strictly in \"resource\" blocks.", name), b.DefRange.Ptr()))
			}
		}
	}
	addr := resourceAddr{Mode: r.Mode, Type: r.Type, Name: r.Name}
	for _, cb := range lc.Blocks {
		cr, crDiags := decodeCheckRuleBlock(cb, override)
		diags = append(diags, crDiags...)
		diags = append(diags, cr.selfReferences(cb.Type, addr, flavour.OpenTofu)...)
		if override {
			continue
		}
		if cb.Type == "precondition" {
			r.Preconditions = append(r.Preconditions, cr)
		} else {
			r.Postconditions = append(r.Postconditions, cr)
		}
	}
	return enabled, diags
}

// sortedAttributes lists a content's attributes in source order.
func sortedAttributes(attrs hcl.Attributes) []*hcl.Attribute {
	out := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		out = append(out, a)
	}
	sortHCLAttributes(out)
	return out
}

// decodeLifecycleArgs reads the managed-resource lifecycle arguments.
func (m *ManagedResource) decodeLifecycleArgs(r *Resource, lc *hcl.BodyContent, f flavour.Flavour) hcl.Diagnostics {
	var diags hcl.Diagnostics
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
		exprs, rtbDiags := decodeReplaceTriggeredBy(attr.Expr, f)
		diags = append(diags, rtbDiags...)
		r.TriggersReplacement = append(r.TriggersReplacement, exprs...)
	}
	if attr, ok := lc.Attributes["ignore_changes"]; ok {
		diags = append(diags, m.decodeIgnoreChanges(attr, f)...)
	}
	return diags
}

func (m *ManagedResource) decodeIgnoreChanges(attr *hcl.Attribute, f flavour.Flavour) hcl.Diagnostics {
	if hcl.ExprAsKeyword(attr.Expr) == "all" {
		m.IgnoreAllChanges = true
		return nil
	}
	exprs, diags := hcl.ExprList(attr.Expr)
	var starRange hcl.Range
	for _, expr := range exprs {
		if v, vDiags := expr.Value(nil); !vDiags.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() && v.AsString() == "*" {
			m.IgnoreAllChanges = true
			starRange = expr.Range()
			diags = append(diags, errorDiag("Invalid ignore_changes wildcard", "The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes.", attr.Expr.Range().Ptr()))
			continue
		}
		expr, shimDiags := shimTraversalInString(expr, false, f)
		diags = append(diags, shimDiags...)
		tr, trDiags := hcl.RelTraversalForExpr(expr)
		diags = append(diags, trDiags...)
		if len(tr) != 0 {
			m.IgnoreChanges = append(m.IgnoreChanges, tr)
		}
	}
	if m.IgnoreAllChanges && len(m.IgnoreChanges) != 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid ignore_changes ruleset",
			Detail:   "Cannot mix wildcard string \"*\" with non-wildcard references.",
			Subject:  &starRange,
			Context:  attr.Expr.Range().Ptr(),
		})
	}
	return diags
}
