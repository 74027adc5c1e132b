package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

var checkBlockSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "assert"},
	},
}

func decodeCheckBlock(block *hcl.Block) (*Check, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	c := &Check{Name: block.Labels[0], DeclRange: block.DefRange, Syntax: newSyntaxBlock(block, checkShape)}
	if !hclsyntax.ValidIdentifier(c.Name) {
		diags = append(diags, errorDiag("Invalid check block name", badIdentifierDetail, &block.LabelRanges[0]))
	}
	content, moreDiags := bodyContent(block.Body, checkBlockSchema)
	diags = append(diags, moreDiags...)
	if content == nil {
		return c, diags
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "data":
			if c.DataResource != nil {
				diags = append(diags, errorDiag("Multiple data resource blocks", fmt.Sprintf("This check block already has a data resource defined at %s.", c.DataResource.DeclRange.Ptr()), b.DefRange.Ptr()))
				continue
			}
			r, rDiags := decodeResource(b, DataResourceMode, false, true)
			diags = append(diags, rDiags...)
			r.Container = c.Name
			// Share the nested block between the check and the data source so
			// a data override shows inside the check.
			for i, sb := range c.Syntax.Body.Blocks {
				if sb.Type == "data" && sb.DefRange == r.Syntax.DefRange {
					c.Syntax.Body.Blocks[i] = r.Syntax
				}
			}
			c.DataResource = r
		case "assert":
			cr, crDiags := decodeCheckRuleBlock(b)
			diags = append(diags, crDiags...)
			c.Asserts = append(c.Asserts, cr)
		}
	}
	if len(c.Asserts) == 0 {
		diags = append(diags, errorDiag("Zero assert blocks", "Check blocks must have at least one assert block.", c.DeclRange.Ptr()))
	}
	return c, diags
}

var importBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "provider"},
		{Name: "for_each"},
		{Name: "id"},
		{Name: "identity"},
		{Name: "to", Required: true},
	},
}

func decodeImportBlock(block *hcl.Block) (*Import, hcl.Diagnostics) {
	imp := &Import{DeclRange: block.DefRange, Syntax: newSyntaxBlock(block, importShape)}
	content, diags := bodyContent(block.Body, importBlockSchema)
	if content == nil {
		return imp, diags
	}
	if attr, ok := content.Attributes["id"]; ok {
		imp.ID = attr.Expr
	}
	if attr, ok := content.Attributes["identity"]; ok {
		imp.Identity = attr.Expr
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		imp.ForEach = attr.Expr
	}
	if attr, ok := content.Attributes["provider"]; ok {
		ref, refDiags := decodeProviderConfigRef(attr.Expr, "provider")
		diags = append(diags, refDiags...)
		imp.ProviderConfigRef = ref
	}
	if attr, ok := content.Attributes["to"]; ok {
		imp.To = attr.Expr
		expr, _ := shimTraversalInString(attr.Expr)
		tr, trDiags := hcl.AbsTraversalForExpr(expr)
		if !trDiags.HasErrors() {
			typ, static := importTarget(tr)
			imp.ToType = typ
			if static && imp.ForEach == nil {
				imp.ResolvedTo = traversalString(tr)
			}
		} else if typ := importTargetFromExpr(attr.Expr); typ != "" {
			imp.ToType = typ
		}
	}
	return imp, diags
}

// importTarget finds the resource type in an import target traversal
// (module.a["k"].aws_instance.x[0]) and whether it has only constant keys.
func importTarget(tr hcl.Traversal) (string, bool) {
	var names []string
	for _, step := range tr {
		switch st := step.(type) {
		case hcl.TraverseRoot:
			names = append(names, st.Name)
		case hcl.TraverseAttr:
			names = append(names, st.Name)
		}
	}
	i := 0
	for i+1 < len(names) && names[i] == "module" {
		i += 2
	}
	if i < len(names) && names[i] == "data" {
		i++
	}
	if i >= len(names) {
		return "", false
	}
	return names[i], true
}

// importTargetFromExpr handles targets with dynamic keys.
func importTargetFromExpr(expr hcl.Expression) string {
	for _, tr := range expr.Variables() {
		if typ, _ := importTarget(tr); typ != "" {
			return typ
		}
	}
	return ""
}

var movedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "from", Required: true},
		{Name: "to", Required: true},
	},
}

func decodeMovedBlock(block *hcl.Block) (*Moved, hcl.Diagnostics) {
	m := &Moved{DeclRange: block.DefRange, Syntax: newSyntaxBlock(block, movedShape)}
	content, diags := bodyContent(block.Body, movedBlockSchema)
	if content == nil {
		return m, diags
	}
	if attr, ok := content.Attributes["from"]; ok {
		m.From = attr.Expr
	}
	if attr, ok := content.Attributes["to"]; ok {
		m.To = attr.Expr
	}
	return m, diags
}

var removedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "provisioner", LabelNames: []string{"type"}},
	},
}

func decodeRemovedBlock(block *hcl.Block) (*Removed, hcl.Diagnostics) {
	r := &Removed{DeclRange: block.DefRange, Syntax: newSyntaxBlock(block, removedShape)}
	content, diags := bodyContent(block.Body, removedBlockSchema)
	if content == nil {
		return r, diags
	}
	if attr, ok := content.Attributes["from"]; ok {
		r.From = attr.Expr
	}
	seenLifecycle := false
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			seenLifecycle = true
			lc, lcDiags := bodyContent(b.Body, &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "destroy"}}})
			diags = append(diags, lcDiags...)
			if lc != nil {
				if attr, ok := lc.Attributes["destroy"]; ok {
					r.Destroy = attr.Expr
				}
			}
		case "provisioner":
			_, pvDiags := decodeProvisionerBlock(b)
			diags = append(diags, pvDiags...)
		}
	}
	if !seenLifecycle {
		diags = append(diags, warningDiag("Missing lifecycle from the removed block", "It is recommended for each 'removed' block configured to have also the 'lifecycle' block defined. By not specifying if the resource should be destroyed or not, could lead to unwanted behavior.", block.DefRange.Ptr()))
	}
	return r, diags
}
