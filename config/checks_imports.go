package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"

	"github.com/tfdeps/tfdeps/flavour"
)

var checkBlockSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "assert"},
	},
}

func decodeCheckBlock(block *hcl.Block, f flavour.Flavour) (*Check, hcl.Diagnostics) {
	c := &Check{Name: block.Labels[0], DeclRange: block.DefRange, Syntax: newSyntaxBlock(block, checkShape)}
	content, diags := bodyContent(block.Body, checkBlockSchema)
	if !hclsyntax.ValidIdentifier(c.Name) {
		diags = append(diags, errorDiag("Invalid check block name", badIdentifierDetail, &block.LabelRanges[0]))
	}
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
			r, rDiags := decodeResource(b, DataResourceMode, false, true, f)
			diags = append(diags, rDiags...)
			if rDiags.HasErrors() {
				continue
			}
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
			cr, crDiags := decodeCheckRuleBlock(b, false)
			diags = append(diags, crDiags...)
			if !crDiags.HasErrors() {
				c.Asserts = append(c.Asserts, cr)
			}
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

// decodeImportBlock decodes an import block. The Terraform flavour words
// the id and identity errors as Terraform does and refuses a target that is
// not a managed resource.
func decodeImportBlock(block *hcl.Block, f flavour.Flavour) (*Import, hcl.Diagnostics) {
	imp := &Import{DeclRange: block.DefRange, Syntax: newSyntaxBlock(block, importShape)}
	content, diags := bodyContent(block.Body, importBlockSchema)
	if content == nil {
		return imp, diags
	}
	idAttr, hasID := content.Attributes["id"]
	identityAttr, hasIdentity := content.Attributes["identity"]
	if hasID {
		imp.ID = idAttr.Expr
	}
	if hasIdentity {
		imp.Identity = identityAttr.Expr
	}
	var inModule bool
	if attr, ok := content.Attributes["to"]; ok {
		to := attr.Expr
		if hcljson.IsJSONExpression(to) {
			native, convDiags := jsonReferenceAsNative(to, f)
			diags = append(diags, convDiags...)
			if diags.HasErrors() {
				return imp, diags
			}
			to = native
		}
		imp.To = to
		tr, trDiags := importToTraversal(to, f)
		if !trDiags.HasErrors() {
			trDiags = append(trDiags, checkImportTarget(tr)...)
		}
		diags = append(diags, trDiags...)
		if f == flavour.Terraform && (trDiags.HasErrors() || !importsManaged(tr)) {
			// Terraform reads an invalid target as no resource at all, and
			// goes on checking the block.
			diags = append(diags, errorDiag("Invalid import address", "Only managed resources can be imported.", attr.Range.Ptr()))
		}
		if trDiags.HasErrors() {
			if f != flavour.Terraform {
				return imp, diags
			}
		} else {
			inModule = tr.RootName() == "module"
			imp.toResource = strings.Join(traversalNames(tr), ".")
			typ, static := importTarget(tr)
			imp.ToType = typ
			if !inModule {
				imp.StaticTo = importStaticKey(tr)
			}
			if abs, absDiags := hcl.AbsTraversalForExpr(to); !absDiags.HasErrors() && static {
				imp.ResolvedTo = traversalString(abs)
			}
		}
	}
	if attr, ok := content.Attributes["provider"]; ok {
		if inModule {
			diags = append(diags, errorDiag("Invalid import provider argument", "The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the providers argument within the module block to configure providers for all resources within a module, including imported resources.", attr.Range.Ptr()))
		}
		ref, refDiags := decodeProviderConfigRef(attr.Expr, "provider", f)
		diags = append(diags, refDiags...)
		imp.ProviderConfigRef = ref
		imp.ProviderDeclRange = attr.Range
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		imp.ForEach = attr.Expr
		imp.ResolvedTo = ""
	}
	if f == flavour.Terraform {
		return imp, append(diags, terraformImportArguments(block, hasID, hasIdentity)...)
	}
	if !hasID && !hasIdentity {
		diags = append(diags, errorDiag("Missing required import argument", "One of 'id' or 'identity' must be specified in an import block to identify the resource instance to import.", block.DefRange.Ptr()))
	}
	if hasID && hasIdentity {
		first, last := idAttr.Range, identityAttr.Range
		if last.Start.Byte < first.Start.Byte {
			first, last = last, first
		}
		diags = append(diags, errorDiag("Conflicting import arguments", "Only one of 'id' or 'identity' can be specified in an import block. 'id' identifies the resource instance by its ID, while 'identity' identifies the resource instance by its Resource Identity. Choose one method to identify the resource instance to import.", hcl.RangeBetween(first, last).Ptr()))
	}
	return imp, diags
}

// terraformImportArguments is Terraform's check that an import block has
// one of id and identity.
func terraformImportArguments(block *hcl.Block, hasID, hasIdentity bool) hcl.Diagnostics {
	switch {
	case !hasID && !hasIdentity:
		return hcl.Diagnostics{errorDiag("Invalid import block", "At least one of 'id' or 'identity' must be specified.", block.DefRange.Ptr())}
	case hasID && hasIdentity:
		return hcl.Diagnostics{errorDiag("Invalid import block", "Only one of 'id' or 'identity' can be specified.", block.DefRange.Ptr())}
	}
	return nil
}

// importsManaged tells whether an import target traversal names a managed
// resource (not a data or ephemeral resource).
func importsManaged(tr hcl.Traversal) bool {
	names := traversalNames(tr)
	i := 0
	for i+1 < len(names) && names[i] == "module" {
		i += 2
	}
	return i >= len(names) || (names[i] != "data" && names[i] != "ephemeral")
}

// checkImportTarget is OpenTofu's ParseAbsResourceInstance on the static
// part of an import target: it must address a resource (instance).
func checkImportTarget(tr hcl.Traversal) hcl.Diagnostics {
	ep, diags := parseMoveEndpoint(tr)
	if ep != nil && ep.Module {
		diags = append(diags, errorDiag("Invalid address", "A resource instance address is required here. The module path must be followed by a resource instance specification.", tr.SourceRange().Ptr()))
	}
	return diags
}

// importToTraversal is the static part of an import target: the traversal
// with dynamic index keys dropped.
// Terraform reads any other expression as a static traversal, with hcl's
// error.
func importToTraversal(expr hcl.Expression, f flavour.Flavour) (hcl.Traversal, hcl.Diagnostics) {
	switch e := expr.(type) {
	case *hclsyntax.IndexExpr:
		return importToTraversal(e.Collection, f)
	case *hclsyntax.RelativeTraversalExpr:
		tr, diags := importToTraversal(e.Source, f)
		return append(tr, e.Traversal...), diags
	case *hclsyntax.ScopeTraversalExpr:
		return append(hcl.Traversal{}, e.Traversal...), nil
	}
	if f == flavour.Terraform {
		return hcl.AbsTraversalForExpr(expr)
	}
	return nil, hcl.Diagnostics{errorDiag("Invalid import address expression", "Import address must be a reference to a resource's address, and only allows for indexing with dynamic keys. For example: module.my_module[expression1].aws_s3_bucket.my_buckets[expression2] for resources inside of modules, or simply aws_s3_bucket.my_bucket for a resource in the root module", expr.Range().Ptr())}
}

// traversalNames is the names of a traversal's root and attribute steps,
// its index steps left out.
func traversalNames(tr hcl.Traversal) []string {
	var names []string
	for _, step := range tr {
		switch st := step.(type) {
		case hcl.TraverseRoot:
			names = append(names, st.Name)
		case hcl.TraverseAttr:
			names = append(names, st.Name)
		}
	}
	return names
}

// importTarget finds the resource type in an import target traversal
// (module.a["k"].aws_instance.x[0]) and whether it has only constant keys.
func importTarget(tr hcl.Traversal) (string, bool) {
	names := traversalNames(tr)
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

// importStaticKey is the module-local key of the resource a root-relative
// import target traversal names (TYPE.NAME or data.TYPE.NAME), with its
// index steps ignored; "" when the traversal names no resource.
func importStaticKey(tr hcl.Traversal) string {
	names := traversalNames(tr)
	if len(names) >= 3 && names[0] == "data" {
		return "data." + names[1] + "." + names[2]
	}
	if len(names) >= 2 && names[0] != "data" {
		return names[0] + "." + names[1]
	}
	return ""
}
