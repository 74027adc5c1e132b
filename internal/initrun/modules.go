package initrun

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/workdir"
)

// moduleEvents renders the module installer's progress through the init
// view, as OpenTofu's or Terraform's lines.
type moduleEvents struct {
	view    View
	flavour flavour.Flavour
	// trim is set for terraform init, whose view trims each line (so
	// "- KEY in" for a missing directory); terraform get does not.
	trim bool
}

func (e moduleEvents) Download(key, addr, version string) {
	text := fmt.Sprintf("Downloading %s for %s...", addr, key)
	if version != "" {
		text = fmt.Sprintf("Downloading %s %s for %s...", addr, version, key)
	}
	e.view.Text("info", "module_download", text, text)
}

// Install prints "- KEY in DIR"; OpenTofu's JSON view logs "installing
// KEY in DIR" instead, Terraform's the human line.
func (e moduleEvents) Install(key, version, dir string) {
	text := fmt.Sprintf("- %s in %s", key, dir)
	if e.flavour == flavour.Terraform {
		if e.trim {
			text = strings.TrimSpace(text)
		}
		e.view.Text("info", "module_install", text, text)
		return
	}
	e.view.Text("info", "module_install", text, fmt.Sprintf("installing %s in %s", key, dir))
}

// initModules is init's module phase (modules.md §1 steps 1–6). It
// returns the warnings to show at the end and whether init must stop
// (everything already printed).
func (r *initRun) initModules(ctx context.Context) (hcl.Diagnostics, bool) {
	w := r.work
	root, diags := w.LoadRoot()
	if r.m.Flavour == flavour.Terraform && root != nil && r.opts.get && workdir.HasModuleCalls(root) {
		// terraform init installs the modules the root module calls even
		// when it has errors: its installer reports them with its own.
		return r.initModulesTerraform(ctx, root, diags)
	}
	if r.m.Flavour == flavour.Terraform {
		diags = workdir.WithoutMockDataAfterErrors(diags)
		if root != nil && r.rootErrorsTerraform(root, diags) {
			return nil, true
		}
	}
	if diags.HasErrors() {
		r.view.Diagnostics(r.withConfigErrorText(diags))
		return nil, true
	}
	// The root module loaded: tofu initialises the backend before modules.
	if r.backendSection(root, diags) {
		return nil, true
	}
	if r.m.Flavour == flavour.Terraform && !workdir.HasModuleCalls(root) {
		// Without module calls terraform finds a const variable without
		// a value when it loads the whole configuration, after the
		// backend: a configuration error.
		if d := root.MissingConstVariables(); d.HasErrors() {
			if r.opts.backend {
				r.view.Message("empty_line", "", false) // after the backend's section
			}
			r.view.Diagnostics(r.withConfigErrorText(d))
			return nil, true
		}
	}
	if !r.opts.get {
		check, err := w.CheckModulesInstalled(root)
		if errors.Is(err, workdir.ErrFailed) {
			return nil, true
		}
		if err != nil {
			if r.m.Flavour == flavour.Terraform && r.opts.backend {
				r.view.Message("empty_line", "", false) // after the backend's section
			}
			r.view.Diagnostics(r.withConfigErrorText(check))
			return nil, true
		}
		return nil, false
	}
	if !workdir.HasModuleCalls(root) {
		return nil, false
	}
	r.modulesHeader()
	// The installer loads the root module once more, so its warnings
	// count once more, as tofu reports them.
	r.installedModules = true
	diags = append(diags, w.InstallModules(ctx, root, nil)...)
	if diags.HasErrors() {
		r.view.Diagnostics(diags)
		return nil, true
	}
	return diags, false
}

// rootErrorsTerraform is terraform init without module installation when
// the root module (diags: its early load's diagnostics) has errors or
// excludes this Terraform version; it reports whether init stopped
// (everything printed). Terraform stops before the backend only when its
// early load found no module (the directory could not be read); otherwise
// it initialises the backend, which (without a backend or cloud block)
// loads the root module once more without its test files and fails with
// that load's diagnostics when it has errors, syntax errors excepted (the
// parser answers a file it has parsed without them). It then checks the
// root's required_version, whose errors alone are shown, and else shows
// the early load's diagnostics, the backend's, and the configuration error
// text.
func (r *initRun) rootErrorsTerraform(root *config.Module, diags hcl.Diagnostics) bool {
	versionDiags := root.CheckTerraformCore(r.m.Version(), "", "")
	if !diags.HasErrors() && !versionDiags.HasErrors() {
		return false
	}
	if diags.HasErrors() && workdir.EarlyLoadFailed(diags) {
		r.view.Diagnostics(r.withConfigErrorText(diags))
		return true
	}
	var backendDiags hcl.Diagnostics
	if r.opts.backend {
		// terraform's backend reads the early load's module, errors or not.
		r.work.SetBackendRoot(root)
		if r.initBackend(root) {
			return true
		}
		backendDiags = r.backendSectionDiags()
		if !backendDiags.HasErrors() && root.Backend == nil && root.Cloud == nil {
			backendDiags = append(backendDiags, r.work.BackendLoadDiags()...)
		}
		r.view.Message("empty_line", "", false)
	}
	if versionDiags.HasErrors() {
		r.view.Diagnostics(versionDiags)
		return true
	}
	r.view.Diagnostics(r.withConfigErrorText(append(diags, backendDiags...)))
	return true
}

// modulesHeader prints the header of init's module phase.
func (r *initRun) modulesHeader() {
	header := "[reset][bold]Initializing modules..."
	if r.opts.upgrade {
		header = "[reset][bold]Upgrading modules..."
	}
	r.view.Event("init_modules", "", "", header)
}

// initModulesTerraform is terraform init's module phase: the backend
// header whatever the root module's errors, then the installer, which
// reports the root module's diagnostics (once, not again later) with its
// own; any error stops init there, printed without the configuration
// error text, and leaves modules.json as it was.
func (r *initRun) initModulesTerraform(ctx context.Context, root *config.Module, rootDiags hcl.Diagnostics) (hcl.Diagnostics, bool) {
	if r.initBackend(root) {
		return nil, true
	}
	r.modulesHeader()
	if d := root.MissingConstVariables(); d.HasErrors() {
		// Terraform needs the const variables' values to install; it has
		// made the modules directory already, and its installer reports
		// them with what loading the root module and its test files said.
		_ = r.work.MakeModulesDir()
		r.view.Diagnostics(append(workdir.WithoutStaticDiags(root, rootDiags), d...))
		return nil, true
	}
	if v := root.CheckTerraformCore(r.m.Version(), "", ""); v.HasErrors() {
		// Terraform's installer reports the root's required_version errors
		// instead of its other diagnostics (maybe a newer language's).
		rootDiags = v
	}
	r.installedModules = true
	diags := r.work.InstallModules(ctx, root, rootDiags)
	if diags.HasErrors() {
		r.view.Diagnostics(diags)
		return nil, true
	}
	return diags, false
}
