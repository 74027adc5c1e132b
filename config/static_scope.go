package config

import (
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"
)

// Value marks static evaluation puts on the values of sensitive and
// ephemeral variables; they propagate to derived values.
const (
	markSensitive = "sensitive"
	markEphemeral = "ephemeral"
)

// staticIdent names what is being evaluated, for messages: module path,
// subject (var.x, local.y, module.m.source) and its declaration range.
type staticIdent struct {
	module  []string
	subject string
	decl    hcl.Range
}

// String is SUBJECT in the root module and module.a.module.b:SUBJECT in
// a child, as OpenTofu writes it.
func (id staticIdent) String() string {
	if len(id.module) == 0 {
		return id.subject
	}
	parts := make([]string, len(id.module))
	for i, p := range id.module {
		parts[i] = "module." + p
	}
	return strings.Join(parts, ".") + ":" + id.subject
}

// staticScope is one evaluation: the evaluator and the stack of
// identifiers being computed (to find circular references).
type staticScope struct {
	eval  *staticEvaluator
	stack *staticFrame
}

// staticFrame is one identifier being computed, linked to the one that
// needs it (a persistent stack: pushing copies nothing).
type staticFrame struct {
	id    staticIdent
	prev  *staticFrame
	depth int
}

// bottom is the identifier the evaluation started from.
func (s staticScope) bottom() staticIdent {
	f := s.stack
	for f.prev != nil {
		f = f.prev
	}
	return f.id
}

func (e *staticEvaluator) scope(id staticIdent) staticScope {
	return staticScope{eval: e, stack: &staticFrame{id: id, depth: 1}}
}

func (s staticScope) top() staticIdent { return s.stack.id }

// evaluate evaluates expr statically on behalf of id.
func (e *staticEvaluator) evaluate(expr hcl.Expression, id staticIdent) (cty.Value, hcl.Diagnostics) {
	return e.scope(id).evalExpr(expr)
}

// staticString is the string of val, expr's static value, as OpenTofu
// decodes a static argument: sensitive and ephemeral values are refused,
// then the value must convert to a non-null, known string.
func staticString(val cty.Value, expr hcl.Expression, id staticIdent) (string, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	rng := expr.Range()
	if containsMark(val, markSensitive) {
		return "", append(diags, errorDiag("Sensitive value not allowed", fmt.Sprintf("Sensitive values, or values derived from sensitive values, cannot be used as %s.", id), &rng))
	}
	if containsMark(val, markEphemeral) {
		return "", append(diags, errorDiag("Ephemeral value not allowed", fmt.Sprintf("Ephemeral values, or values derived from ephemeral values, cannot be used as %s.", id), &rng))
	}
	s, d := decodeStringValue(val, expr)
	if d != nil {
		return "", append(diags, d)
	}
	return s, diags
}

// decodeStringValue checks what gohcl checks when it decodes val into a Go
// string, with its messages.
func decodeStringValue(val cty.Value, expr hcl.Expression) (string, *hcl.Diagnostic) {
	unsuitable := func(msg string) *hcl.Diagnostic {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsuitable value type", Detail: "Unsuitable value: " + msg, Subject: expr.StartRange().Ptr(), Context: expr.Range().Ptr()}
	}
	conv, err := convert.Convert(val, cty.String)
	if err != nil {
		return "", unsuitable(err.Error())
	}
	var s string
	if err := gocty.FromCtyValue(conv, &s); err != nil {
		if conv.IsNull() {
			return "", unsuitable("null value is not allowed")
		}
		return "", unsuitable(err.Error())
	}
	return s, nil
}

func containsMark(v cty.Value, mark string) bool {
	if v.HasMark(mark) {
		return true
	}
	_, pvm := v.UnmarkDeepWithPaths()
	for _, p := range pvm {
		if _, ok := p.Marks[mark]; ok {
			return true
		}
	}
	return false
}

// evalExpr finds the references of expr, refuses those that are not
// static, resolves the others and evaluates expr with them.
func (s staticScope) evalExpr(expr hcl.Expression) (cty.Value, hcl.Diagnostics) {
	refs, diags := staticReferences(expr, s.eval.mod.flavour)
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{}, Functions: s.eval.functions()}
	if len(refs) > 0 {
		refDiags := checkStaticRefs(refs, s.top().String())
		diags = append(diags, refDiags...)
		if !refDiags.HasErrors() {
			diags = append(diags, s.resolve(refs, ctx)...)
		}
	}
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	val, valDiags := expr.Value(ctx)
	return val, append(diags, sortedSuggestions(valDiags, ctx.Functions)...)
}

// resolve puts the values of refs into ctx: var, local, path, terraform
// and tofu objects holding the referenced attributes.
func (s staticScope) resolve(refs []reference, ctx *hcl.EvalContext) hcl.Diagnostics {
	var diags hcl.Diagnostics
	objects := map[string]map[string]cty.Value{}
	for _, r := range refs {
		var val cty.Value
		var d hcl.Diagnostics
		switch r.Kind {
		case refVariable:
			val, d = s.variable(r.Name, r.Range)
		case refLocal:
			val, d = s.local(r.Name, r.Range)
		case refPath:
			val, d = s.pathAttr(r.Name, r.Range)
		case refTerraform:
			val, d = s.terraformAttr(r.Name, r.Range)
		default:
			continue
		}
		diags = append(diags, d...)
		if val == cty.NilVal {
			val = cty.DynamicVal
		}
		if objects[r.Root] == nil {
			objects[r.Root] = map[string]cty.Value{}
		}
		objects[r.Root][r.Name] = val
	}
	for root, attrs := range objects {
		ctx.Variables[root] = cty.ObjectVal(attrs)
	}
	return diags
}

// enhance adds, when diags has errors, the error saying that what is being
// evaluated depends on id, which failed.
func (s staticScope) enhance(id staticIdent, diags hcl.Diagnostics) hcl.Diagnostics {
	if !diags.HasErrors() {
		return diags
	}
	top := s.top()
	return append(diags, errorDiag("Unable to compute static value", fmt.Sprintf("%s depends on %s which is not available", top, id), top.decl.Ptr()))
}

// push returns the scope that evaluates id on behalf of s, or the circular
// reference error.
func (s staticScope) push(id staticIdent) (staticScope, hcl.Diagnostics) {
	if s.stack.depth >= maxStaticDepth {
		return s, hcl.Diagnostics{errorDiag("Static evaluation too deep", fmt.Sprintf("Computing %s needs a chain of more than %d local values, each depending on the next. tfdeps stops there.", s.bottom(), maxStaticDepth), id.decl.Ptr())}
	}
	for f := s.stack; f != nil; f = f.prev {
		if f.id.subject == id.subject && f.id.String() == id.String() {
			return s, hcl.Diagnostics{errorDiag("Circular reference", fmt.Sprintf("%s is self referential", id), id.decl.Ptr())}
		}
	}
	return staticScope{eval: s.eval, stack: &staticFrame{id: id, prev: s.stack, depth: s.stack.depth + 1}}, nil
}

func (s staticScope) local(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	l, ok := s.eval.mod.Locals[name]
	if !ok {
		return cty.DynamicVal, hcl.Diagnostics{errorDiag("Undefined local", fmt.Sprintf("Undefined local local.%s", name), &rng)}
	}
	if val, ok := s.eval.memo.get(name); ok {
		return val, nil
	}
	id := staticIdent{module: s.eval.call.path, subject: "local." + name, decl: l.DeclRange}
	if !s.eval.memo.spend() {
		return cty.DynamicVal, hcl.Diagnostics{errorDiag("Static evaluation too complex", fmt.Sprintf("Computing %s evaluates local values more than %d times. tfdeps stops there.", s.bottom(), maxLocalEvaluations), id.decl.Ptr())}
	}
	inner, diags := s.push(id)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	val, valDiags := inner.evalExpr(l.Expr)
	diags = append(diags, valDiags...)
	if !diags.HasErrors() {
		s.eval.memo.put(name, val)
	}
	return val, s.enhance(id, diags)
}

// Limits on hostile configurations: OpenTofu evaluates every reference to
// a local value again, without bound.
const (
	maxStaticDepth      = 4096
	maxLocalEvaluations = 10000
)

// localMemo keeps the local values a module has computed without errors
// (evaluating them again would give the same value and no diagnostics),
// and counts evaluations. Child modules may be loaded concurrently and
// evaluate their call arguments in their parent, hence the lock.
type localMemo struct {
	mu     sync.Mutex
	values map[string]cty.Value
	spent  int
}

func (m *localMemo) get(name string) (cty.Value, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.values[name]
	return v, ok
}

func (m *localMemo) put(name string, v cty.Value) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.values == nil {
		m.values = map[string]cty.Value{}
	}
	m.values[name] = v
}

// spend counts one evaluation; false once the budget is used up.
func (m *localMemo) spend() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.spent++
	return m.spent <= maxLocalEvaluations
}

func (s staticScope) pathAttr(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch name {
	case "cwd":
		wd, err := absPathIn(s.eval.workDir, ".")
		if err != nil {
			return cty.DynamicVal, hcl.Diagnostics{errorDiag("Failed to get working directory", fmt.Sprintf("The value for path.cwd cannot be determined due to a system error: %s", err), &rng)}
		}
		return cty.StringVal(wd), nil
	case "module":
		return cty.StringVal(s.eval.mod.SourceDir), nil
	case "root":
		return cty.StringVal(s.eval.call.rootDir), nil
	}
	suggestion := ""
	if sug := nameSuggestion(name, []string{"cwd", "module", "root"}); sug != "" {
		suggestion = fmt.Sprintf(" Did you mean %q?", sug)
	}
	return cty.DynamicVal, hcl.Diagnostics{errorDiag(`Invalid "path" attribute`, fmt.Sprintf(`The "path" object does not have an attribute named %q.%s`, name, suggestion), &rng)}
}

func (s staticScope) terraformAttr(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch name {
	case "workspace":
		return cty.StringVal(s.eval.call.workspace), nil
	case "applying":
		return cty.DynamicVal, hcl.Diagnostics{errorDiag("Invalid attribute in static context", "The applying attribute can not be used during static evaluation and is only valid in the plan and apply phases of execution", &rng)}
	case "env":
		return cty.DynamicVal, hcl.Diagnostics{errorDiag(`Invalid "terraform" attribute`, `The terraform.env attribute was deprecated in v0.10 and removed in v0.12. The "state environment" concept was renamed to "workspace" in v0.12, and so the workspace name can now be accessed using the terraform.workspace attribute.`, &rng)}
	}
	return cty.DynamicVal, hcl.Diagnostics{errorDiag(`Invalid "terraform" attribute`, fmt.Sprintf(`The "terraform" object does not have an attribute named %q. The only supported attribute is terraform.workspace, the name of the currently-selected workspace.`, name), &rng)}
}
