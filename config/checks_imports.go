package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
)

var checkBlockSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "assert"},
	},
}

func decodeCheckBlock(block *hcl.Block) (*Check, hcl.Diagnostics) {
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
			r, rDiags := decodeResource(b, DataResourceMode, false, true)
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

func decodeImportBlock(block *hcl.Block) (*Import, hcl.Diagnostics) {
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
			native, convDiags := jsonExprAsNative(to)
			diags = append(diags, convDiags...)
			if diags.HasErrors() {
				return imp, diags
			}
			to = native
		}
		imp.To = to
		tr, trDiags := importToTraversal(to)
		diags = append(diags, trDiags...)
		if trDiags.HasErrors() {
			return imp, diags
		}
		inModule = tr.RootName() == "module"
		typ, static := importTarget(tr)
		imp.ToType = typ
		if abs, absDiags := hcl.AbsTraversalForExpr(to); !absDiags.HasErrors() && static {
			imp.ResolvedTo = traversalString(abs)
		}
	}
	if attr, ok := content.Attributes["provider"]; ok {
		if inModule {
			diags = append(diags, errorDiag("Invalid import provider argument", "The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the providers argument within the module block to configure providers for all resources within a module, including imported resources.", attr.Range.Ptr()))
		}
		ref, refDiags := decodeProviderConfigRef(attr.Expr, "provider")
		diags = append(diags, refDiags...)
		imp.ProviderConfigRef = ref
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		imp.ForEach = attr.Expr
		imp.ResolvedTo = ""
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

// importToTraversal is the static part of an import target: the traversal
// with dynamic index keys dropped.
func importToTraversal(expr hcl.Expression) (hcl.Traversal, hcl.Diagnostics) {
	switch e := expr.(type) {
	case *hclsyntax.IndexExpr:
		return importToTraversal(e.Collection)
	case *hclsyntax.RelativeTraversalExpr:
		tr, diags := importToTraversal(e.Source)
		return append(tr, e.Traversal...), diags
	case *hclsyntax.ScopeTraversalExpr:
		return append(hcl.Traversal{}, e.Traversal...), nil
	}
	return nil, hcl.Diagnostics{errorDiag("Invalid import address expression", "Import address must be a reference to a resource's address, and only allows for indexing with dynamic keys. For example: module.my_module[expression1].aws_s3_bucket.my_buckets[expression2] for resources inside of modules, or simply aws_s3_bucket.my_bucket for a resource in the root module", expr.Range().Ptr())}
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
	var fromModule bool
	if attr, ok := content.Attributes["from"]; ok {
		r.From = attr.Expr
		tr, trDiags := hcl.AbsTraversalForExpr(attr.Expr)
		diags = append(diags, trDiags...)
		fromModule = !trDiags.HasErrors() && isModuleTraversal(tr)
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
			pv, pvDiags := decodeProvisionerBlock(b)
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

// isModuleTraversal reports whether tr addresses a module (module.a,
// module.a["k"].module.b) rather than a resource.
func isModuleTraversal(tr hcl.Traversal) bool {
	i := 0
	for i < len(tr) {
		name := ""
		switch st := tr[i].(type) {
		case hcl.TraverseRoot:
			name = st.Name
		case hcl.TraverseAttr:
			name = st.Name
		}
		if name != "module" || i+1 >= len(tr) {
			return false
		}
		if _, ok := tr[i+1].(hcl.TraverseAttr); !ok {
			return false
		}
		i += 2
		if i < len(tr) {
			if _, ok := tr[i].(hcl.TraverseIndex); ok {
				i++
			}
		}
	}
	return len(tr) > 0
}
