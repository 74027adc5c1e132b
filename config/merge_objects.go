package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// The methods here merge one override declaration into its base, updating
// the typed fields and the Document body together.

func (p *ProviderConfig) merge(op *ProviderConfig, file string) {
	if op.VersionSet {
		p.Version, p.VersionSet, p.VersionRange = op.Version, true, op.VersionRange
	}
	drop := []string{"for_each", "alias"}
	if !op.VersionSet {
		drop = append(drop, "version")
	}
	mergeBody(p.Syntax.Body, op.Syntax.Body.without(drop, nil), file)
}

func (v *Variable) merge(ov *Variable, file string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if ov.DescriptionSet {
		v.Description, v.DescriptionSet = ov.Description, true
	}
	if ov.SensitiveSet {
		v.Sensitive, v.SensitiveSet = ov.Sensitive, true
	}
	if ov.EphemeralSet {
		v.Ephemeral, v.EphemeralSet = ov.Ephemeral, true
	}
	if ov.NullableSet {
		v.Nullable, v.NullableSet = ov.Nullable, true
	}
	if ov.ConstSet {
		v.Const, v.ConstSet = ov.Const, true
	}
	if ov.Deprecated != "" {
		v.Deprecated = ov.Deprecated
	}
	if ov.Default != cty.NilVal {
		v.Default = ov.Default
	}
	if ov.Type != cty.NilType {
		v.Type, v.ConstraintType = ov.Type, ov.ConstraintType
	}
	if ov.ParsingMode != 0 {
		v.ParsingMode = ov.ParsingMode
	}
	drop := []string{}
	if ov.Deprecated == "" {
		drop = append(drop, "deprecated")
	}
	mergeBody(v.Syntax.Body, ov.Syntax.Body.without(drop, []string{"validation"}), file)

	if v.Default == cty.NilVal {
		return diags
	}
	val, err := convert.Convert(v.Default, v.ConstraintType)
	if err != nil {
		var detail string
		switch {
		case ov.Type != cty.NilType && ov.Default == cty.NilVal:
			detail = "Overriding this variable's type constraint has made its default value invalid: %s."
		case ov.Type == cty.NilType && ov.Default != cty.NilVal:
			detail = "The overridden default value for this variable is not compatible with the variable's type constraint: %s."
		default:
			detail = "This variable's default value is not compatible with its type constraint: %s."
		}
		diags = append(diags, errorDiag("Invalid default value for variable", fmt.Sprintf(detail, err), ov.DeclRange.Ptr()))
	} else {
		v.Default = val
	}
	if !v.Nullable && v.Default.IsNull() {
		diags = append(diags, errorDiag("Invalid default value for variable", "A null default value is not valid when nullable=false.", ov.DeclRange.Ptr()))
	}
	return diags
}

func (l *Local) merge(ol *Local) {
	l.Expr, l.DeclRange = ol.Expr, ol.DeclRange
	na := *ol.Syntax
	r := l.Syntax.Range
	na.Replaced = &r
	if l.block != nil {
		for i, a := range l.block.Body.Attributes {
			if a == l.Syntax {
				l.block.Body.Attributes[i] = &na
			}
		}
	}
	l.Syntax = &na
}

func (o *Output) merge(oo *Output, file string) hcl.Diagnostics {
	if oo.Description != "" {
		o.Description, o.DescriptionSet = oo.Description, true
	}
	if oo.Expr != nil {
		o.Expr = oo.Expr
	}
	if oo.SensitiveSet {
		o.Sensitive, o.SensitiveSet = oo.Sensitive, true
	}
	if oo.EphemeralSet {
		o.Ephemeral, o.EphemeralSet = oo.Ephemeral, true
	}
	if oo.Deprecated != "" {
		o.Deprecated = oo.Deprecated
	}
	drop := []string{"depends_on"}
	if oo.Description == "" {
		drop = append(drop, "description")
	}
	if oo.Deprecated == "" {
		drop = append(drop, "deprecated")
	}
	mergeBody(o.Syntax.Body, oo.Syntax.Body.without(drop, []string{"precondition", "postcondition"}), file)
	return unsupportedDependsOn(oo.DependsOn)
}

func (mc *ModuleCall) merge(omc *ModuleCall, file string) hcl.Diagnostics {
	if omc.SourceSet {
		mc.SourceExpr, mc.SourceSet, mc.SourceAddrRange = omc.SourceExpr, true, omc.SourceAddrRange
	}
	if omc.Count != nil {
		mc.Count = omc.Count
	}
	if omc.ForEach != nil {
		mc.ForEach = omc.ForEach
	}
	if omc.HasVersion {
		mc.VersionExpr, mc.Version = omc.VersionExpr, omc.Version
	}
	mc.HasVersion = mc.HasVersion || omc.HasVersion
	drop := []string{"depends_on"}
	if len(omc.Providers) != 0 {
		mc.Providers = omc.Providers
	} else {
		drop = append(drop, "providers")
	}
	mergeBody(mc.Syntax.Body, omc.Syntax.Body.without(drop, []string{"lifecycle"}), file)
	return unsupportedDependsOn(omc.DependsOn)
}

func (m *Module) mergeResource(r, or *Resource, file string) hcl.Diagnostics {
	if or.Count != nil {
		r.Count = or.Count
	}
	if or.ForEach != nil {
		r.ForEach = or.ForEach
	}
	if or.ProviderConfigRef != nil {
		r.ProviderConfigRef = or.ProviderConfigRef
		r.Provider = m.ProviderForLocalName(or.ProviderConfigRef.Name)
	}
	if r.Managed != nil && or.Managed != nil {
		rm, om := r.Managed, or.Managed
		if om.Connection != nil {
			rm.Connection = om.Connection
		}
		if om.CreateBeforeDestroySet {
			rm.CreateBeforeDestroy, rm.CreateBeforeDestroySet = om.CreateBeforeDestroy, true
		}
		if om.PreventDestroy != nil {
			rm.PreventDestroy = om.PreventDestroy
		}
		if om.Destroy != nil {
			rm.Destroy = om.Destroy
		}
		if len(om.IgnoreChanges) != 0 {
			rm.IgnoreChanges = om.IgnoreChanges
		}
		if om.IgnoreAllChanges {
			rm.IgnoreAllChanges = true
		}
		if len(om.Provisioners) != 0 {
			rm.Provisioners = om.Provisioners
		}
	}
	over := or.Syntax.Body.without([]string{"depends_on"}, []string{"lifecycle"})
	mergeBody(r.Syntax.Body, over, file)
	if r.Managed != nil {
		mergeLifecycleSyntax(r.Syntax.Body, or.Syntax.Body.BlocksOfType("lifecycle"), file)
	}
	r.linkSyntax()
	return unsupportedDependsOn(or.DependsOn)
}

// mergeLifecycleSyntax merges an override's lifecycle block into the
// Document argument by argument, keeping only what OpenTofu merges.
func mergeLifecycleSyntax(body *Body, overs []*Block, file string) {
	if len(overs) == 0 {
		return
	}
	ob := overs[0]
	filtered := &Body{}
	for _, a := range ob.Body.Attributes {
		switch a.Name {
		case "create_before_destroy", "prevent_destroy", "destroy":
			filtered.Attributes = append(filtered.Attributes, a)
		case "ignore_changes":
			if hcl.ExprAsKeyword(a.Expr) == "all" {
				filtered.Attributes = append(filtered.Attributes, a)
			} else if exprs, d := hcl.ExprList(a.Expr); !d.HasErrors() && len(exprs) > 0 {
				filtered.Attributes = append(filtered.Attributes, a)
			}
		}
	}
	if len(filtered.Attributes) == 0 {
		return
	}
	bases := body.BlocksOfType("lifecycle")
	if len(bases) == 0 {
		nb := *ob
		nb.Body = filtered
		nb.FromOverride = file
		body.Blocks = append(body.Blocks, &nb)
		return
	}
	base := bases[0]
	if old := base.Body.Attribute("ignore_changes"); old != nil && hcl.ExprAsKeyword(old.Expr) == "all" {
		filtered = filtered.without([]string{"ignore_changes"}, nil)
	}
	mergeBody(base.Body, filtered, file)
}
