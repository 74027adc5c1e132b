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
	content, diags := bodyContent(block.Body, terraformBlockSchemaFor(file.flavour))
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
				Config:    inner.Body,
			})
		case "cloud":
			file.Clouds = append(file.Clouds, &Cloud{
				DeclRange: inner.DefRange,
				Syntax:    newSyntaxBlock(inner, emptyShape),
				Config:    inner.Body,
			})
		case "required_providers":
			rp, rpDiags := decodeRequiredProvidersBlock(inner, file.flavour)
			diags = append(diags, rpDiags...)
			if rp != nil {
				file.RequiredProviders = append(file.RequiredProviders, rp)
			}
		case "provider_meta":
			pm, pmDiags := decodeProviderMetaBlock(inner)
			diags = append(diags, pmDiags...)
			if pm != nil {
				file.ProviderMetas = append(file.ProviderMetas, pm)
			}
		case "state_store":
			// Terraform v1.15 reads state_store blocks only with language
			// experiments, which its releases do not allow.
			diags = append(diags, errorDiag("Unsupported block type", `Blocks of type "state_store" are not expected here.`, inner.TypeRange.Ptr()))
		case "encryption":
			enc, encDiags := decodeEncryptionBlock(inner)
			diags = append(diags, encDiags...)
			if enc != nil {
				file.Encryptions = append(file.Encryptions, enc)
			}
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

// decodeProviderMetaBlock decodes terraform { provider_meta "NAME" {} }: its
// arguments must be constants and NAME a normalized provider local name;
// otherwise there is no result.
func decodeProviderMetaBlock(block *hcl.Block) (*ProviderMeta, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	if diags.HasErrors() {
		return nil, diags
	}
	for _, attr := range sortedAttributes(attrs) {
		_, valDiags := attr.Expr.Value(nil)
		diags = append(diags, valDiags...)
	}
	if diags = append(diags, checkProviderNameNormalized(block.Labels[0], block.DefRange)...); diags.HasErrors() {
		return nil, diags
	}
	return &ProviderMeta{Provider: block.Labels[0], DeclRange: block.DefRange, Syntax: newSyntaxBlock(block, emptyShape)}, diags
}
