package cli

import (
	"context"
	"os"
	"os/signal"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
)

const getUsage = `
Usage: tfdeps [global options] get [options]

  Downloads and installs the modules the configuration in the working
  directory calls, into .terraform/modules, as "tofu get" does.

Options:

  -update               Check already installed modules for newer versions
                        and update them.

  -test-directory=DIR   The directory of test files (default "tests").

  -no-color             Accepted for compatibility; the output has no colour.

  -json                 Print OpenTofu's machine-readable output: one JSON
                        object per line, as "tofu get -json". Not in the
                        Terraform flavour (terraform get has no -json and
                        refuses it).

  -json-into=FILE       Print the usual lines, and write the lines -json
                        would print into FILE. Not in the Terraform flavour.
`

// runGet implements "tfdeps get".
func runGet(m *Meta, args []string) int {
	var update, noColor bool
	var testsDir string
	fs := newFlagSet(m, "get", getUsage)
	fs.BoolVar(&update, "update", false, "")
	fs.BoolVar(&noColor, "no-color", false, "")
	fs.StringVar(&testsDir, "test-directory", config.DefaultTestsDir, "")
	vars := addVarFlags(m, fs)
	jf := addJSONFlags(m, fs)
	if code, ok := jf.parse(m, fs, args); !ok {
		return code
	}
	json := jf.json
	// As tofu, the CLI configuration's problems come first, before the
	// JSON view's version line.
	cfg := loadCLIConfig(m, m.cliConfigOptions())
	if code, ok := jf.open(m, fs); !ok {
		return code
	}
	defer jf.close()
	var view initView = &plainView{m: m, get: true}
	if json {
		view = newBareJSONView(m)
	}
	if jf.file != nil {
		view = initViews{view, jf.intoView(m)}
	}
	if fs.NArg() > 0 && json {
		// tofu get refuses arguments; tfdeps get (human output) ignores
		// them as it always has.
		view.Diagnostics(hcl.Diagnostics{errorDiag("Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?")})
		return 1
	}
	varOpts, varDiags := vars.configOptions(m)
	if varDiags.HasErrors() {
		if json {
			view.Diagnostics(varDiags)
			return 1
		}
		return printVarErrors(m, vars, varDiags)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	mi := &moduleInstall{get: true, m: m, testsDir: testsDir, upgrade: update, view: view, registry: newModuleRegistry(m, cfg), vars: varOpts}
	root, diags := mi.loadRoot()
	if diags.HasErrors() {
		view.Diagnostics(diags)
		return 1
	}
	if d := root.CheckTerraformCore(m.Version(), "", ""); m.Flavour == flavour.Terraform && d.HasErrors() {
		// terraform get checks the root module's required_version first.
		view.Diagnostics(d)
		return 1
	}
	if !hasModuleCalls(root) {
		view.Diagnostics(diags)
		return 0
	}
	diags = append(diags, mi.install(ctx, root, nil)...)
	view.Diagnostics(diags)
	if diags.HasErrors() {
		return 1
	}
	return 0
}
