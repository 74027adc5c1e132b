// Package initrun runs one "init" of one working directory and renders
// it as the emulated tool does: the steps of package workdir (backend,
// modules, requirements, providers, lock file) interleaved with the lines,
// live display or JSON objects that tofu (or terraform) prints between
// them, and the exit code. It also holds the views and module-event
// rendering that "get" shares with init.
//
// It does not parse flags, load the CLI configuration or print that
// configuration's problems, or build registry clients and caches: those
// belong to the process, and the caller (the CLI) does them once and
// passes the results in Env. The boundary is there because a command line
// and a run have different lifetimes: many runs of different directories
// may go on at once in one process, each rendering into its own writers.
// So everything a run touches of the outside world comes in through Env
// (the directory, the writers, standard input, the environment's
// variables, the live display), and nothing here reads the process's
// environment variables or standard streams, changes directory or handles
// signals: the caller passes a context cancelled on interrupt. (Two
// exceptions remain: a remote state read with -backend-check goes through
// a temporary file in the process's temporary directory, and workdir's
// steps use the process's working directory until workdir takes one.)
package initrun

import (
	"context"
	"io"

	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/livedisplay"
	"github.com/tfdeps/tfdeps/moduleinstall"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/workdir"
)

// Env is what one run may touch of the outside world, and the process's
// settings it runs with.
type Env struct {
	// Dir is the working directory to initialise ("": the process's).
	// The run reads and writes its files there, and workdir's steps
	// work in it (workdir.Options.Dir).
	Dir    string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads the run's environment variables; Environ lists them
	// as KEY=VALUE entries (for TF_VAR_ values).
	Getenv  func(string) string
	Environ func() []string
	// Flavour is the emulated product, TofuVersion and TerraformVersion
	// its emulated versions.
	Flavour          flavour.Flavour
	TofuVersion      string
	TerraformVersion string
	// Color is the global colour setting (off with the global -no-color).
	Color bool
	// LiveDisplay makes the live display of download progress on Stdout
	// (livedisplay.OnTerminal, which watches the terminal's width); nil
	// when Stdout is no interactive terminal (or in CI). The run shows
	// one unless colour is off or the output is JSON.
	LiveDisplay func() *livedisplay.Display
	// Getwd returns the process's working directory, against which a
	// relative Dir is taken.
	Getwd func() (string, error)
	// The CLI configuration and what the caller built from it: the
	// loader's inputs, the configuration loaded (its problems already
	// shown), the registry client, the module registry, and the workdir
	// options of the process (flavour, caches, environment switches;
	// Providers and ModuleRegistry are set by the run).
	CLIOptions     cliconfig.Options
	CLIConfig      *cliconfig.Config
	Registry       *registry.Client
	ModuleRegistry moduleinstall.Registry
	Workdir        workdir.Options
	// Providers, when set, is the source of provider packages, instead of
	// one built from the CLI configuration and -plugin-dir (a fleet
	// builds one for all its runs). Workdir.Variables are loader options
	// every load passes, before the run's variable values (e.g. a shared
	// config.ParseCache).
	Providers providersource.Source
	// Progress, when set, hears the run's progress: packages installed
	// (provider packages installed, module packages fetched) and bytes
	// downloaded, as they happen (a fleet's live line); it may be called
	// from several goroutines.
	Progress func(packages int, bytes int64)
}

// Version is the emulated product's version.
func (m *Env) Version() string {
	if m.Flavour == flavour.Terraform {
		return m.TerraformVersion
	}
	return m.TofuVersion
}

// Command is the emulated product's command name (tofu, terraform).
func (m *Env) Command() string { return m.Flavour.Command() }

// Options are init's flags.
type Options struct {
	Upgrade bool
	// LockfileReadonly is -lockfile=readonly.
	LockfileReadonly bool
	PluginDirs       []string
	TestsDir         string
	// StatePath is -state ("": the backend's).
	StatePath string
	JSON      bool
	// JSONInto receives the JSON lines too (-json-into's file), if set.
	JSONInto io.Writer
	// NoColor is init's own -no-color.
	NoColor bool
	// Backend false is -backend=false (or -cloud=false).
	Backend bool
	// Get false is -get=false.
	Get bool
	// Input false is -input=false.
	Input bool
	// FromModule is -from-module=SOURCE.
	FromModule string
	// Vars are -var and -var-file, in order.
	Vars []config.VarOption
	// BackendConfigs are the -backend-config values, in order.
	BackendConfigs []string
	Reconfigure    bool
	MigrateState   bool
	ForceCopy      bool
	BackendCheck   bool
	Cloud          bool
}

// options are Options under the names the run's steps use.
type options struct {
	upgrade                              bool
	lockfile                             string
	pluginDirs                           []string
	testsDir, statePath                  string
	json, noColor, backend, get, input   bool
	fromModule                           string
	vars                                 *variables
	configs                              []string
	reconfigure, migrateState, forceCopy bool
	backendCheck, cloud                  bool
	jsonInto                             io.Writer
}

func (o Options) internal() options {
	lockfile := ""
	if o.LockfileReadonly {
		lockfile = "readonly"
	}
	return options{
		upgrade: o.Upgrade, lockfile: lockfile, pluginDirs: o.PluginDirs, testsDir: o.TestsDir, statePath: o.StatePath,
		json: o.JSON, noColor: o.NoColor, backend: o.Backend, get: o.Get, input: o.Input,
		fromModule: o.FromModule, vars: &variables{opts: o.Vars},
		configs: o.BackendConfigs, reconfigure: o.Reconfigure, migrateState: o.MigrateState, forceCopy: o.ForceCopy,
		backendCheck: o.BackendCheck, cloud: o.Cloud, jsonInto: o.JSONInto,
	}
}

// Run initialises env.Dir as "tofu init" (or "terraform init") does with
// opts, rendering to env's writers, and returns the exit code. ctx
// cancelled stops it as an interrupt does.
func Run(ctx context.Context, env *Env, opts Options) int {
	return (&initRun{m: env.normal(), opts: opts.internal()}).run(ctx)
}

// NewView is the view of init's output that opts select, without the
// copy into opts.JSONInto: JSON lines, the live display (env.Live), or
// the plain lines. The caller closes it.
func NewView(env *Env, opts Options) View {
	return (&initRun{m: env.normal(), opts: opts.internal()}).humanOrJSONView()
}
