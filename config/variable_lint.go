package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// lintVariableDefault warns about object attributes written in a variable's
// default that its type constraint has no place for: type conversion would
// silently drop them (OpenTofu's "Object attribute is ignored").
func lintVariableDefault(expr hcl.Expression, ty cty.Type) hcl.Diagnostics {
	if ty.IsPrimitiveType() || ty == cty.DynamicPseudoType {
		return nil
	}
	var diags hcl.Diagnostics
	walkDiscardedAttrs(expr, ty, nil, func(path cty.Path, key hcl.Expression, obj *hclsyntax.ObjectConsExpr, target cty.Type) {
		name := path[len(path)-1].(cty.GetAttrStep).Name
		var names []string
		for n := range target.AttributeTypes() {
			names = append(names, n)
		}
		suggestion := ""
		if s := nameSuggestion(name, names); s != "" {
			suggestion = fmt.Sprintf(" Did you mean to set attribute %q instead?", s)
		}
		noun := "The object type for this variable"
		if len(path) > 1 {
			noun = "The object type for " + formatCtyPath(path[:len(path)-1])
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Object attribute is ignored",
			Detail:   fmt.Sprintf("%s does not include an attribute named %q, so this definition is unused.%s", noun, name, suggestion),
			Subject:  key.Range().Ptr(),
			Context:  obj.SrcRange.Ptr(),
		})
	})
	return diags
}

type discardedAttrFunc func(path cty.Path, key hcl.Expression, obj *hclsyntax.ObjectConsExpr, target cty.Type)

func walkDiscardedAttrs(expr hcl.Expression, ty cty.Type, path cty.Path, found discardedAttrFunc) {
	child := func(step cty.PathStep) cty.Path {
		p := make(cty.Path, len(path), len(path)+1)
		copy(p, path)
		return append(p, step)
	}
	switch e := expr.(type) {
	case *hclsyntax.ObjectConsExpr:
		switch {
		case ty.IsObjectType():
			for _, item := range e.Items {
				name, ok := objectConsKeyName(item.KeyExpr)
				if !ok {
					continue
				}
				if !ty.HasAttribute(name) {
					found(child(cty.GetAttrStep{Name: name}), item.KeyExpr, e, ty)
					continue
				}
				walkDiscardedAttrs(item.ValueExpr, ty.AttributeType(name), child(cty.GetAttrStep{Name: name}), found)
			}
		case ty.IsMapType():
			for _, item := range e.Items {
				if name, ok := objectConsKeyName(item.KeyExpr); ok {
					walkDiscardedAttrs(item.ValueExpr, ty.ElementType(), child(cty.IndexStep{Key: cty.StringVal(name)}), found)
				}
			}
		}
	case *hclsyntax.TupleConsExpr:
		switch {
		case ty.IsListType() || ty.IsSetType():
			for i, x := range e.Exprs {
				walkDiscardedAttrs(x, ty.ElementType(), child(cty.IndexStep{Key: cty.NumberIntVal(int64(i))}), found)
			}
		case ty.IsTupleType():
			etys := ty.TupleElementTypes()
			if len(etys) != len(e.Exprs) {
				return
			}
			for i, x := range e.Exprs {
				walkDiscardedAttrs(x, etys[i], child(cty.IndexStep{Key: cty.NumberIntVal(int64(i))}), found)
			}
		}
	case *hclsyntax.ForExpr:
		switch {
		case ty.IsMapType() && e.KeyExpr != nil:
			walkDiscardedAttrs(e.ValExpr, ty.ElementType(), child(cty.IndexStep{Key: cty.UnknownVal(cty.String)}), found)
		case (ty.IsListType() || ty.IsSetType()) && e.KeyExpr == nil:
			walkDiscardedAttrs(e.ValExpr, ty.ElementType(), child(cty.IndexStep{Key: cty.UnknownVal(cty.Number)}), found)
		}
	}
}

func objectConsKeyName(key hcl.Expression) (string, bool) {
	v, diags := key.Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() {
		return "", false
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil {
		return "", false
	}
	return s.AsString(), true
}
