package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/tfdeps/tfdeps/flavour"
)

// terraformRemovedBlockSchema is a removed block as Terraform v1.15 reads
// it: with connection blocks, and no check for duplicate lifecycle blocks.
var terraformRemovedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "connection"},
		{Type: "provisioner", LabelNames: []string{"type"}},
	},
}

// decodeTerraformRemovedBlock decodes a removed block as Terraform does:
// connection and provisioner blocks only for a managed resource target,
// provisioners only at destroy time, and no warning about a missing
// lifecycle block.
func decodeTerraformRemovedBlock(block *hcl.Block) (*Removed, hcl.Diagnostics) {
	r := &Removed{DeclRange: block.DefRange, Syntax: newSyntaxBlock(block, removedShape)}
	content, diags := bodyContent(block.Body, terraformRemovedBlockSchema)
	if content == nil {
		return r, diags
	}
	var managed bool
	if attr, ok := content.Attributes["from"]; ok {
		r.From = attr.Expr
		tr, trDiags := hcl.AbsTraversalForExpr(attr.Expr)
		diags = append(diags, trDiags...)
		if !trDiags.HasErrors() {
			var d hcl.Diagnostics
			managed, d = parseTerraformRemoveTarget(tr)
			diags = append(diags, d...)
		}
	}
	var seenConnection *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			lc, lcDiags := bodyContent(b.Body, &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "destroy"}}})
			diags = append(diags, lcDiags...)
			if lc == nil {
				continue
			}
			if attr, ok := lc.Attributes["destroy"]; ok {
				r.Destroy = attr.Expr
				var destroy bool
				diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &destroy)...)
			}
		case "connection":
			switch {
			case !managed:
				diags = append(diags, errorDiag("Invalid connection block", "Provisioner connection configuration is valid only when a removed block targets a managed resource.", &b.DefRange))
			case seenConnection != nil:
				diags = append(diags, errorDiag("Duplicate connection block", fmt.Sprintf("This \"removed\" block already has a connection block at %s.", seenConnection.DefRange), &b.DefRange))
			default:
				seenConnection = b
			}
		case "provisioner":
			if !managed {
				diags = append(diags, errorDiag("Invalid provisioner block", "Provisioners are valid only when a removed block targets a managed resource.", &b.DefRange))
				continue
			}
			pv, pvDiags := decodeProvisionerBlock(b, flavour.Terraform)
			diags = append(diags, pvDiags...)
			if pv != nil && pv.When != "destroy" {
				diags = append(diags, errorDiag("Invalid provisioner block", "Only destroy-time provisioners are valid in \"removed\" blocks. To declare a destroy-time provisioner, use:\n    when = destroy", &b.DefRange))
			}
		}
	}
	return r, diags
}

// parseTerraformRemoveTarget is Terraform's ParseRemoveTarget: a module or
// a resource without instance keys, not a data source. It tells whether
// the target is a managed resource.
func parseTerraformRemoveTarget(tr hcl.Traversal) (bool, hcl.Diagnostics) {
	_, remain, diags := modulePrefix(tr)
	if diags.HasErrors() || len(remain) == 0 {
		return false, diags
	}
	mode, d := terraformResourceUnderModule(remain)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return false, diags
	}
	if mode == DataResourceMode {
		diags = append(diags, addrError("Data source address not allowed", "Data sources are never destroyed, so they are not valid targets of removed blocks. To remove the data source from state, remove the data source block from configuration.", tr.SourceRange())...)
	}
	return mode == ManagedResourceMode, diags
}

// terraformResourceUnderModule is Terraform's resource address (no instance
// keys) after the module steps: TYPE.NAME or data.TYPE.NAME; Terraform
// knows no "ephemeral" mode here (it reads ephemeral as a type name). It
// returns the address's mode.
func terraformResourceUnderModule(remain hcl.Traversal) (ResourceMode, hcl.Diagnostics) {
	mode := ManagedResourceMode
	if remain.RootName() == "data" {
		mode, remain = DataResourceMode, remain[1:]
	}
	if len(remain) < 2 {
		return mode, addrError("Invalid address", "Resource specification must include a resource type and name.", remain.SourceRange())
	}
	if _, ok := stepName(remain[0]); !ok {
		detail := "A resource type name is required."
		if mode == DataResourceMode {
			detail = "A data source name is required."
		}
		return mode, addrError("Invalid address", detail, remain[0].SourceRange())
	}
	if _, ok := remain[1].(hcl.TraverseAttr); !ok {
		return mode, addrError("Invalid address", "A resource name is required.", remain[1].SourceRange())
	}
	if len(remain) > 2 {
		return mode, addrError("Resource instance keys not allowed", `Resource address must be a resource (e.g. "test_instance.foo"), not a resource instance (e.g. "test_instance.foo[1]").`, remain[2].SourceRange())
	}
	return mode, nil
}
