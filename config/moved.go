package config

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

var movedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "from", Required: true},
		{Name: "to", Required: true},
	},
}

// decodeMovedBlock decodes a moved block: from and to must be module or
// resource addresses of the same kind, and (OpenTofu only) not ephemeral
// resources.
func decodeMovedBlock(block *hcl.Block, f flavour.Flavour) (*Moved, hcl.Diagnostics) {
	m := &Moved{DeclRange: block.DefRange, Syntax: newSyntaxBlock(block, movedShape)}
	content, diags := bodyContent(block.Body, movedBlockSchema)
	if content == nil {
		return m, diags
	}
	var from, to *endpoint
	if attr, ok := content.Attributes["from"]; ok {
		m.From = attr.Expr
		from, diags = decodeMoveEndpoint(attr.Expr, diags)
	}
	if attr, ok := content.Attributes["to"]; ok {
		m.To = attr.Expr
		to, diags = decodeMoveEndpoint(attr.Expr, diags)
	}
	if f != flavour.Terraform && !moveSubjectAllowed(from) {
		diags = append(diags, errorDiag(`Invalid "moved" address`, `The resource referenced by the "from" attribute is not allowed to be moved.`, &m.DeclRange))
	}
	if f != flavour.Terraform && !moveSubjectAllowed(to) {
		diags = append(diags, errorDiag(`Invalid "moved" address`, `The resource referenced by the "to" attribute is not allowed to be moved.`, &m.DeclRange))
	}
	if !diags.HasErrors() && from.Module != to.Module {
		diags = append(diags, errorDiag(`Invalid "moved" addresses`, `The "from" and "to" addresses must either both refer to resources or both refer to modules.`, &m.DeclRange))
	}
	return m, diags
}

func decodeMoveEndpoint(expr hcl.Expression, diags hcl.Diagnostics) (*endpoint, hcl.Diagnostics) {
	tr, trDiags := hcl.AbsTraversalForExpr(expr)
	diags = append(diags, trDiags...)
	if trDiags.HasErrors() {
		return nil, diags
	}
	ep, epDiags := parseMoveEndpoint(tr)
	return ep, append(diags, epDiags...)
}

// moveSubjectAllowed is false for a missing endpoint and for ephemeral
// resources.
func moveSubjectAllowed(ep *endpoint) bool {
	return ep != nil && (ep.Module || ep.Resource.Mode != EphemeralResourceMode)
}
