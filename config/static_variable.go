package config

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tfdeps/tfdeps/flavour"
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
	if s.eval.mod.flavour == flavour.Terraform && !v.Const {
		// Terraform evaluates only const variables during init: any
		// other is unknown there (see unknownAtInit).
		return cty.DynamicVal, nil
	}
	if s.eval.mod.flavour == flavour.Terraform && len(s.eval.call.path) == 0 && s.eval.lacksValue(v) {
		// Terraform never asks for a const variable: one without a value
		// is its "No value for required variable" (MissingConstVariables).
		return cty.DynamicVal, nil
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

// MissingConstVariables is Terraform's check, before init installs any
// module, that every const variable of the root module that has no default
// is given a value (-var, -var-file, tfvars files, TF_VAR_): a "No value
// for required variable" error for each one that is not, in declaration
// order. It is nil in the OpenTofu flavour and for a child module.
func (m *Module) MissingConstVariables() hcl.Diagnostics {
	if m == nil || m.flavour != flavour.Terraform || m.static == nil || len(m.static.call.path) > 0 {
		return nil
	}
	order := m.fileOrder()
	var missing []*Variable
	for _, v := range m.Variables {
		if v.Const && m.static.lacksValue(v) {
			missing = append(missing, v)
		}
	}
	sort.Slice(missing, func(i, j int) bool { return rangeLess(missing[i].DeclRange, missing[j].DeclRange, order) })
	var diags hcl.Diagnostics
	for _, v := range missing {
		diags = append(diags, noValueForConst(v))
	}
	return diags
}

// lacksValue reports whether the root module variable v is required and
// given no value (-var, -var-file, tfvars files, TF_VAR_).
func (e *staticEvaluator) lacksValue(v *Variable) bool {
	_, given := e.values.Lookup(v.Name)
	return v.Required() && !given
}
