package backend

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Prepare makes the checks of a backend's own settings that the products
// make before they configure it and that need no network, in their
// words, each pointing at the argument in block or, when it is not
// written there, at the block: for the remote backend (both products
// alike), a non-empty organization and exactly one of the workspaces'
// name and prefix. Other types are not checked here.
func Prepare(block *Block, s *Settings) hcl.Diagnostics {
	if s == nil || s.Type != "remote" || s.Config.IsNull() || !s.Config.Type().IsObjectType() {
		return nil
	}
	var diags hcl.Diagnostics
	if org := attrOf(s.Config, "organization"); org == "" {
		diags = append(diags, prepareError(block, "organization", "Invalid organization value", `The "organization" attribute value must not be empty.`))
	}
	var name, prefix string
	if ws := s.Config.GetAttr("workspaces"); !ws.IsNull() && ws.Type().IsObjectType() {
		name, prefix = attrOf(ws, "name"), attrOf(ws, "prefix")
	}
	switch {
	case name == "" && prefix == "":
		diags = append(diags, prepareError(block, "workspaces", "Invalid workspaces configuration", `Either workspace "name" or "prefix" is required.`))
	case name != "" && prefix != "":
		diags = append(diags, prepareError(block, "workspaces", "Invalid workspaces configuration", `Only one of workspace "name" or "prefix" is allowed.`))
	}
	return diags
}

// attrOf is an object's known string attribute, or "".
func attrOf(obj cty.Value, name string) string {
	if !obj.Type().HasAttribute(name) {
		return ""
	}
	v := obj.GetAttr(name)
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}

// prepareError is an error about the argument name of block: its value's
// range when the block sets it as an argument, else the block's body.
func prepareError(block *Block, name, summary, detail string) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
	if block == nil || block.Body == nil {
		return d
	}
	rng := block.Body.MissingItemRange()
	if content, _, _ := block.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: name}}}); content != nil {
		if a, ok := content.Attributes[name]; ok {
			rng = a.Expr.Range()
		}
	}
	d.Subject = &rng
	return d
}
