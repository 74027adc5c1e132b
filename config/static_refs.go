package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// staticRefKind is what a reference in an expression names, as far as static
// evaluation cares.
type staticRefKind int

const (
	refVar staticRefKind = iota + 1
	refLocal
	refPath
	refTerraform
	refModuleOutput
	refProviderFunction
	staticRefOther
)

// staticRef is one reference found in an expression.
type staticRef struct {
	kind staticRefKind
	// root is the first name (var, local, path, terraform, tofu, ...);
	// name the attribute after it for the single-attribute kinds.
	root, name string
	// subject is the referenced object as OpenTofu writes it in messages
	// (aws_instance.x, module.a.out, each.key).
	subject string
	rng     hcl.Range
}

// staticReferences lists the references of expr (its traversals, then its
// provider function calls) with OpenTofu's diagnostics for malformed ones.
func staticReferences(expr hcl.Expression) ([]staticRef, hcl.Diagnostics) {
	var refs []staticRef
	var diags hcl.Diagnostics
	for _, t := range expr.Variables() {
		ref, d := parseStaticRef(t)
		diags = append(diags, d...)
		if ref != nil {
			refs = append(refs, *ref)
		}
	}
	if se, ok := expr.(hclsyntax.Expression); ok {
		hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
			if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && strings.HasPrefix(call.Name, "provider::") {
				refs = append(refs, staticRef{kind: refProviderFunction, subject: call.Name, rng: call.NameRange})
			}
			return nil
		})
	}
	return refs, diags
}

func parseStaticRef(t hcl.Traversal) (*staticRef, hcl.Diagnostics) {
	root := t.RootName()
	rootRange := t[0].SourceRange()
	switch root {
	case "var", "local", "path", "terraform", "tofu", "count", "each":
		ref, diags := staticSingleAttrRef(t)
		if ref != nil {
			ref.kind = map[string]staticRefKind{"var": refVar, "local": refLocal, "path": refPath, "terraform": refTerraform, "tofu": refTerraform}[root]
			if ref.kind == 0 {
				ref.kind = staticRefOther
			}
		}
		return ref, diags
	case "self":
		return &staticRef{kind: staticRefOther, root: root, subject: "self", rng: rootRange}, nil
	case "module":
		return staticModuleRef(t)
	case "data", "ephemeral", "resource":
		if len(t) < 3 {
			what := map[string]string{"data": "data source type and the resource name", "ephemeral": "ephemeral resource type and its name", "resource": "resource type and the resource name"}[root]
			return nil, hcl.Diagnostics{errorDiag("Invalid reference", fmt.Sprintf("The %q object must be followed by two attribute names: the %s.", root, what), t.SourceRange().Ptr())}
		}
		prefix := root + "."
		if root == "resource" {
			prefix = ""
		}
		return staticResourceRef(prefix, rootRange, t[1:])
	case "template", "lazy", "arg":
		return nil, hcl.Diagnostics{errorDiag("Reserved symbol name", fmt.Sprintf("The symbol name %q is reserved for use in a future OpenTofu version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name.", root), &rootRange)}
	}
	return staticResourceRef("", rootRange, t)
}

// staticSingleAttrRef reads ROOT.NAME. Like OpenTofu, a malformed one is an
// error that still yields a reference to ROOT.<empty name> without a
// source range, which static evaluation then tries to resolve.
func staticSingleAttrRef(t hcl.Traversal) (*staticRef, hcl.Diagnostics) {
	root := t.RootName()
	rootRange := t[0].SourceRange()
	bogus := &staticRef{root: root, subject: root + "."}
	if len(t) < 2 {
		return bogus, hcl.Diagnostics{errorDiag("Invalid reference", fmt.Sprintf("The %q object cannot be accessed directly. Instead, access one of its attributes.", root), &rootRange)}
	}
	attr, ok := t[1].(hcl.TraverseAttr)
	if !ok {
		return bogus, hcl.Diagnostics{errorDiag("Invalid reference", fmt.Sprintf("The %q object does not support this operation.", root), t[1].SourceRange().Ptr())}
	}
	return &staticRef{root: root, name: attr.Name, subject: root + "." + attr.Name, rng: hcl.RangeBetween(rootRange, attr.SrcRange)}, nil
}

// staticResourceRef reads TYPE.NAME[KEY] (t starts at TYPE); prefix is "data."
// or "ephemeral." for those modes.
func staticResourceRef(prefix string, start hcl.Range, t hcl.Traversal) (*staticRef, hcl.Diagnostics) {
	if len(t) < 2 {
		return nil, hcl.Diagnostics{errorDiag("Invalid reference", "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.", hcl.RangeBetween(t[0].SourceRange(), t[len(t)-1].SourceRange()).Ptr())}
	}
	attr, ok := t[1].(hcl.TraverseAttr)
	if !ok {
		what := map[string]string{"data.": "a data source", "ephemeral.": "an ephemeral resource"}[prefix]
		if what == "" {
			what = "a resource type"
		}
		return nil, hcl.Diagnostics{errorDiag("Invalid reference", fmt.Sprintf("A reference to %s must be followed by at least one attribute access, specifying the resource name.", what), t[1].SourceRange().Ptr())}
	}
	typ := ""
	switch s := t[0].(type) {
	case hcl.TraverseRoot:
		typ = s.Name
	case hcl.TraverseAttr:
		typ = s.Name
	}
	ref := &staticRef{kind: staticRefOther, subject: prefix + typ + "." + attr.Name, rng: hcl.RangeBetween(start, attr.SrcRange)}
	if len(t) > 2 {
		if idx, ok := t[2].(hcl.TraverseIndex); ok {
			ref.subject += instanceKey(idx.Key)
			ref.rng = hcl.RangeBetween(ref.rng, idx.SrcRange)
		}
	}
	return ref, nil
}

// staticModuleRef reads module.NAME[KEY].OUTPUT.
func staticModuleRef(t hcl.Traversal) (*staticRef, hcl.Diagnostics) {
	ref, diags := staticSingleAttrRef(t)
	if diags.HasErrors() {
		return nil, diags
	}
	ref.kind = staticRefOther
	rest := t[2:]
	if len(rest) == 0 {
		return ref, nil
	}
	if idx, ok := rest[0].(hcl.TraverseIndex); ok {
		ref.subject += instanceKey(idx.Key)
		ref.rng = hcl.RangeBetween(ref.rng, idx.SrcRange)
		rest = rest[1:]
		if len(rest) == 0 {
			return ref, nil
		}
	}
	if attr, ok := rest[0].(hcl.TraverseAttr); ok {
		ref.kind = refModuleOutput
		ref.subject += "." + attr.Name
		ref.rng = hcl.RangeBetween(ref.rng, attr.SrcRange)
		return ref, nil
	}
	return nil, hcl.Diagnostics{errorDiag("Invalid reference", "Module instance objects do not support this operation.", rest[0].SourceRange().Ptr())}
}

// instanceKey writes an index key as OpenTofu's instance addresses do.
func instanceKey(key cty.Value) string {
	if !key.IsKnown() || key.IsNull() {
		return "[?]"
	}
	switch key.Type() {
	case cty.String:
		return fmt.Sprintf("[%q]", key.AsString())
	case cty.Number:
		bf := key.AsBigFloat()
		if i, acc := bf.Int64(); acc == 0 {
			return fmt.Sprintf("[%d]", i)
		}
	}
	return "[?]"
}

// checkStaticRefs rejects references static evaluation cannot resolve:
// anything but var, local, path and terraform/tofu. by names the object
// being evaluated.
func checkStaticRefs(refs []staticRef, by string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, r := range refs {
		summary := ""
		switch r.kind {
		case refVar, refLocal, refPath, refTerraform:
			continue
		case refModuleOutput:
			summary = "Module output not supported in static context"
		case refProviderFunction:
			summary = "Provider function in static context"
		default:
			summary = "Dynamic value in static context"
		}
		rng := r.rng
		diags = append(diags, errorDiag(summary, fmt.Sprintf("Unable to use %s in static context, which is required by %s", r.subject, by), &rng))
	}
	return diags
}
