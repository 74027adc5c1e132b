package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Terraform's override_resource, override_data and override_module blocks
// (internal/configs/mock_provider.go): a target that Terraform's
// addrs.ParseTarget accepts, of the kind the block overrides; the values
// are not evaluated while loading.

// terraformOverride is a decoded override block: its block type, the
// target's canonical address ("" when invalid) and its header range.
type terraformOverride struct {
	blockType string
	target    string
	rng       hcl.Range
}

// overrideSet is the override blocks of one scope by target.
type overrideSet map[string]hcl.Range

// add records o, or reports that its target is already overridden.
func (s overrideSet) add(o terraformOverride, diags hcl.Diagnostics) hcl.Diagnostics {
	if o.target == "" {
		return diags
	}
	if prev, ok := s[o.target]; ok {
		return append(diags, errorDiag(fmt.Sprintf("Duplicate %s block", o.blockType), fmt.Sprintf("An %s block targeting %s has already been defined at %s.", o.blockType, o.target, prev), o.rng.Ptr()))
	}
	s[o.target] = o.rng
	return diags
}

// targetKind is what a Terraform target address names.
type targetKind int

const (
	targetModule targetKind = iota
	targetManaged
	targetData
	targetOther // ephemeral and list resources
)

func decodeTerraformOverride(block *hcl.Block) (terraformOverride, hcl.Diagnostics) {
	o := terraformOverride{blockType: block.Type, rng: block.DefRange}
	values := "values"
	if block.Type == "override_module" {
		values = "outputs"
	}
	content, diags := bodyContent(block.Body, &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "target"}, {Name: "override_during"}, {Name: values}}})
	if content == nil {
		return o, diags
	}
	var kind targetKind
	var targetRange hcl.Range
	if attr, ok := content.Attributes["target"]; ok {
		targetRange = attr.Range
		tr, trDiags := hcl.AbsTraversalForExpr(attr.Expr)
		diags = append(diags, trDiags...)
		if tr != nil {
			var d hcl.Diagnostics
			o.target, kind, d = parseTerraformTarget(tr)
			diags = append(diags, d...)
		}
	} else {
		diags = append(diags, errorDiag("Missing target attribute", fmt.Sprintf("%s blocks must specify a target address.", block.Type), block.DefRange.Ptr()))
	}
	diags = append(diags, checkOverrideDuring(content)...)
	if o.target == "" {
		return o, diags
	}
	want, what := targetManaged, "resources"
	switch block.Type {
	case "override_module":
		want, what = targetModule, "modules"
	case "override_data":
		want, what = targetData, "data sources"
	}
	if kind != want {
		diags = append(diags, errorDiag("Invalid override target", fmt.Sprintf("You can only target %s from %s blocks, not %s.", what, block.Type, o.target), targetRange.Ptr()))
		o.target = ""
	}
	return o, diags
}

// parseTerraformTarget is Terraform's addrs.ParseTarget: a module instance
// path, optionally followed by a resource or resource instance. It returns
// the target's canonical address ("" on error) and its kind.
func parseTerraformTarget(tr hcl.Traversal) (string, targetKind, hcl.Diagnostics) {
	_, remain, diags := moduleInstancePrefix(tr)
	if diags.HasErrors() {
		return "", 0, diags
	}
	module := traversalString(tr[:len(tr)-len(remain)])
	if len(remain) == 0 {
		return module, targetModule, diags
	}
	res, kind, d := parseTerraformResourceInstance(remain)
	diags = append(diags, d...)
	if d.HasErrors() {
		return "", 0, diags
	}
	if module != "" {
		res = module + "." + res
	}
	return res, kind, diags
}

// parseTerraformResourceInstance reads [MODE.]TYPE.NAME[KEY] as Terraform
// does (an optional "resource." prefix; reserved root names refused).
func parseTerraformResourceInstance(remain hcl.Traversal) (string, targetKind, hcl.Diagnostics) {
	kind, prefix, typeDetail := targetManaged, "", "A resource type name is required."
	root, _ := stepName(remain[0])
	switch root {
	case "data":
		kind, prefix, typeDetail, remain = targetData, "data.", "A data source name is required.", remain[1:]
	case "ephemeral":
		kind, prefix, typeDetail, remain = targetOther, "ephemeral.", "An ephemeral resource type name is required.", remain[1:]
	case "list":
		kind, prefix, typeDetail, remain = targetOther, "list.", "A list resource type name is required.", remain[1:]
	case "resource":
		remain = remain[1:]
	case "count", "each", "local", "module", "path", "self", "terraform", "var", "template", "lazy", "arg":
		return "", 0, addrError("Invalid address", fmt.Sprintf("The keyword %q is reserved and cannot be used to target a resource address. If you are targeting a resource type that uses a reserved keyword, please prefix your address with \"resource.\".", root), remain.SourceRange())
	}
	if len(remain) < 2 {
		return "", 0, addrError("Invalid address", "Resource specification must include a resource type and name.", remain.SourceRange())
	}
	typ, ok := stepName(remain[0])
	if !ok {
		return "", 0, addrError("Invalid address", typeDetail, remain[0].SourceRange())
	}
	name, ok := remain[1].(hcl.TraverseAttr)
	if !ok {
		return "", 0, addrError("Invalid address", "A resource name is required.", remain[1].SourceRange())
	}
	addr := prefix + typ + "." + name.Name
	switch rest := remain[2:]; len(rest) {
	case 0:
		return addr, kind, nil
	case 1:
		idx, ok := rest[0].(hcl.TraverseIndex)
		if !ok {
			return "", 0, addrError("Invalid address", "Resource instance key must be given in square brackets.", rest[0].SourceRange())
		}
		if err := checkInstanceKey(idx.Key); err != nil {
			return "", 0, addrError("Invalid address", fmt.Sprintf("Invalid resource instance key: %s.", err), rest[0].SourceRange())
		}
		if idx.Key.Type() == cty.String {
			return addr + "[" + fmt.Sprintf("%q", idx.Key.AsString()) + "]", kind, nil
		}
		return addr + "[" + ctyKeyString(idx.Key) + "]", kind, nil
	default:
		return "", 0, addrError("Invalid address", "Unexpected extra operators after address.", rest[1].SourceRange())
	}
}
