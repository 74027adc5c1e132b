package config

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// WithRootVariableValues makes LoadTree and LoadTreeWith, in the Terraform
// flavour, read the root module's variable values (WithInputValues) once the
// root module and its tests have loaded without errors, as terraform does
// before it builds the configuration for providers, providers lock and
// providers mirror (RootVariableValueDiags); when that reports errors the
// child modules are not loaded. Without it, or in the OpenTofu flavour
// (tofu reads the values only when it evaluates them), nothing is checked.
func WithRootVariableValues() Option { return func(o *options) { o.rootValues = true } }

// RootVariableValueDiags is what Terraform reports when it reads the
// root module's variable values while loading the configuration: each
// value given for a declared variable must parse in the variable's parsing
// mode; a value for a variable the module does not declare is a warning
// when it comes from a variables file (for the first two such names; a
// third or more add one summary warning), an error when it comes from -var,
// and nothing from the environment; a const variable without a default
// needs a value. Terraform visits the values in map order: tfdeps visits
// them by name, and the missing const variables in declaration order. It
// is nil for a module not loaded as the root module in the Terraform
// flavour.
func (m *Module) RootVariableValueDiags() hcl.Diagnostics {
	if m == nil || m.flavour != flavour.Terraform || m.static == nil || len(m.static.call.path) > 0 {
		return nil
	}
	iv := m.static.values
	var diags hcl.Diagnostics
	var names []string
	if iv != nil {
		iv.mu.Lock()
		for name := range iv.values {
			names = append(names, name)
		}
		iv.mu.Unlock()
	}
	slices.Sort(names)
	for _, name := range names {
		v, declared := m.Variables[name]
		if !declared {
			continue
		}
		raw, _ := iv.Lookup(name)
		_, d := raw.Parse(v.ParsingMode)
		diags = append(diags, d...)
	}
	inFiles := 0
	for _, name := range names {
		if _, declared := m.Variables[name]; declared {
			continue
		}
		raw, _ := iv.Lookup(name)
		if _, d := raw.Parse(VariableParseLiteral); d.HasErrors() {
			continue
		}
		switch raw.Source {
		case FromAutoFile, FromNamedFile:
			if inFiles < 2 {
				diags = append(diags, warningDiag("Value for undeclared variable", fmt.Sprintf("The root module does not declare a variable named %q but a value was found in file %q. If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option.", name, raw.Expr.Range().Filename), nil))
			}
			inFiles++
		case FromEnvironment:
		case FromCommandLine:
			diags = append(diags, errorDiag("Value for undeclared variable", fmt.Sprintf("A variable named %q was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", name), nil))
		default:
			diags = append(diags, errorDiag("Value for undeclared variable", fmt.Sprintf("A variable named %q was assigned a value, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", name), nil))
		}
	}
	if inFiles > 2 {
		diags = append(diags, warningDiag("Values for undeclared variables", fmt.Sprintf("In addition to the other similar warnings shown, %d other variable(s) defined without being declared.", inFiles-2), nil))
	}
	return append(diags, m.MissingConstVariables()...)
}

// noValueForConst is Terraform's error for a const root variable that has
// no default and is given no value.
func noValueForConst(v *Variable) *hcl.Diagnostic {
	return errorDiag("No value for required variable",
		fmt.Sprintf("The root module input variable %q is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", v.Name),
		v.DeclRange.Ptr())
}
