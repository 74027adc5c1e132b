package config

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfdeps/tfdeps/flavour"
)

// Static evaluation: what OpenTofu (1.8+) evaluates while loading a module,
// before anything is planned. Module call source and version arguments,
// the arguments passed to a child module (when the child evaluates its own
// sources) and const variables may refer to input variables, local values,
// path.* and terraform.workspace, and call functions. Root module variables
// take their values from an InputValues (tfvars files, TF_VAR_ variables,
// -var and -var-file options: CollectInputValues), else their defaults.

// staticOptions are the loader options static evaluation uses.
type staticOptions struct {
	values    *InputValues
	workspace string
	// call is set for a child module: how its parent calls it.
	call *staticCall
	// workDir is the working directory of path.cwd and abspath ("": the
	// process's current directory).
	workDir string
}

// WithWorkingDir sets the working directory that path.cwd and abspath
// resolve against ("" for the process's current directory): give the
// Root of an OSFileSystem given to WithFileSystem, so that both read as
// when loading from inside it.
func WithWorkingDir(dir string) Option { return func(o *options) { o.static.workDir = dir } }

// WithInputValues gives the root module's variable values (nil: every
// variable takes its default; a required one used statically is an error).
func WithInputValues(iv *InputValues) Option {
	return func(o *options) { o.static.values = iv }
}

// WithWorkspace sets terraform.workspace for static evaluation (default
// "default").
func WithWorkspace(name string) Option { return func(o *options) { o.static.workspace = name } }

// WithModuleCall loads a child module as called by call in the already
// loaded module parent, at module path childPath (["a", "b"] for
// module.a.module.b): static evaluation in the child takes its variables'
// values from the call's arguments, evaluated in parent. Whatever loads
// child modules (the tree builder, module walkers) must pass it; without
// it a directory is loaded as the root module, whose values come from
// WithInputValues.
func WithModuleCall(parent *Module, call *ModuleCall, childPath []string) Option {
	return func(o *options) {
		if parent.static == nil {
			return
		}
		c := parent.static.childCall(call, childPath)
		o.static.call = &c
	}
}

// staticCall is how a module is called: its module path, where its
// variables' values come from, the root module directory and workspace.
type staticCall struct {
	path      []string
	declRange hcl.Range
	vars      func(*Variable) (cty.Value, hcl.Diagnostics)
	rootDir   string
	workspace string
}

// staticEvaluator evaluates expressions of one module statically.
type staticEvaluator struct {
	mod  *Module
	call staticCall
	// values are the root module's variable values (root module only).
	values *InputValues
	funcs  map[string]function.Function
	memo   localMemo
	// workDir: staticOptions.workDir.
	workDir string
}

// functions returns the function table, built with the evaluator and
// only read afterwards (child modules may be loaded concurrently).
func (e *staticEvaluator) functions() map[string]function.Function { return e.funcs }

func newStaticEvaluator(m *Module, o staticOptions) *staticEvaluator {
	if o.call != nil {
		return &staticEvaluator{mod: m, call: *o.call, funcs: staticFunctionsIn(o.workDir), workDir: o.workDir}
	}
	ws := o.workspace
	if ws == "" {
		ws = "default"
	}
	return &staticEvaluator{mod: m, values: o.values, funcs: staticFunctionsIn(o.workDir), call: staticCall{vars: o.values.rootVariable, rootDir: m.SourceDir, workspace: ws}, workDir: o.workDir}
}

// childCall is the call of a child module: its variables are the call's
// arguments evaluated in this module.
func (e *staticEvaluator) childCall(mc *ModuleCall, childPath []string) staticCall {
	args := map[string]*Attribute{}
	if mc.Syntax != nil {
		for _, a := range mc.Config().Attributes {
			args[a.Name] = a
		}
	}
	vars := func(v *Variable) (cty.Value, hcl.Diagnostics) {
		a, ok := args[v.Name]
		if !ok {
			if v.Required() {
				return cty.NilVal, hcl.Diagnostics{errorDiag("Missing required variable in module call", "", bodyMissingItem(mc).Ptr())}
			}
			return v.Default, nil
		}
		return e.evaluate(a.Expr, staticIdent{module: childPath, subject: "var." + v.Name, decl: a.Range})
	}
	return staticCall{path: childPath, declRange: mc.DeclRange, vars: vars, rootDir: e.call.rootDir, workspace: e.call.workspace}
}

// bodyMissingItem approximates the empty range at the opening brace of a
// module block, where OpenTofu reports a missing argument.
func bodyMissingItem(mc *ModuleCall) hcl.Range {
	r := mc.DeclRange
	pos := r.End
	pos.Column++
	pos.Byte++
	return hcl.Range{Filename: r.Filename, Start: pos, End: pos}
}

// staticEval decodes the module calls' sources and versions after merging,
// then the provider blocks' for_each, each in declaration order (OpenTofu
// uses map order here; tfdeps is deterministic), then checks that const
// variables have static values.
func (m *Module) staticEval() hcl.Diagnostics {
	e := m.static
	if e == nil {
		e = newStaticEvaluator(m, staticOptions{})
		m.static = e
	}
	calls := make([]*ModuleCall, 0, len(m.ModuleCalls))
	for _, mc := range m.ModuleCalls {
		calls = append(calls, mc)
	}
	order := m.fileOrder()
	sort.Slice(calls, func(i, j int) bool { return rangeLess(calls[i].DeclRange, calls[j].DeclRange, order) })
	var diags hcl.Diagnostics
	for _, mc := range calls {
		vDiags, unknown := e.decodeVersion(mc)
		diags = append(diags, vDiags...)
		diags = append(diags, e.decodeSource(mc)...)
		if unknown {
			// Terraform installs nothing from a call whose version it
			// cannot evaluate during init.
			mc.Source = nil
		}
	}
	for _, pc := range m.providerConfigsInOrder(order) {
		diags = append(diags, e.decodeProviderForEach(pc)...)
	}
	return append(diags, e.checkConstVariables(order)...)
}

// decodeSource evaluates the call's source argument into SourceAddr.
func (e *staticEvaluator) decodeSource(mc *ModuleCall) hcl.Diagnostics {
	if mc.SourceExpr == nil {
		return nil
	}
	id := staticIdent{module: e.call.path, subject: fmt.Sprintf("module.%s.source", mc.Name), decl: mc.SourceExpr.Range()}
	val, diags := e.evaluate(mc.SourceExpr, id)
	if diags.HasErrors() {
		return diags
	}
	if e.mod.flavour == flavour.Terraform && !val.IsWhollyKnown() {
		return append(diags, unknownAtInit("source", mc.SourceExpr))
	}
	raw, strDiags := staticString(val, mc.SourceExpr, id)
	diags = append(diags, strDiags...)
	if strDiags.HasErrors() {
		return diags
	}
	return append(diags, mc.classifySource(raw, e.mod.flavour)...)
}

// decodeVersion evaluates the call's version argument: null means no
// version at all. unknownAtInitTime is set when the Terraform flavour
// cannot evaluate it (see unknownAtInit).
func (e *staticEvaluator) decodeVersion(mc *ModuleCall) (diags hcl.Diagnostics, unknownAtInitTime bool) {
	if mc.VersionExpr == nil {
		return nil, false
	}
	declRange := mc.VersionExpr.Range()
	if mc.Syntax != nil {
		if a := mc.Syntax.Body.Attribute("version"); a != nil {
			declRange = a.Range
		}
	}
	val, diags := e.evaluate(mc.VersionExpr, staticIdent{module: e.call.path, subject: fmt.Sprintf("module.%s.version", mc.Name), decl: declRange})
	if diags.HasErrors() {
		return diags, false
	}
	if e.mod.flavour == flavour.Terraform && !val.IsWhollyKnown() {
		return append(diags, unknownAtInit("version", mc.VersionExpr)), true
	}
	if val.IsNull() {
		mc.HasVersion, mc.Version = false, ""
		return diags, false
	}
	exprRange := mc.VersionExpr.Range()
	for _, mark := range []struct{ mark, what string }{{markSensitive, "Sensitive values, or values derived from sensitive"}, {markEphemeral, "Ephemeral values, or values derived from ephemeral"}} {
		if val.HasMark(mark.mark) {
			return append(diags, errorDiag("Invalid version constraint", mark.what+" values, cannot be used as version arguments.", &exprRange)), false
		}
	}
	vc, _, vDiags := versionConstraintFromValue(unmarked(val), exprRange, declRange, "version")
	mc.Version = vc.Required
	if vDiags.HasErrors() {
		// As OpenTofu's: a constraint that does not parse constrains
		// nothing (tofu get installs the newest version after the error).
		mc.Version = ""
	}
	return append(diags, vDiags...), false
}

// checkConstVariables evaluates every variable declared const, as OpenTofu
// does to prove it has a static value.
func (e *staticEvaluator) checkConstVariables(order map[string]int) hcl.Diagnostics {
	var consts []*Variable
	for _, v := range e.mod.Variables {
		if !v.Const {
			continue
		}
		if e.mod.flavour == flavour.Terraform && len(e.call.path) == 0 && e.lacksValue(v) {
			continue // Terraform's own error, later (MissingConstVariables)
		}
		consts = append(consts, v)
	}
	sort.Slice(consts, func(i, j int) bool { return rangeLess(consts[i].DeclRange, consts[j].DeclRange, order) })
	s := e.scope(staticIdent{module: e.call.path, decl: e.call.declRange})
	var diags hcl.Diagnostics
	for _, v := range consts {
		_, d := s.variable(v.Name, v.DeclRange)
		diags = append(diags, d...)
	}
	return diags
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

func unmarked(v cty.Value) cty.Value {
	u, _ := v.UnmarkDeep()
	return u
}

// addValueFiles adds the root module's variables files and test files to
// files (for source snippets of errors in the values they give and of the
// checks of test files' providers).
func (m *Module) addValueFiles(files map[string]*hcl.File) {
	for _, tf := range m.Tests {
		if tf.HCL != nil {
			files[tf.Name] = tf.HCL
		}
		for name, f := range tf.mockFiles {
			files[name] = f
		}
	}
	for name, f := range m.droppedTests {
		files[name] = f
	}
	if m.static == nil || m.static.values == nil {
		return
	}
	for name, f := range m.static.values.Files {
		files[name] = f
	}
}

// unknownAtInit is Terraform's error for a module source or version that
// refers to something other than literals, locals and const variables
// (Terraform v1.15 evaluates only those during init).
func unknownAtInit(what string, expr hcl.Expression) *hcl.Diagnostic {
	return errorDiag("Unknown module "+what, "Only literal values and const variables can be evaluated during init.", expr.Range().Ptr())
}
