package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

var provisionerBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "when"},
		{Name: "on_failure"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "_"},
		{Type: "connection"},
		{Type: "lifecycle"},
	},
}

// removedProvisioners are the vendor provisioners OpenTofu no longer has.
var removedProvisioners = map[string]bool{"chef": true, "habitat": true, "puppet": true, "salt-masterless": true}

// decodeProvisionerBlock decodes a provisioner block of a resource or
// removed block. A removed provisioner type gives a nil provisioner.
func decodeProvisionerBlock(block *hcl.Block, f flavour.Flavour) (*Provisioner, hcl.Diagnostics) {
	pv := &Provisioner{Type: block.Labels[0], DeclRange: block.DefRange, When: "create", OnFailure: "fail"}
	content, config, diags := block.Body.PartialContent(provisionerBlockSchema)
	if removedProvisioners[pv.Type] {
		detail := fmt.Sprintf("The %q provisioner is deprecated and has been removed from %s.", pv.Type, f.Product())
		if f == flavour.Terraform {
			detail = fmt.Sprintf("The %q provisioner was deprecated in Terraform 0.13.4 has been removed from Terraform. Visit https://learn.hashicorp.com/collections/terraform/provision for alternatives to using provisioners that are a better fit for the Terraform workflow.", pv.Type)
		}
		return nil, append(diags, errorDiag(fmt.Sprintf("The %q provisioner has been removed", pv.Type), detail, &block.LabelRanges[0]))
	}
	if content == nil {
		return pv, diags
	}
	if attr, ok := content.Attributes["when"]; ok {
		expr, shimDiags := shimTraversalInString(attr.Expr, true, f)
		diags = append(diags, shimDiags...)
		switch kw := hcl.ExprAsKeyword(expr); kw {
		case "create", "destroy":
			pv.When = kw
		default:
			diags = append(diags, errorDiag("Invalid \"when\" keyword", "The \"when\" argument requires one of the following keywords: create or destroy.", expr.Range().Ptr()))
		}
	}
	if pv.When == "destroy" {
		diags = append(diags, onlySelfRefs(config)...)
	}
	if attr, ok := content.Attributes["on_failure"]; ok {
		expr, shimDiags := shimTraversalInString(attr.Expr, true, f)
		diags = append(diags, shimDiags...)
		switch kw := hcl.ExprAsKeyword(expr); kw {
		case "continue", "fail":
			pv.OnFailure = kw
		default:
			diags = append(diags, errorDiag("Invalid \"on_failure\" keyword", "The \"on_failure\" argument requires one of the following keywords: continue or fail.", attr.Expr.Range().Ptr()))
		}
	}
	var seenConnection, seenEscape *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "_":
			if seenEscape != nil {
				diags = append(diags, duplicateEscapingBlock("provisioner-type-specific", "provisioner", seenEscape, b))
				continue
			}
			seenEscape = b
		case "connection":
			if seenConnection != nil {
				diags = append(diags, errorDiag("Duplicate connection block", fmt.Sprintf("This provisioner already has a connection block at %s.", seenConnection.DefRange), &b.DefRange))
				continue
			}
			seenConnection = b
			if pv.When == "destroy" {
				diags = append(diags, onlySelfRefs(b.Body)...)
			}
			pv.Connection = &Connection{DeclRange: b.DefRange, body: b.Body}
		default:
			diags = append(diags, reservedBlockName("provisioner", b, f))
		}
	}
	return pv, diags
}

const destroyRefDetail = "Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\nReferences to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy."

// onlySelfRefs reports references a destroy-time provisioner may not make:
// anything but self, path, terraform, tofu, count.index and each.key.
// Arguments are checked in source order (OpenTofu: map order).
func onlySelfRefs(body hcl.Body) hcl.Diagnostics {
	var diags hcl.Diagnostics
	attrs, _ := body.JustAttributes()
	for _, attr := range sortedAttributes(attrs) {
		for _, tr := range attr.Expr.Variables() {
			if !selfRefAllowed(tr) {
				diags = append(diags, errorDiag("Invalid reference from destroy provisioner", destroyRefDetail, attr.Expr.Range().Ptr()))
			}
		}
	}
	return diags
}

func selfRefAllowed(tr hcl.Traversal) bool {
	switch tr.RootName() {
	case "self", "path", "terraform", "tofu":
		return true
	case "count", "each":
		want := map[string]string{"count": "index", "each": "key"}[tr.RootName()]
		if len(tr) == 2 {
			if a, ok := tr[1].(hcl.TraverseAttr); ok && a.Name == want {
				return true
			}
		}
	}
	return false
}

// decodeReplaceTriggeredBy reads lifecycle replace_triggered_by: each
// element must refer to exactly one resource, with only count.index and
// each.key besides.
func decodeReplaceTriggeredBy(expr hcl.Expression, f flavour.Flavour) ([]hcl.Expression, hcl.Diagnostics) {
	isJSON := isJSONExpression(expr)
	exprs, diags := hcl.ExprList(expr)
	for i, e := range exprs {
		if isJSON {
			native, convDiags := jsonReferenceAsNative(e, f)
			diags = append(diags, convDiags...)
			if diags.HasErrors() {
				continue
			}
			e, exprs[i] = native, native
		}
		rng := e.Range()
		var resources int
		var refErr bool
		for _, tr := range e.Variables() {
			ref, refDiags := parseReference(tr, f)
			for _, d := range refDiags {
				diags = append(diags, &hcl.Diagnostic{Severity: d.Severity, Summary: d.Summary, Detail: d.Detail, Subject: &rng})
			}
			if refDiags.HasErrors() {
				refErr = true
			}
			if ref.Kind == refInvalid {
				continue
			}
			switch {
			case ref.Kind == refResource || ref.Kind == refResourceInstance:
				resources++
			case ref.Kind == refEach:
				if ref.Name != "key" {
					diags = append(diags, errorDiag("Invalid each reference in replace_triggered_by expression", "Only each.key may be used in replace_triggered_by.", &rng))
				}
			case ref.Kind == refCount:
				if ref.Name != "index" {
					diags = append(diags, errorDiag("Invalid count reference in replace_triggered_by expression", "Only count.index may be used in replace_triggered_by.", &rng))
				}
			default:
				diags = append(diags, errorDiag("Invalid reference in replace_triggered_by expression", "Only resources, count.index, and each.key may be used in replace_triggered_by.", &rng))
			}
		}
		if refErr {
			continue
		}
		switch {
		case resources == 0:
			diags = append(diags, errorDiag("Invalid replace_triggered_by expression", "Missing resource reference in replace_triggered_by expression.", &rng))
		case resources > 1:
			diags = append(diags, errorDiag("Invalid replace_triggered_by expression", "Multiple resource references in replace_triggered_by expression.", &rng))
		}
	}
	return exprs, diags
}
