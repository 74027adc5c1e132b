package cli

import (
	"context"
	"flag"
	"os"
	"os/signal"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/fleet"
	"github.com/tfdeps/tfdeps/internal/fleetview"
	"github.com/tfdeps/tfdeps/internal/initrun"
	"github.com/tfdeps/tfdeps/workdir"
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

  -recursive            Run get in every root module at or below the working
                        directory (as "providers lock -recursive" finds them),
                        each root's output under a header, then a table (with
                        -json: a line per root and a summary). Module packages
                        are fetched once; -var-file names are relative to the
                        working directory. Not with -json-into.

  -parallelism=N        With -recursive: roots at once (default: CPUs).
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
	ff := addFleetFlags(fs)
	if code, ok := jf.parse(m, fs, args); !ok {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	g := &getRun{m: m, opts: workdir.Options{Flavour: m.Flavour, Version: m.Version(), DataDir: m.Getenv("TF_DATA_DIR"), TestsDir: testsDir, Upgrade: update, ModuleCacheDir: moduleCacheDir(m), ModuleParallelism: moduleParallelism(m)}}
	if ff.recursive {
		return g.recursive(ctx, fs, ff, jf, vars, noColor)
	}
	if m.Flavour == flavour.Terraform {
		if fs.NArg() > 0 {
			// terraform get: the diagnostic alone, no help text.
			p := newDiagPrinter(m, nil)
			p.ExtraNewline = true
			p.Print(hcl.Diagnostics{errorDiag("Too many command line arguments", "Expected no positional arguments. Did you mean to use -chdir?")})
			return 1
		}
		g.view = initrun.NewGetView(m.runEnv(), noColor, false, nil)
		defer g.view.Close()
		return g.terraformGet(ctx, vars)
	}
	// The CLI configuration's problems come first (tofu's main), then the
	// output flags' and the view's version line.
	cfg := loadCLIConfig(m, m.cliConfigOptions())
	if code, ok := jf.open(m, fs); !ok {
		return code
	}
	defer jf.close()
	g.view = initrun.NewGetView(m.runEnv(), noColor, jf.json, jf.intoWriter())
	defer g.view.Close()
	if fs.NArg() > 0 {
		// tofu get refuses arguments: with -json as a JSON line, else as
		// an argument error with the help text.
		d := errorDiag("Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?")
		if jf.json {
			g.view.Diagnostics(hcl.Diagnostics{d})
			return 1
		}
		return usageError(m, fs, d)
	}
	return g.tofuGet(ctx, vars, cfg)
}

// getRun is one execution of get.
type getRun struct {
	m    *Meta
	opts workdir.Options
	view initrun.View
}

// newRun is the module installation of get, rendered by the view.
func (g *getRun) newRun() *workdir.Run {
	return workdir.NewRun(g.opts, initrun.GetEvents(g.view, g.m.Flavour))
}

// tofuGet is tofu get (workdir.Run.Get): it makes the modules directory
// and reads the manifest before it reads the variable values.
func (g *getRun) tofuGet(ctx context.Context, vars *varFlags, cfg *cliconfig.Config) int {
	m := g.m
	if diags := g.newRun().PrepareGet(); diags.HasErrors() {
		g.view.Diagnostics(diags)
		return 1
	}
	varOpts, varDiags := vars.configOptionsIn(m, g.opts.Dir)
	if varDiags.HasErrors() {
		if !initrun.IsHumanView(g.view) {
			g.view.Diagnostics(varDiags)
			return 1
		}
		return printVarErrors(m, vars, varDiags)
	}
	g.opts.Variables = append(g.opts.Variables[:len(g.opts.Variables):len(g.opts.Variables)], varOpts...)
	if g.opts.ModuleRegistry == nil {
		g.opts.ModuleRegistry = newModuleRegistry(m, cfg)
	}
	return g.get(ctx)
}

// terraformGet is terraform get: the variable values, then the CLI
// configuration's problems, then the installation.
func (g *getRun) terraformGet(ctx context.Context, vars *varFlags) int {
	m := g.m
	varOpts, varDiags := vars.configOptionsIn(m, g.opts.Dir)
	if varDiags.HasErrors() {
		return printVarErrors(m, vars, varDiags)
	}
	g.opts.Variables = append(g.opts.Variables[:len(g.opts.Variables):len(g.opts.Variables)], varOpts...)
	if g.opts.ModuleRegistry == nil {
		cfg := loadCLIConfig(m, m.cliConfigOptions())
		g.opts.ModuleRegistry = newModuleRegistry(m, cfg)
	}
	return g.get(ctx)
}

// get installs the modules and shows the diagnostics.
func (g *getRun) get(ctx context.Context) int {
	diags, err := g.newRun().Get(ctx)
	g.view.Diagnostics(diags)
	if err != nil {
		return 1
	}
	return 0
}

// recursive is get -recursive: get in every root module (fleetRun), the
// CLI configuration loaded once, the module packages fetched once for all
// roots (a shared module cache) and each file parsed once.
func (g *getRun) recursive(ctx context.Context, fs *flag.FlagSet, ff *fleetFlags, jf *jsonFlags, vars *varFlags, noColor bool) int {
	m := g.m
	if jf.into.path != "" {
		return recursiveUsageError(m, "The -recursive option cannot be used with -json-into.")
	}
	if fs.NArg() > 0 {
		return usageError(m, fs, unexpectedArgumentDiag())
	}
	roots, ok := fleetRoots(m)
	if !ok {
		return 1
	}
	g.opts.ModuleRegistry = newModuleRegistry(m, loadCLIConfig(m, m.cliConfigOptions()))
	if err := absVarFiles(m, vars.opts); err != nil {
		return recursiveUsageError(m, err.Error())
	}
	shared, err := fleet.NewShared(fleet.SharedOptions{ModuleCacheDir: g.opts.ModuleCacheDir, ModuleRegistry: g.opts.ModuleRegistry, Near: "."})
	if err != nil {
		newDiagPrinter(m, nil).Print(hcl.Diagnostics{errorDiag("Failed to prepare the shared work", err.Error())})
		return 1
	}
	defer shared.Close()
	g.opts.ModuleCacheDir = shared.Modules.Dir()
	if shared.ModuleRegistry != nil {
		g.opts.ModuleRegistry = shared.ModuleRegistry
	}
	g.opts.Variables = []config.Option{config.WithParseCache(shared.Parses)}
	f := fleetRun{command: fleetview.Get, parallelism: ff.parallelism, json: jf.json, noColor: noColor}
	return f.run(ctx, m, roots, func(ctx context.Context, t *fleet.Task) int {
		root, rm := t.Root, rootMeta(m, t.Stdout, t.Stderr)
		rv := *vars
		rg := &getRun{m: rm, opts: g.opts}
		rg.opts.Dir = root
		env := rm.runEnv()
		env.Dir, env.LiveDisplay, env.Progress = root, nil, t.Progress
		rg.view = initrun.NewGetView(env, noColor, jf.json, nil)
		defer rg.view.Close()
		if m.Flavour == flavour.Terraform {
			return rg.terraformGet(ctx, &rv)
		}
		return rg.tofuGet(ctx, &rv, nil)
	})
}
