package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/fleet"
	"github.com/tfdeps/tfdeps/internal/diagrender"
	"github.com/tfdeps/tfdeps/internal/fleetview"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/requirements"
	"github.com/tfdeps/tfdeps/workdir"
)

// lockFileName is the dependency lock file, in the working directory.
const lockFileName = ".terraform.lock.hcl"

const lockVerifyUsage = `
Usage: tfdeps [global options] lock verify

  Checks, without network access, that the dependency lock file
  .terraform.lock.hcl selects a version for every provider the configuration
  in the working directory requires, and that each selected version meets the
  configuration's version constraints. This is the check OpenTofu makes
  before commands that use providers without installing them.

  A configuration that requires no provider besides the built-in
  "terraform" one needs no lock file ("tofu init" writes none): it is
  consistent with or without one.

  Exits with status 0 when the lock file is consistent with the
  configuration, 1 when it is not (a required provider without a selection,
  also when there is no lock file at all, or a selection the version
  constraints exclude), when the directory has no configuration files, or
  when the configuration or the lock file has errors.

Options:

  -recursive            Verify every root module at or below the working
                        directory (as "providers lock -recursive" finds them),
                        each root's output under a header, then a table;
                        -var-file names are relative to the working directory.

  -parallelism=N        With -recursive: roots at once (default: CPUs).
`

// runLockVerify implements "tfdeps lock verify".
func runLockVerify(m *Meta, args []string) int {
	fs := newFlagSet(m, "lock verify", lockVerifyUsage)
	vars := addVarFlags(m, fs)
	ff := addFleetFlags(fs)
	if code, ok := parseFlags(m, fs, args); !ok {
		return code
	}
	if !ff.recursive {
		return lockVerifyIn(m, fs, vars, "")
	}
	if fs.NArg() > 0 {
		return usageError(m, fs, unexpectedArgumentDiag())
	}
	roots, ok := fleetRoots(m)
	if !ok {
		return 1
	}
	if err := absVarFiles(m, vars.opts); err != nil {
		return recursiveUsageError(m, err.Error())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	f := fleetRun{command: fleetview.LockVerify, parallelism: ff.parallelism}
	parses := lockVerifyParses() // each distinct file parsed once for all roots
	return f.run(ctx, m, roots, func(_ context.Context, t *fleet.Task) int {
		rv := *vars
		return lockVerifyIn(rootMeta(m, t.Stdout, t.Stderr), fs, &rv, t.Root, config.WithParseCache(parses))
	})
}

// lockVerifyParses makes a -recursive run's parse cache (tests count its
// parses).
var lockVerifyParses = func() *config.ParseCache { return config.NewParseCache(0) }

// lockVerifyIn is lock verify of the root module in dir ("": the working
// directory), its paths shown as from inside dir.
func lockVerifyIn(m *Meta, fs *flag.FlagSet, vars *varFlags, dir string, extra ...config.Option) int {
	varOpts, varDiags := vars.configOptionsIn(m, dir)
	varOpts = append(varOpts, extra...)
	if varDiags.HasErrors() {
		return printVarErrors(m, vars, varDiags)
	}
	if fs.NArg() > 0 {
		return usageError(m, fs, unexpectedArgumentDiag())
	}
	diags, tree, ok := verifyLock(m, dir, varOpts...)
	newDiagPrinter(m, diagrender.SnippetFilesIn(dir, diags, treeFiles(tree))).Print(diags)
	if !ok {
		return 1
	}
	if _, err := os.Stat(filepath.Join(dir, lockFileName)); err != nil {
		fmt.Fprintf(m.Stdout, "The configuration requires no providers: there is nothing to lock and no dependency lock file %s is needed.\n", lockFileName)
		return 0
	}
	fmt.Fprintf(m.Stdout, "The dependency lock file %s is consistent with the configuration.\n", lockFileName)
	return 0
}

// verifyLock loads the configuration's requirements (configuration only,
// no state, as OpenTofu's check does) and the lock file and checks them
// against each other. It stops after the first step that has errors. A
// directory without configuration fails. A missing lock file reads as one
// without selections: every provider the configuration requires is then
// reported unselected, and a configuration that requires none (built-in
// providers need no selection) is consistent, as tofu init writes no lock
// file for it.
func verifyLock(m *Meta, dir string, opts ...config.Option) (hcl.Diagnostics, *config.Tree, bool) {
	if diags := noConfigurationFiles(m, dir); diags != nil {
		return diags, nil, false
	}
	in := []config.Option{config.WithFileSystem(config.OSFileSystem{Root: dir}), config.WithWorkingDir(dir)}
	res, diags := requirements.Load(".", requirements.Options{
		Config: m.configOptions(append(in, opts...)...),
	})
	if res == nil || diags.HasErrors() {
		return diags, resultTree(res), false
	}
	lockOpts := m.lockReadOptions()
	lockOpts.Dir = dir
	locks, _, lockDiags := lockfile.ReadFile(lockFileName, lockOpts)
	if lockDiags.HasErrors() {
		// As OpenTofu reports a broken lock file: one error.
		return append(diags, workdir.LockReadFailure(lockDiags)), res.Tree, false
	}
	diags = append(diags, lockDiags...)
	diags = append(diags, lockfile.CheckConsistency(res.Providers, locks, lockfile.ConsistencyOptions{Flavour: m.Flavour})...)
	return diags, res.Tree, !diags.HasErrors()
}

// absWorkingDir is the working directory as an absolute path.
func absWorkingDir(m *Meta) string {
	dir, _ := m.Getwd()
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

func resultTree(res *requirements.Result) *config.Tree {
	if res == nil {
		return nil
	}
	return res.Tree
}
