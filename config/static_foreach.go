package config

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/flavour"
)

// decodeProviderForEach evaluates a provider block's for_each statically
// and checks its value as OpenTofu checks a for_each argument: a map, an
// object or a set of strings, known, not null, not sensitive or ephemeral.
// The instances themselves are not kept: tfdeps needs only the errors.
func (e *staticEvaluator) decodeProviderForEach(pc *ProviderConfig) hcl.Diagnostics {
	expr := pc.ForEach
	if expr == nil {
		return nil
	}
	id := staticIdent{module: e.call.path, subject: fmt.Sprintf("provider.%s.%s.for_each", pc.Name, pc.Alias), decl: expr.Range()}
	s := e.scope(id)
	refs, diags := staticReferences(expr, e.mod.flavour)
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{}, Functions: s.eval.functions()}
	if len(refs) > 0 {
		refDiags := checkStaticRefs(refs, id.String())
		diags = append(diags, refDiags...)
		if !refDiags.HasErrors() {
			diags = append(diags, s.resolve(refs, ctx)...)
		}
	}
	if diags.HasErrors() {
		return diags
	}
	val, valDiags := expr.Value(ctx)
	diags = append(diags, sortedSuggestions(valDiags, ctx.Functions)...)
	return append(diags, forEachValueChecks(expr, ctx, val, e.mod.flavour)...)
}

// forEachValueChecks are OpenTofu's type and value checks of a for_each
// value, in OpenTofu's order.
func forEachValueChecks(expr hcl.Expression, ctx *hcl.EvalContext, val cty.Value, f flavour.Flavour) hcl.Diagnostics {
	invalid := func(detail string) *hcl.Diagnostic {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid for_each argument", Detail: detail, Subject: expr.Range().Ptr(), Expression: expr, EvalContext: ctx}
	}
	product := f.Product()
	unknownDynamic := "The \"for_each\" value includes keys or set values from resource attributes that cannot be determined until apply, and so " + product + " cannot determine what will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to define the map keys statically in your configuration and place apply-time results only in the map values.\n\n"
	unknownMap := "The \"for_each\" map includes keys derived from resource attributes that cannot be determined until apply, and so " + product + " cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to define the map keys statically in your configuration and place apply-time results only in the map values.\n\n"
	unknownSet := "The \"for_each\" set includes values derived from resource attributes that cannot be determined until apply, and so " + product + " cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to use a map value where the keys are defined statically in your configuration and where only the values contain apply-time results.\n\n"
	const target = "Alternatively, you could use the -target option to first apply only the resources that for_each depends on, and then apply normally to converge."
	valueChecks := func(checked cty.Value, unknownDetail string) hcl.Diagnostics {
		var diags hcl.Diagnostics
		if !checked.IsKnown() || !val.IsKnown() {
			diags = append(diags, invalid(unknownDetail+target))
		}
		if val.IsNull() {
			diags = append(diags, invalid(`The given "for_each" argument value is unsuitable: the given "for_each" argument value is null.`))
		}
		if val.HasMark(markSensitive) {
			diags = append(diags, invalid("Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key."))
		}
		if val.HasMark(markEphemeral) {
			diags = append(diags, invalid("Ephemeral values, or values derived from ephemeral values, cannot be used as for_each arguments. If used, the ephemeral value could be exposed as a resource instance key."))
		}
		return diags
	}
	ty := val.Type()
	switch {
	case ty == cty.DynamicPseudoType:
		return valueChecks(val, unknownDynamic)
	case ty.IsMapType() || ty.IsObjectType():
		return valueChecks(val, unknownMap)
	case ty.IsSetType():
		var typeDiags, setDiags hcl.Diagnostics
		checked := val
		if et := ty.ElementType(); et != cty.String && et != cty.DynamicPseudoType {
			typeDiags = hcl.Diagnostics{invalid(fmt.Sprintf(`The given "for_each" argument value is unsuitable: "for_each" supports sets of strings, but you have provided a set containing type %s.`, et.FriendlyName()))}
			checked = cty.NullVal(ty)
		}
		switch {
		case !checked.IsWhollyKnown():
			checked = cty.UnknownVal(ty)
		case !checked.IsNull():
			plain, _ := checked.UnmarkDeep()
			for it := plain.ElementIterator(); it.Next(); {
				if _, v := it.Element(); v.IsNull() {
					setDiags = hcl.Diagnostics{invalid(`The given "for_each" argument value is unsuitable: "for_each" sets must not contain null values.`)}
					checked = cty.NullVal(ty)
					break
				}
			}
		}
		return append(append(valueChecks(checked, unknownSet), setDiags...), typeDiags...)
	}
	typeDiag := invalid(fmt.Sprintf(`The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a value of type %s.`, ty.FriendlyName()))
	return append(valueChecks(val, unknownDynamic), typeDiag)
}

// providerConfigsInOrder are the provider blocks of m in declaration order.
func (m *Module) providerConfigsInOrder(order map[string]int) []*ProviderConfig {
	pcs := make([]*ProviderConfig, 0, len(m.ProviderConfigs))
	for _, pc := range m.ProviderConfigs {
		pcs = append(pcs, pc)
	}
	sort.Slice(pcs, func(i, j int) bool { return rangeLess(pcs[i].DeclRange, pcs[j].DeclRange, order) })
	return pcs
}
