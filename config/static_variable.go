package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// variable resolves var.NAME statically: the value the module's call gives
// (a root value from InputValues, a child's from its call arguments),
// converted to the variable's type, its default for a null value of a
// non-nullable variable, and marked when sensitive or ephemeral.
func (s staticScope) variable(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	v, ok := s.eval.mod.Variables[name]
	if !ok {
		return cty.NilVal, hcl.Diagnostics{errorDiag("Undefined variable", fmt.Sprintf("Undefined variable var.%s", name), &rng)}
	}
	if v.ConstSet && !v.Const {
		return cty.NilVal, hcl.Diagnostics{errorDiag("Unable to use variable in static context", fmt.Sprintf("The variable %q cannot be used in a static context, because it is declared as \"const = false\".", v.Name), &rng)}
	}
	id := staticIdent{module: s.eval.call.path, subject: "var." + v.Name, decl: v.DeclRange}
	val, diags := s.eval.call.vars(v)
	if diags.HasErrors() {
		return cty.DynamicVal, s.enhance(id, diags)
	}
	if val == cty.NilVal {
		val = cty.NullVal(cty.DynamicPseudoType)
	}
	ty := v.ConstraintType
	if ty == cty.NilType {
		ty = cty.DynamicPseudoType
	}
	def := v.Default
	if def != cty.NilVal {
		var err error
		if def, err = convert.Convert(def, ty); err != nil {
			return cty.UnknownVal(ty), append(diags, errorDiag("Invalid default value for module argument", fmt.Sprintf("The default value for variable %q is incompatible with its type constraint: %s.", v.Name, err), v.DeclRange.Ptr()))
		}
	}
	if v.TypeDefaults != nil && !val.IsNull() {
		val = v.TypeDefaults.Apply(val)
	}
	converted, err := convert.Convert(val, ty)
	if err != nil {
		typ := v.Type
		if typ == cty.NilType {
			typ = cty.DynamicPseudoType
		}
		return cty.UnknownVal(typ), append(diags, errorDiag("Invalid value for input variable", fmt.Sprintf("The given value is not suitable for %s declared at %s: %s.", id.subject, id.decl, err), nil))
	}
	val = converted
	if val.IsNull() && !v.Nullable {
		if def != cty.NilVal {
			val = def
		} else {
			diags = append(diags, errorDiag("Required variable not set", fmt.Sprintf("The given value is not suitable for %s defined at %s: required variable may not be set to null.", id.subject, id.decl.String()), id.decl.Ptr()))
		}
	}
	if v.Sensitive {
		val = val.Mark(markSensitive)
	}
	if v.Ephemeral {
		val = val.Mark(markEphemeral)
	}
	return val, s.enhance(id, diags)
}
