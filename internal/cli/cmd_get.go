package cli

import (
	"context"
	"os"
	"os/signal"

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
	if code, ok := parseFlags(m, fs, args); !ok {
		return code
	}
	varOpts, varDiags := vars.configOptions(m)
	if varDiags.HasErrors() {
		return printVarErrors(m, vars, varDiags)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	view := &plainView{m: m, get: true}
	cfg := loadCLIConfig(m, m.cliConfigOptions())
	mi := &moduleInstall{get: true, m: m, testsDir: testsDir, upgrade: update, view: view, registry: newModuleRegistry(m, cfg), vars: varOpts}
	root, diags := mi.loadRoot()
	if diags.HasErrors() && m.Flavour == flavour.Terraform && root != nil && onlyTestFileErrors(diags) && hasModuleCalls(root) {
		// terraform get loads the root module without its test files
		// before installing: its installer installs the modules and
		// reports the test files' errors with its own.
		view.Diagnostics(mi.install(ctx, root, diags))
		return 1
	}
	if diags.HasErrors() {
		if m.Flavour == flavour.Terraform && !onlyTestFileErrors(diags) {
			// Errors in the root module's own files stop terraform get
			// before it reads the test files.
			diags = withoutTestFileDiags(diags)
		}
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
