package cli

import (
	"context"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
	"github.com/tfdeps/tfdeps/requirements"
)

const getUsage = `
Usage: tfdeps [global options] get [options]

  Downloads and installs the modules the configuration in the working
  directory calls, into .terraform/modules, as "tofu get" does.

Options:

  -update               Check already installed modules for newer versions
                        and update them.

  -test-directory=DIR   The directory of test files (default "tests").

  -no-color             Plain text output: no live display on a terminal.

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
	jf := addJSONFlags(m, fs)
	fs.StringVar(&testsDir, "test-directory", config.DefaultTestsDir, "")
	vars := addVarFlags(m, fs)
	if code, ok := jf.parse(m, fs, args); !ok {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	mi := &moduleInstall{get: true, m: m, testsDir: testsDir, upgrade: update}
	if m.Flavour == flavour.Terraform {
		if fs.NArg() > 0 {
			// terraform get: the diagnostic alone, no help text.
			p := newDiagPrinter(m, nil)
			p.extraNewline = true
			p.Print(hcl.Diagnostics{errorDiag("Too many command line arguments", "Expected no positional arguments. Did you mean to use -chdir?")})
			return 1
		}
		mi.view = getHumanView(m, noColor, false)
		defer mi.view.Close()
		return mi.terraformGet(ctx, vars)
	}
	// The CLI configuration's problems come first (tofu's main), then the
	// output flags' and the view's version line.
	cfg := loadCLIConfig(m, m.cliConfigOptions())
	if code, ok := jf.open(m, fs); !ok {
		return code
	}
	defer jf.close()
	mi.view = jf.initView(m, getHumanView(m, noColor, jf.json))
	defer mi.view.Close()
	if fs.NArg() > 0 {
		// tofu get refuses arguments: with -json as a JSON line, else as
		// an argument error with the help text.
		d := errorDiag("Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?")
		if jf.json {
			mi.view.Diagnostics(hcl.Diagnostics{d})
			return 1
		}
		return usageError(m, fs, d)
	}
	return mi.tofuGet(ctx, vars, cfg)
}

// tofuGet is tofu get: it makes the modules directory and reads the
// manifest first, whatever the configuration; then it installs the calls
// of the root module even when the root module has errors (they are
// reported, and get fails, but modules.json is written unless installing
// failed). Without module calls it writes a manifest of the root alone.
func (mi *moduleInstall) tofuGet(ctx context.Context, vars *varFlags, cfg *cliconfig.Config) int {
	m := mi.m
	if err := os.MkdirAll(modulesDir(m), 0o777); err != nil {
		mi.view.Diagnostics(hcl.Diagnostics{errorDiag("Failed to create local modules directory", err.Error())})
		return 1
	}
	if _, err := manifest.Read(filepath.Join(modulesDir(m), manifest.FileName)); err != nil {
		// tofu's configuration loader fails on it, reported twice.
		msg := "failed to read module manifest: " + err.Error()
		mi.view.Diagnostics(hcl.Diagnostics{errorDiag("Failed to create the config loader", msg), errorDiag(msg, "")})
		return 1
	}
	varOpts, varDiags := vars.configOptions(m)
	if varDiags.HasErrors() {
		if !isHumanView(mi.view) {
			mi.view.Diagnostics(varDiags)
			return 1
		}
		return printVarErrors(m, vars, varDiags)
	}
	mi.vars = varOpts
	mi.registry = newModuleRegistry(m, cfg)
	root, diags := config.LoadDir(".", m.configOptions(append([]config.Option{config.WithTestsDir(mi.testsDir)}, mi.vars...)...)...)
	if root == nil {
		mi.view.Diagnostics(diags)
		return 1
	}
	diags = mi.install(ctx, root, diags)
	mi.view.Diagnostics(diags)
	if diags.HasErrors() {
		return 1
	}
	return 0
}

// terraformGet is terraform get: a root module with errors stops it,
// and so does its required_version.
func (mi *moduleInstall) terraformGet(ctx context.Context, vars *varFlags) int {
	m := mi.m
	varOpts, varDiags := vars.configOptions(m)
	if varDiags.HasErrors() {
		return printVarErrors(m, vars, varDiags)
	}
	mi.vars = varOpts
	view := mi.view
	cfg := loadCLIConfig(m, m.cliConfigOptions())
	mi.registry = newModuleRegistry(m, cfg)
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
	if d := root.CheckTerraformCore(m.Version(), "", ""); d.HasErrors() {
		// terraform get checks the root module's required_version first.
		view.Diagnostics(d)
		return 1
	}
	// Without module calls, terraform get too writes the manifest of the
	// root module alone.
	diags = append(diags, mi.install(ctx, root, nil)...)
	view.Diagnostics(diags)
	if diags.HasErrors() {
		return 1
	}
	return 0
}

// getTreeChecks are the checks tofu get's installer makes while building
// the tree: those of child modules first; when they find no error, those
// of provider names and configurations.
func getTreeChecks(tree *config.Tree) hcl.Diagnostics {
	diags := requirements.CheckChildModules(tree)
	if diags.HasErrors() {
		return diags
	}
	return append(diags, requirements.Check(tree)...)
}
