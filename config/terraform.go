package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	hcljson "github.com/hashicorp/hcl/v2/json"
)

func parseJSON(src []byte, name string) (*hcl.File, hcl.Diagnostics) {
	return hcljson.Parse(src, name)
}

var terraformBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "required_version"},
		{Name: "experiments"},
		{Name: "language"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "backend", LabelNames: []string{"type"}},
		{Type: "cloud"},
		{Type: "required_providers"},
		{Type: "provider_meta", LabelNames: []string{"provider"}},
		{Type: "encryption"},
	},
}

func (file *File) decodeTerraformBlock(block *hcl.Block) hcl.Diagnostics {
	file.TerraformBlocks = append(file.TerraformBlocks, &Block{Type: "terraform", DefRange: block.DefRange, Body: &Body{}})
	content, diags := bodyContent(block.Body, terraformBlockSchema)
	if content == nil {
		return diags
	}
	for _, inner := range content.Blocks {
		switch inner.Type {
		case "backend":
			file.Backends = append(file.Backends, &Backend{
				Type:      inner.Labels[0],
				DeclRange: inner.DefRange,
				TypeRange: inner.LabelRanges[0],
				Syntax:    newSyntaxBlock(inner, emptyShape),
			})
		case "cloud":
			file.Clouds = append(file.Clouds, &Cloud{
				DeclRange: inner.DefRange,
				Syntax:    newSyntaxBlock(inner, emptyShape),
			})
		case "required_providers":
			rp, rpDiags := decodeRequiredProvidersBlock(inner)
			diags = append(diags, rpDiags...)
			file.RequiredProviders = append(file.RequiredProviders, rp)
		case "provider_meta":
			file.ProviderMetas = append(file.ProviderMetas, &ProviderMeta{
				Provider:  inner.Labels[0],
				DeclRange: inner.DefRange,
				Syntax:    newSyntaxBlock(inner, emptyShape),
			})
		case "encryption":
			file.Encryptions = append(file.Encryptions, &Encryption{
				DeclRange: inner.DefRange,
				Syntax:    newSyntaxBlock(inner, encryptionShape),
			})
		}
	}
	return diags
}

// decodeExperiments reports error C26 for a language block's experiments:
// OpenTofu v1.12 has no active experiments. (terraform { experiments } is
// accepted and ignored.)
func decodeExperiments(attr *hcl.Attribute) hcl.Diagnostics {
	var diags hcl.Diagnostics
	exprs, listDiags := hcl.ExprList(attr.Expr)
	diags = append(diags, listDiags...)
	for _, expr := range exprs {
		kw := hcl.ExprAsKeyword(expr)
		if kw == "" {
			diags = append(diags, errorDiag("Invalid experiment keyword", `Elements of "experiments" must all be keywords representing active experiments.`, expr.Range().Ptr()))
			continue
		}
		diags = append(diags, errorDiag("Unknown experiment keyword", fmt.Sprintf("There is no current experiment with the keyword %q.", kw), expr.Range().Ptr()))
	}
	return diags
}
