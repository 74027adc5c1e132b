package cli

import (
	"context"
	"errors"
	"flag"
	"os"
	"os/signal"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/workdir"
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
                        azurerm; with -compat=terraform, local and http):
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
	// fromModule is -from-module=SOURCE (init_from_module.go).
	fromModule string
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
	return (&initRun{m: m, opts: o}).run(ctx)
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
	o.backendFlags.register(fs, m.Flavour)
	return fs
}

// initRun is one execution of init.
type initRun struct {
	m    *Meta
	opts initOptions
	view initView
	// work is the initialisation itself, step by step.
	work *workdir.Run
	// installedModules is set when the module installer ran (terraform
	// ends its section with an empty line).
	installedModules bool
	// backend is what the backend section left (nil until it ran);
	// statePath the state file of the local backend's selected
	// workspace, remoteState the remote one read with -backend-check.
	backend     *backendPhase
	statePath   string
	remoteState []byte
	// backendBody is the backend block with -backend-config merged, and
	// checkedBackend the backend contacted with -backend-check
	// (init_backend_check.go).
	backendBody    hcl.Body
	checkedBackend *checkedBackend
}

func (r *initRun) newView() initView {
	if f := r.opts.jsonInto.file; f != nil {
		return &teeView{initView: r.humanOrJSONView(), json: newJSONViewTo(r.m, f)}
	}
	return r.humanOrJSONView()
}

func (r *initRun) humanOrJSONView() initView {
	m := r.m
	var human initView = &plainView{m: m}
	switch {
	case r.opts.json:
		// With -json-into too (an error), tofu writes to both.
		human = newJSONView(m)
	case liveDisplayWanted(m, r.opts.noColor):
		human = newLiveView(m)
	}
	return human
}

func (r *initRun) run(ctx context.Context) int {
	m := r.m
	// OpenTofu prints the CLI configuration's problems before the command
	// starts, so before the -json version line.
	cliOpts := m.cliConfigOptions()
	cfg := loadCLIConfig(m, cliOpts)
	r.view = r.newView()
	defer r.view.Close()
	release, code := acquireWorkdirLock(ctx, m, r.view)
	if release == nil {
		return code
	}
	defer release()

	if d := storePluginDirs(m, r.opts.pluginDirs); d != nil {
		r.view.Diagnostics(hcl.Diagnostics{d})
		return 1
	}
	client := newRegistryClient(m, cfg)
	src, srcDiags := providersource.Build(providersource.BuildOptions{
		Config: cfg, CLI: cliOpts, Registry: client, Getenv: m.Getenv, PluginDirs: r.opts.pluginDirs,
	})
	_ = srcDiags // printed by loadCLIConfig, before the command, as tofu does
	wo := workdirOptions(m, cfg, src, client)
	wo.ModuleRegistry = newModuleRegistry(m, cfg)
	wo.TestsDir = r.opts.testsDir
	if code, stop := r.initFromModule(ctx, wo); stop {
		return code
	}
	if workdir.IsEmpty(m.Flavour) {
		r.view.Message("init_empty", initEmptyTextIn(r.m.Flavour), false)
		return 0
	}
	varOpts, diags := r.opts.vars.configOptions(m)
	if diags.HasErrors() {
		r.view.Diagnostics(r.withConfigErrorText(diags))
		return 1
	}
	if m.Flavour == flavour.OpenTofu && !r.opts.json && inputEnabled(m, r.opts.input) {
		r.opts.vars.values.SetPrompt(m.promptVariable)
	}
	if m.Flavour == flavour.Terraform {
		// terraform init reads the lock file before the backend and
		// shows its errors as they are.
		if _, _, d := lockfile.ReadFile(lockFileName, m.lockReadOptions()); d.HasErrors() {
			r.view.Diagnostics(d)
			return 1
		}
	}
	wo.Variables = varOpts
	wo.Upgrade, wo.LockReadOnly, wo.NoGet = r.opts.upgrade, r.opts.lockfile == "readonly", !r.opts.get
	ev := &initEvents{view: r.view, flavour: m.Flavour}
	r.work = workdir.NewRun(wo, workdir.Events{
		Modules:       moduleEvents{view: r.view, flavour: m.Flavour, trim: true},
		ModuleFetches: liveModuleFetches(r.view),
		Providers:     ev.events(),
		LockFile:      r.lockFileEvent,
		Backend:       r.backendEvent,
	})
	moduleWarnings, stop := r.initModules(ctx)
	if stop {
		return 1
	}
	backendDiags := r.backendSectionDiags()
	if backendDiags.HasErrors() {
		r.afterBackendTerraform()
		r.view.Diagnostics(append(moduleWarnings, backendDiags...))
		return 1
	}
	statePath, cleanup := r.requirementsStatePath()
	defer cleanup()
	reqs, diags, err := r.work.Requirements(statePath, append(moduleWarnings, backendDiags...), diags)
	if err != nil {
		if errors.Is(err, workdir.ErrConfiguration) {
			diags = r.withConfigErrorText(diags)
		}
		r.afterModulesTerraform()
		r.view.Diagnostics(diags)
		return 1
	}
	_, diags, err = r.work.InstallProviders(ctx, reqs, diags)
	switch {
	case err != nil && err == ctx.Err():
		r.view.Diagnostics(diags)
		r.view.Message("interrupted", initInterruptedText, true)
		return 1
	case errors.Is(err, workdir.ErrUpgradeReadOnly):
		// tofu prints the conflict, then the warnings gathered so far.
		r.view.Message("upgrade_conflict", initUpgradeConflict, true)
		r.view.Diagnostics(diags)
		return 1
	case err != nil:
		r.view.Diagnostics(diags)
		return 1
	}
	r.finish(diags)
	return 0
}

// lockFileEvent says that the lock file is about to be written.
func (r *initRun) lockFileEvent(c workdir.LockFileChange) {
	if c == workdir.LockCreated {
		r.view.Message("lock_created", lockCreatedTextIn(r.m.Flavour), false)
		return
	}
	r.view.Message("lock_changed", lockChangedTextIn(r.m.Flavour), false)
}

// afterModulesTerraform ends the module phase's output as terraform init
// does when it stops after installing modules and before installing
// providers: with an empty line (OpenTofu prints none there).
func (r *initRun) afterModulesTerraform() {
	if r.m.Flavour == flavour.Terraform && r.installedModules {
		r.view.Message("empty_line", "", false)
	}
}

// finish prints the warnings and the success text.
func (r *initRun) finish(diags hcl.Diagnostics) {
	r.view.Message("blank", "", false)
	r.view.Diagnostics(diags)
	if r.cloudInEffect() {
		r.cloudSuccess()
		return
	}
	r.view.Message("init_success", initSuccessTextIn(r.m.Flavour), false)
	if r.m.Getenv("TF_IN_AUTOMATION") == "" {
		r.view.Message("init_next_steps", initNextStepsTextIn(r.m.Flavour), false)
	}
}
