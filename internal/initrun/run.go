package initrun

import (
	"context"
	"errors"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/workdir"
)

// initRun is one execution of init.
type initRun struct {
	m    *Env
	opts options
	view View
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
	// (backend_check.go).
	backendBody    hcl.Body
	checkedBackend *checkedBackend
}

func (r *initRun) newView() View {
	if f := r.opts.jsonInto; f != nil {
		return &teeView{View: r.humanOrJSONView(), json: newJSONViewTo(r.m, f)}
	}
	return r.humanOrJSONView()
}

func (r *initRun) humanOrJSONView() View {
	m := r.m
	var human View = &plainView{m: m}
	switch {
	case r.opts.json:
		// With -json-into too (an error), tofu writes to both.
		human = newJSONView(m)
	case m.LiveDisplay != nil && !r.opts.noColor:
		human = newLiveView(m)
	}
	return human
}

func (r *initRun) run(ctx context.Context) int {
	m := r.m
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
	wo := m.Workdir
	wo.Providers = r.providerSource()
	wo.Dir = m.Dir
	wo.ModuleRegistry = m.ModuleRegistry
	wo.TestsDir = r.opts.testsDir
	if code, stop := r.initFromModule(ctx, wo); stop {
		return code
	}
	if m.isEmpty() {
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
		if _, _, d := lockfile.ReadFile(m.path(lockFileName), lockfile.ReadOptions{Flavour: m.Flavour, TofuVersion: m.Version()}); d.HasErrors() {
			r.view.Diagnostics(d)
			return 1
		}
	}
	wo.Variables = append(append([]config.Option{}, m.Workdir.Variables...), varOpts...)
	wo.Upgrade, wo.LockReadOnly, wo.NoGet = r.opts.upgrade, r.opts.lockfile == "readonly", !r.opts.get
	ev := &initEvents{view: r.view, flavour: m.Flavour}
	pr := newProgress(m.Progress)
	r.work = workdir.NewRun(wo, workdir.Events{
		Modules:       moduleEvents{view: r.view, flavour: m.Flavour, trim: true},
		ModuleFetches: pr.moduleFetches(liveModuleFetches(r.view)),
		Providers:     pr.providers(ev.events()),
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

// providerSource is where the run's provider packages come from: the
// Env's (a fleet's shared source), else -plugin-dir's directories
// (relative to the run's directory, named as given), else those the CLI
// configuration describes. The configuration's problems were printed by
// the caller, before the command, as tofu does.
func (r *initRun) providerSource() providersource.Source {
	m := r.m
	switch {
	case m.Providers != nil:
		return m.Providers
	case len(r.opts.pluginDirs) > 0 && m.Dir != "":
		return workdir.PluginDirSource(m.Dir, r.opts.pluginDirs)
	}
	src, _ := providersource.Build(providersource.BuildOptions{
		Config: m.CLIConfig, CLI: m.CLIOptions, Registry: m.Registry, Getenv: m.Getenv, PluginDirs: r.opts.pluginDirs,
	})
	return src
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
