package config

import (
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// ValueSource says where a root module variable's value came from. The
// environment has the lowest precedence, then the automatic files; -var and
// -var-file options apply last, in command-line order.
type ValueSource int

const (
	// FromEnvironment is a TF_VAR_NAME environment variable.
	FromEnvironment ValueSource = iota + 1
	// FromAutoFile is terraform.tfvars, terraform.tfvars.json or a
	// *.auto.tfvars(.json) file of the working directory.
	FromAutoFile
	// FromCommandLine is a -var option.
	FromCommandLine
	// FromNamedFile is a file given with -var-file.
	FromNamedFile
	// FromInput is an answer to init's prompt (SetPrompt).
	FromInput
)

// RawValue is one root module variable value as given, not yet parsed
// against the variable's declaration: an expression from a variables file,
// or a string from the environment or a -var option.
type RawValue struct {
	Name   string
	Source ValueSource
	// Expr is the value's expression in a variables file (nil otherwise).
	Expr hcl.Expression
	// String is the value of a -var option or TF_VAR_ variable.
	String string
}

// Parse returns the value. A string from the environment or the command
// line is taken literally for a variable of primitive type (or without
// type) and parsed as an HCL expression otherwise, as OpenTofu does; an
// expression from a file must be a constant.
func (r RawValue) Parse(mode VariableParsingMode) (cty.Value, hcl.Diagnostics) {
	if r.Expr != nil {
		return r.Expr.Value(nil)
	}
	if mode != VariableParseHCL {
		return cty.StringVal(r.String), nil
	}
	name := fmt.Sprintf("<value for var.%s>", r.Name)
	expr, diags := hclsyntax.ParseExpression([]byte(r.String), name, hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	val, valDiags := expr.Value(nil)
	return val, append(diags, valDiags...)
}

// InputValues are the values given for the root module's variables: the
// winning value for each name, and the variables files read (for source
// snippets in diagnostics). The zero value has no values: every variable
// then takes its default.
type InputValues struct {
	values map[string]RawValue
	// Files are the variables files that parsed, by name as in ranges.
	Files map[string]*hcl.File

	// prompt, when set, asks for a required variable's value (SetPrompt);
	// mu guards values and unanswered, which an answer changes.
	prompt     func(*Variable) (string, bool)
	mu         sync.Mutex
	unanswered map[string]bool
}

// SetPrompt makes a required root variable without a value ask prompt
// for one, once per variable (tofu init asks unless -input=false): the
// answer is the variable's value as a -var option's string would be; ok
// false (no answer could be read) leaves it without a value, the error
// OpenTofu reports then.
func (iv *InputValues) SetPrompt(prompt func(v *Variable) (answer string, ok bool)) {
	iv.prompt = prompt
}

// ask returns the prompt's answer for v, asking at most once.
func (iv *InputValues) ask(v *Variable) (RawValue, bool) {
	iv.mu.Lock()
	defer iv.mu.Unlock()
	if raw, ok := iv.values[v.Name]; ok {
		return raw, true
	}
	if iv.prompt == nil || iv.unanswered[v.Name] {
		return RawValue{}, false
	}
	answer, ok := iv.prompt(v)
	if !ok {
		if iv.unanswered == nil {
			iv.unanswered = map[string]bool{}
		}
		iv.unanswered[v.Name] = true
		return RawValue{}, false
	}
	raw := RawValue{Name: v.Name, Source: FromInput, String: answer}
	iv.set(raw)
	return raw, true
}

// NewInputValues returns values for the given raw values; a later value
// for a name replaces an earlier one.
func NewInputValues(values ...RawValue) *InputValues {
	iv := &InputValues{values: map[string]RawValue{}, Files: map[string]*hcl.File{}}
	for _, v := range values {
		iv.set(v)
	}
	return iv
}

func (iv *InputValues) set(v RawValue) {
	if iv.values == nil {
		iv.values = map[string]RawValue{}
	}
	iv.values[v.Name] = v
}

// Lookup returns the value given for the variable name.
func (iv *InputValues) Lookup(name string) (RawValue, bool) {
	if iv == nil {
		return RawValue{}, false
	}
	iv.mu.Lock()
	defer iv.mu.Unlock()
	v, ok := iv.values[name]
	return v, ok
}

// rootVariable is the root module call's variable lookup: the given value
// parsed in the variable's parsing mode, else the default. A required
// variable without a value is asked for (SetPrompt), and without an
// answer is the error OpenTofu gives when it cannot read one.
func (iv *InputValues) rootVariable(v *Variable) (cty.Value, hcl.Diagnostics) {
	raw, ok := iv.Lookup(v.Name)
	if !ok && v.Required() && iv != nil {
		raw, ok = iv.ask(v)
	}
	if !ok {
		if v.Required() {
			return cty.NilVal, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Failed to request input from user for variable var.%s", v.Name),
				Subject:  v.DeclRange.Ptr(),
			}}
		}
		return v.Default, nil
	}
	return raw.Parse(v.ParsingMode)
}
