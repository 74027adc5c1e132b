package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// CheckJSON reports what RenderJSON cannot write with the same meaning.
//
// OpenTofu decodes some bodies (resource, data, ephemeral, module, provider
// and provisioner blocks) with a partial schema and leaves the rest to the
// provider or module. In native syntax such a body may hold an argument
// named like one of the schema's nested block types (lifecycle = 0 in a
// resource), or a nested block named like one of its arguments (count { }),
// and OpenTofu loads it. In JSON syntax a property is read by the schema:
// the argument would become a block, the block an argument, so no JSON
// document means the same. Each such argument or block is an error here,
// at its location; the configuration can still be rendered natively.
func (d *Document) CheckJSON() hcl.Diagnostics {
	if d == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, b := range d.Blocks {
		diags = append(diags, checkJSONBlock(b, nil, d.flavour)...)
	}
	return diags
}

func checkJSONBlock(b *Block, path []string, f flavour.Flavour) hcl.Diagnostics {
	if b == nil || b.Body == nil {
		return nil
	}
	path = append(path[:len(path):len(path)], b.Type)
	var diags hcl.Diagnostics
	if schema := partialSchema(path); schema != nil {
		where := strings.Join(path, ".")
		for _, a := range b.Body.Attributes {
			if a != nil && schemaHasBlock(schema, a.Name) {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Argument cannot be written in JSON syntax",
					Detail: fmt.Sprintf("The argument %q of this %s block has the name of a nested block type: in JSON syntax, %s reads the property %q as a %q block, so no JSON document has the same meaning. Show this configuration in native syntax (without -json).",
						a.Name, where, f.Product(), a.Name, a.Name),
					Subject: a.NameRange.Ptr(),
				})
			}
		}
		for _, nb := range b.Body.Blocks {
			if nb != nil && schemaHasAttribute(schema, nb.Type) {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Block cannot be written in JSON syntax",
					Detail: fmt.Sprintf("The nested block %q of this %s block has the name of an argument: in JSON syntax, %s reads the property %q as the %q argument, so no JSON document has the same meaning. Show this configuration in native syntax (without -json).",
						nb.Type, where, f.Product(), nb.Type, nb.Type),
					Subject: nb.DefRange.Ptr(),
				})
			}
		}
	}
	for _, nb := range b.Body.Blocks {
		diags = append(diags, checkJSONBlock(nb, path, f)...)
	}
	return diags
}

// partialSchema is the schema OpenTofu decodes the body of the block at path
// with when it keeps what the schema does not name (PartialContent), or nil
// where it decodes strictly or not at all. Strictly decoded bodies cannot
// hold a misnamed argument or block: loading them fails already.
func partialSchema(path []string) *hcl.BodySchema {
	switch strings.Join(path, ".") {
	case "resource", "ephemeral":
		return resourceBlockSchema
	case "data", "check.data":
		return dataBlockSchema
	case "module":
		return moduleBlockSchema
	case "provider":
		return providerBlockSchema
	case "resource.provisioner", "removed.provisioner":
		return provisionerBlockSchema
	}
	return nil
}

func schemaHasBlock(s *hcl.BodySchema, name string) bool {
	for _, b := range s.Blocks {
		if b.Type == name {
			return true
		}
	}
	return false
}

func schemaHasAttribute(s *hcl.BodySchema, name string) bool {
	for _, a := range s.Attributes {
		if a.Name == name {
			return true
		}
	}
	return false
}
