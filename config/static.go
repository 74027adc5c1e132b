package config

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// staticEval decodes module-call sources after merging, in declaration
// order (OpenTofu uses map order here; tfdeps is deterministic).
func (m *Module) staticEval() hcl.Diagnostics {
	calls := make([]*ModuleCall, 0, len(m.ModuleCalls))
	for _, mc := range m.ModuleCalls {
		calls = append(calls, mc)
	}
	sort.Slice(calls, func(i, j int) bool { return rangeLess(calls[i].DeclRange, calls[j].DeclRange, m.fileOrder()) })
	ctx := m.staticContext()
	var diags hcl.Diagnostics
	for _, mc := range calls {
		if mc.SourceExpr == nil {
			continue
		}
		val, valDiags := mc.SourceExpr.Value(ctx)
		if valDiags.HasErrors() || !val.IsKnown() || val.IsNull() || val.Type() != cty.String {
			continue
		}
		diags = append(diags, mc.classifySource(val.AsString())...)
	}
	return diags
}

// staticContext gives var.* from constant defaults and local.* from
// constant locals, for evaluating module sources.
func (m *Module) staticContext() *hcl.EvalContext {
	vars := map[string]cty.Value{}
	for name, v := range m.Variables {
		if v.Default != cty.NilVal && v.Default.IsWhollyKnown() {
			vars[name] = v.Default
		}
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(vars)}}
	locals := map[string]cty.Value{}
	for pass := 0; pass < 2; pass++ {
		ctx.Variables["local"] = cty.ObjectVal(locals)
		for name, l := range m.Locals {
			if v, d := l.Expr.Value(ctx); !d.HasErrors() && v.IsWhollyKnown() {
				locals[name] = v
			}
		}
	}
	ctx.Variables["local"] = cty.ObjectVal(locals)
	return ctx
}

// fileOrder maps each loaded file name to its load position.
func (m *Module) fileOrder() map[string]int {
	order := map[string]int{}
	for i, f := range m.primary {
		order[f.Name] = i
	}
	for i, f := range m.overrides {
		order[f.Name] = len(m.primary) + i
	}
	return order
}

func rangeLess(a, b hcl.Range, order map[string]int) bool {
	oa, ob := order[a.Filename], order[b.Filename]
	if oa != ob {
		return oa < ob
	}
	return a.Start.Byte < b.Start.Byte
}
