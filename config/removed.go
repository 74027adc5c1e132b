package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/tfdeps/tfdeps/flavour"
)

var removedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "provisioner", LabelNames: []string{"type"}},
	},
}

// decodeRemovedBlock decodes a removed block as flavour f does.
func decodeRemovedBlock(block *hcl.Block, f flavour.Flavour) (*Removed, hcl.Diagnostics) {
	if f == flavour.Terraform {
		return decodeTerraformRemovedBlock(block)
	}
	r := &Removed{DeclRange: block.DefRange, Syntax: newSyntaxBlock(block, removedShape)}
	content, diags := bodyContent(block.Body, removedBlockSchema)
	if content == nil {
		return r, diags
	}
	var fromModule bool
	if attr, ok := content.Attributes["from"]; ok {
		r.From = attr.Expr
		tr, trDiags := hcl.AbsTraversalForExpr(attr.Expr)
		diags = append(diags, trDiags...)
		if !trDiags.HasErrors() {
			ep, epDiags := parseRemoveEndpoint(tr)
			diags = append(diags, epDiags...)
			fromModule = ep != nil && ep.Module
		}
	}
	var seenLifecycle *hcl.Block
	var destroy, destroySet bool
	var provisioners int
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			if seenLifecycle != nil {
				diags = append(diags, errorDiag("Duplicate lifecycle block", fmt.Sprintf("The removed block already has a lifecycle block at %s.", seenLifecycle.DefRange), &b.DefRange))
				continue
			}
			seenLifecycle = b
			lc, lcDiags := bodyContent(b.Body, &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "destroy"}}})
			diags = append(diags, lcDiags...)
			if lc == nil {
				continue
			}
			if attr, ok := lc.Attributes["destroy"]; ok {
				r.Destroy = attr.Expr
				diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &destroy)...)
				destroySet = true
			}
		case "provisioner":
			pv, pvDiags := decodeProvisionerBlock(b, f)
			diags = append(diags, pvDiags...)
			switch {
			case pv == nil:
			case pv.When != "destroy":
				diags = append(diags, errorDiag(`Invalid "removed.provisioner" block`, `"removed" blocks can only contain destroy provisioners. "removed.provisioner.when = destroy" expected`, &b.DefRange))
			case fromModule:
				diags = append(diags, errorDiag(`Invalid "removed" block`, `"removed" blocks containing "provisioner"s can only target resources. Found one block that is targeting a module`, &block.DefRange))
			default:
				provisioners++
			}
		}
	}
	if !diags.HasErrors() {
		if !destroySet {
			diags = append(diags, warningDiag("Missing lifecycle from the removed block", "It is recommended for each 'removed' block configured to have also the 'lifecycle' block defined. By not specifying if the resource should be destroyed or not, could lead to unwanted behavior.", block.DefRange.Ptr()))
		} else if !destroy && provisioners > 0 {
			diags = append(diags, warningDiag("Removed block provisioners will not be executed", "The 'removed' block has marked the resource to be forgotten and not destroyed. Therefore, the provisioners configured for it will not be executed.", block.DefRange.Ptr()))
		}
	}
	return r, diags
}
