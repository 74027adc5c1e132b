package config

import (
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// TypeString writes a type constraint in HCL type syntax without spaces,
// object attributes sorted by name and optional attributes as
// optional(T): list(string), object({a=string,b=optional(number)}). The
// dynamic pseudo-type is "any"; an unset type is "".
func TypeString(ty cty.Type) string {
	var b strings.Builder
	writeType(&b, ty)
	return b.String()
}

func writeType(b *strings.Builder, ty cty.Type) {
	switch {
	case ty == cty.NilType:
	case ty == cty.DynamicPseudoType:
		b.WriteString("any")
	case ty.IsPrimitiveType():
		b.WriteString(ty.FriendlyName())
	case ty.IsListType():
		wrap(b, "list", ty.ElementType())
	case ty.IsSetType():
		wrap(b, "set", ty.ElementType())
	case ty.IsMapType():
		wrap(b, "map", ty.ElementType())
	case ty.IsTupleType():
		b.WriteString("tuple([")
		for i, et := range ty.TupleElementTypes() {
			if i > 0 {
				b.WriteString(",")
			}
			writeType(b, et)
		}
		b.WriteString("])")
	case ty.IsObjectType():
		attrs := ty.AttributeTypes()
		names := make([]string, 0, len(attrs))
		for n := range attrs {
			names = append(names, n)
		}
		sort.Strings(names)
		b.WriteString("object({")
		for i, n := range names {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(n + "=")
			if ty.AttributeOptional(n) {
				wrap(b, "optional", attrs[n])
			} else {
				writeType(b, attrs[n])
			}
		}
		b.WriteString("})")
	default:
		b.WriteString(ty.FriendlyName())
	}
}

func wrap(b *strings.Builder, fn string, ty cty.Type) {
	b.WriteString(fn + "(")
	writeType(b, ty)
	b.WriteString(")")
}
