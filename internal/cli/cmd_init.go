package cli

import (
	"context"
	"flag"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/internal/initrun"
)

const initUsage = `
Usage: tfdeps [global options] init [options]

  Installs the providers the configuration in the working directory
  requires, and creates or updates the dependency lock file
  .terraform.lock.hcl, as "tofu init" does, after installing the modules
  the configuration calls into .terraform/modules, and records the
  backend in .terraform/terraform.tfstate as "tofu init" does, without
  contacting it (see -backend-check).

Options:

  -upgrade              Ignore the versions in the lock file and install the
                        newest versions the configuration allows; reinstall
                        every module.

  -get=false            Do not install modules; fail when one is missing.

  -from-module=SOURCE   Copy the module at SOURCE (any module source
                        address; without its dot-files) into the working
                        directory, which must be empty, before initialising
                        it.

  -lockfile=readonly    Do not change the lock file; fail when the providers
                        required differ from those it records.

  -plugin-dir=DIR       Install providers only from this directory (may be
                        repeated); replaces every other installation method.

  -test-directory=DIR   The directory of test files (default "tests").

  -state=PATH           The local state file whose resources' providers are
                        required too. Default: terraform.tfstate, or the
                        current workspace's state file.

  -input=false          Do not ask on standard input for the values of
                        required variables that loading needs (module
                        sources and versions); fail instead, as -json does.

  -backend=false        Keep the backend recorded by the last init (nothing
                        is configured). Alias: -cloud=false.

  -backend-config=PATH or -backend-config=KEY=VALUE
                        Backend settings merged over the backend block, as
                        "tofu init" merges them. May be repeated.

  -reconfigure          Record the backend configuration anew, ignoring the
                        one recorded before (no state is migrated).

  -migrate-state, -force-copy
                        tfdeps does not migrate state: where "tofu init"
                        would, init fails and says to run it.

  -backend-check        Contact the backend as "tofu init" does, for the
                        backends tfdeps can reach (local, http, s3, gcs,
                        azurerm; with -compat=terraform, local, http, s3
                        and gcs):
                        check its settings and credentials, list its
                        workspaces and read the selected workspace's
                        state; nothing is written to it. Without it, a
                        remote backend's credentials and reachability are
                        checked by the first plan.

  -lock=BOOL, -lock-timeout=DURATION, -ignore-remote-version
                        Accepted and validated as "tofu init" does; no
                        effect.

  -target=ADDR, -compact-warnings=BOOL, -create-default-workspace=BOOL,
  -enable-pluggable-state-storage-experiment
                        With -compat=terraform only: accepted and validated
                        as "terraform init" does; no effect.

  -recursive            Initialise every root module at or below the working
                        directory (found as "providers lock -recursive"
                        finds them), as init alone does in each, in one
                        run that shares downloads between them; each
                        root's output is printed in turn under a header,
                        then a table of the roots. Paths given in options
                        are relative to the working directory. Exits 1
                        when any root failed.

  -parallelism=N        With -recursive: how many root modules to
                        initialise at once (default: the number of CPUs).

  -json                 Print one JSON object per line instead of text.

  -json-into=FILE       Print the text output, and write the JSON lines to
                        FILE too (not with -json; not with -compat=terraform).

  -no-color             Plain text output: no colour and no live display.
`

// initOptions are the flags of "tfdeps init".
type initOptions struct {
	upgrade    bool
	lockfile   string
	pluginDirs []string
	testsDir   string
	statePath  string
	json       bool
	noColor    bool
	backend    bool
	vars       *varFlags
	get        bool
	input      bool
	// fromModule is -from-module=SOURCE (initrun's from_module.go).
	fromModule string
	// recursive is -recursive: every root module at or below the working
	// directory (init_recursive.go), parallelism roots at a time
	// (-parallelism; 0: one per CPU).
	recursive   bool
	parallelism int
	backendFlags
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// runInit implements "tfdeps init".
func runInit(m *Meta, args []string) int {
	var o initOptions
	fs := newInitFlagSet(m, &o)
	diags, help := parseInitArgs(m, fs, &o, args)
	if help {
		fs.Usage()
		return 0
	}
	defer o.jsonInto.close()
	if diags.HasErrors() {
		return initArgsError(m, fs, o, diags)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if o.recursive {
		return runInitRecursive(ctx, m, &o)
	}
	return initrun.Run(ctx, initEnv(m), o.runOptions())
}

// initEnv is init's environment in the working directory: m's, and the
// CLI configuration, loaded (its problems printed: OpenTofu prints them
// before the command starts, so before the -json version line), with the
// registry clients and the workdir options built from it.
func initEnv(m *Meta) *initrun.Env {
	env := m.runEnv()
	env.CLIOptions = m.cliConfigOptions()
	env.CLIConfig = loadCLIConfig(m, env.CLIOptions)
	env.Registry = newRegistryClient(m, env.CLIConfig)
	env.ModuleRegistry = newModuleRegistry(m, env.CLIConfig)
	env.Workdir = workdirOptions(m, env.CLIConfig, nil, env.Registry)
	return env
}

// runOptions are o for initrun.
func (o *initOptions) runOptions() initrun.Options {
	var into io.Writer
	if o.jsonInto.file != nil {
		into = o.jsonInto.file
	}
	return initrun.Options{
		Upgrade: o.upgrade, LockfileReadonly: o.lockfile == "readonly", PluginDirs: o.pluginDirs,
		TestsDir: o.testsDir, StatePath: o.statePath, JSON: o.json, JSONInto: into, NoColor: o.noColor,
		Backend: o.backend, Get: o.get, Input: o.input, FromModule: o.fromModule, Vars: o.vars.opts,
		BackendConfigs: o.configs, Reconfigure: o.reconfigure, MigrateState: o.migrateState,
		ForceCopy: o.forceCopy, BackendCheck: o.backendCheck, Cloud: o.cloud,
	}
}

// newInitFlagSet is init's flag set, parsing into o.
func newInitFlagSet(m *Meta, o *initOptions) *flag.FlagSet {
	fs := newFlagSet(m, "init", initUsage)
	fs.BoolVar(&o.upgrade, "upgrade", false, "")
	fs.StringVar(&o.lockfile, "lockfile", "", "")
	fs.Var((*stringList)(&o.pluginDirs), "plugin-dir", "")
	fs.StringVar(&o.testsDir, "test-directory", config.DefaultTestsDir, "")
	fs.StringVar(&o.statePath, "state", "", "")
	fs.BoolVar(&o.json, "json", false, "")
	fs.BoolVar(&o.noColor, "no-color", !m.Color, "")
	o.vars = addVarFlags(m, fs)
	fs.BoolVar(&o.input, "input", true, "")
	fs.BoolVar(&o.backend, "backend", true, "")
	fs.BoolVar(&o.get, "get", true, "")
	fs.StringVar(&o.fromModule, "from-module", "", "")
	fs.BoolVar(&o.recursive, "recursive", false, "")
	fs.IntVar(&o.parallelism, "parallelism", 0, "")
	o.backendFlags.register(fs, m.Flavour)
	return fs
}
