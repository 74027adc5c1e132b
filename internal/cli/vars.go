package cli

import (
	"flag"
	"io"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/internal/initrun"
)

// varsHelp is the help text of the -var and -var-file options, appended to
// the help of the commands that take them.
const varsHelp = `
Variable options:

  -var 'foo=bar'        Set a value for one of the input variables in the
                        root module of the configuration, for the variables
                        OpenTofu evaluates while loading it (module sources
                        and versions). Use this option more than once to set
                        more than one variable.

  -var-file=filename    Load variable values from the given file, in addition
                        to the default files terraform.tfvars and *.auto.tfvars.
                        Use this option more than once to include more than
                        one variables file.
`

// varFlags are a command's -var and -var-file options, in command-line
// order (OpenTofu applies them in that order, mixed).
type varFlags struct {
	opts []config.VarOption
	// files are the variables files read by configOptions, for source
	// snippets in diagnostics.
	files map[string]*hcl.File
	// values are the values configOptions collected.
	values *config.InputValues
}

// addVarFlags registers -var and -var-file on fs and adds them to its
// help text.
func addVarFlags(m *Meta, fs *flag.FlagSet) *varFlags {
	v := &varFlags{}
	if usage := fs.Usage; usage != nil {
		fs.Usage = func() {
			usage()
			io.WriteString(m.Stdout, varsHelp)
		}
	}
	fs.Func("var", "", func(s string) error {
		v.opts = append(v.opts, config.VarOption{Value: s})
		return nil
	})
	fs.Func("var-file", "", func(s string) error {
		v.opts = append(v.opts, config.VarOption{File: true, Value: s})
		return nil
	})
	return v
}

// configOptions collects the root module's variable values, as OpenTofu
// does before loading the configuration: TF_VAR_ environment variables,
// terraform.tfvars, terraform.tfvars.json and *.auto.tfvars(.json) of the
// working directory, then the options. It returns the loader options that
// use them and the current workspace; error diagnostics mean the command
// must stop before loading.
func (v *varFlags) configOptions(m *Meta) ([]config.Option, hcl.Diagnostics) {
	return v.configOptionsIn(m, "")
}

// configOptionsIn is configOptions for the root module in dir ("": the
// working directory).
func (v *varFlags) configOptionsIn(m *Meta, dir string) ([]config.Option, hcl.Diagnostics) {
	iv, opts, diags := initrun.VariableOptions(&initrun.Env{Dir: dir, Getenv: m.Getenv, Environ: m.Environ}, v.opts)
	v.files, v.values = iv.Files, iv
	return opts, diags
}

// printVarErrors prints the errors of collecting variable values (as
// JSON for -json) and returns the exit code.
func printVarErrors(m *Meta, v *varFlags, diags hcl.Diagnostics) int {
	newDiagPrinter(m, v.files).Print(diags)
	return 1
}

// printVarErrorsExtra prints the errors as providers lock and providers
// mirror print diagnostics (OpenTofu crashes there: tfdeps reports them).
func printVarErrorsExtra(m *Meta, v *varFlags, diags hcl.Diagnostics) int {
	p := newDiagPrinter(m, v.files)
	p.ExtraNewline = true
	p.Print(diags)
	return 1
}
