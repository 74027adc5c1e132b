package initrun

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/backend"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/workdir"
)

// backendPhase is what init's backend section (workdir.Run.Backend) left
// for the rest of the run.
type backendPhase struct {
	// diags are the section's problems, reported (as the reference tools
	// report them) once the modules are installed.
	diags hcl.Diagnostics
	// active is the backend in effect after the section (nil: the
	// default local backend; unset after errors).
	active *backend.SavedBackend
}

// initBackend is init's backend section, run once the root module has
// loaded (workdir.Run.Backend), its messages rendered by backendEvent. It
// returns true when init must stop at once (everything printed), as the
// tools do for a workspace they cannot select.
func (r *initRun) initBackend(root *config.Module) (stop bool) {
	res, diags, err := r.work.Backend(root, r.backendOptions())
	r.backend = &backendPhase{diags: res.Diags, active: res.Active}
	r.statePath = res.StatePath
	var ws *workdir.WorkspaceError
	if !errors.As(err, &ws) {
		return false
	}
	if ws.Remote && r.m.Flavour == flavour.Terraform && r.opts.backend {
		// terraform closes the backend's section with its empty line
		// before it opens the workspace's state.
		r.view.Message("empty_line", "", false)
	}
	r.view.Diagnostics(diags)
	return true
}

// backendOptions are the backend section's flags, and the checks of
// -backend-check (backend_check.go).
func (r *initRun) backendOptions() workdir.BackendOptions {
	o := workdir.BackendOptions{
		Disabled:         !r.opts.backend,
		Configs:          r.opts.configs,
		Reconfigure:      r.opts.reconfigure,
		MigrateState:     r.opts.migrateState,
		ForceCopy:        r.opts.forceCopy,
		Cloud:            r.opts.cloud,
		Workspace:        r.m.Getenv("TF_WORKSPACE"),
		Getwd:            r.m.getwd,
		LookupEnv:        r.m.lookupEnv,
		Check:            r.backendCheck,
		RemoteWorkspaces: r.remoteWorkspaces,
		RemoteStateEmpty: r.remoteStateEmpty,
		OpenRemoteState:  r.openRemoteState,
	}
	if k, ok := r.view.(interface{ keepSource(*hcl.File, string) }); ok {
		o.KeepSource = k.keepSource
	}
	return o
}

// backendEvent prints the backend section's messages: its header (the
// cloud section's for a cloud block: OpenTofu's "Initializing cloud
// backend...", Terraform's "Initializing HCP Terraform..."), then what
// became of the backend.
func (r *initRun) backendEvent(e workdir.BackendEvent) {
	switch e.Kind {
	case workdir.BackendInitializing:
		r.view.Event("init_backend", "", "", initBackendText)
	case workdir.CloudInitializing:
		text := "\n[reset][bold]Initializing cloud backend..."
		if r.m.Flavour == flavour.Terraform {
			text = "\n[reset][bold]Initializing HCP Terraform..."
		}
		r.view.Event("init_cloud", "", "", text)
	case workdir.BackendUnconfiguring:
		r.backendText("backend_unconfiguring", fmt.Sprintf(backendUnconfiguringTextIn(r.m.Flavour), e.From), fmt.Sprintf(backendUnconfiguringJSON, e.From))
	case workdir.BackendUnset:
		r.backendText("backend_unset", fmt.Sprintf(backendUnsetTextIn(r.m.Flavour), e.From), fmt.Sprintf(backendUnsetJSON, e.From))
	case workdir.CloudChanged:
		r.backendText("backend_cloud_changed", cloudChangedText(r.m.Flavour), cloudChangedJSON(r.m.Flavour))
	case workdir.BackendTypeChanged:
		r.backendText("backend_type_changed", typeChangedText(r.m.Flavour, e.From, e.To), fmt.Sprintf(backendTypeChangedJSON, e.From, e.To))
	case workdir.BackendReconfigured:
		r.backendText("backend_reconfigured", reconfiguredText(r.m.Flavour), reconfiguredJSON(r.m.Flavour))
	case workdir.BackendConfigured:
		r.backendText("backend_configured", fmt.Sprintf(backendConfiguredTextIn(r.m.Flavour), e.To), fmt.Sprintf(backendConfiguredJSON, e.To))
	}
}

// backendText prints one of the section's messages: OpenTofu's JSON
// output logs machine, its own wording of the text; Terraform's logs the
// human text as an init_output message with its code.
func (r *initRun) backendText(kind, human, machine string) {
	if r.m.Flavour == flavour.Terraform {
		if v, ok := r.view.(interface{ logVersion() }); ok && (kind == "backend_configured" || kind == "backend_cloud_changed") {
			// terraform makes a new view for these two messages, and a
			// new JSON view logs the version first.
			v.logVersion()
		}
		r.view.Message(kind, human, false)
		return
	}
	r.view.Text("info", kind, human, machine)
}

// backendSectionDiags are the backend section's problems, reported once
// the modules are installed.
func (r *initRun) backendSectionDiags() hcl.Diagnostics {
	return r.work.BackendSectionDiags(r.backendOptions())
}

// requirementsStatePath is the state file whose providers init requires
// too: -state, else the selected workspace's state of the local backend
// in effect, else (with -backend-check) the remote state read, written
// to a temporary file that cleanup removes. With a remote backend not
// contacted, none.
func (r *initRun) requirementsStatePath() (path string, cleanup func()) {
	cleanup = func() {}
	switch {
	case r.opts.statePath != "":
		return r.opts.statePath, cleanup
	case r.backend == nil:
		return defaultStatePath(r.m), cleanup
	case r.remoteState != nil:
		p, done, err := remoteStateFile(r.remoteState)
		if err != nil {
			done()
			return "", cleanup
		}
		return p, done
	}
	return r.statePath, cleanup
}

// afterBackendTerraform ends the backend's section as terraform init does
// when it stops on the backend's errors: with an empty line (and another
// after the modules' section, when modules were installed).
func (r *initRun) afterBackendTerraform() {
	if r.m.Flavour != flavour.Terraform {
		return
	}
	if !r.installedModules {
		r.view.Message("empty_line", "", false)
	}
	r.afterModulesTerraform()
}

// backendSection runs init's backend section (initBackend) once the root
// module has loaded, as tofu does; diags are the configuration's: an
// error in a root module file (or without a source) means tofu stopped
// before the backend. It reports whether init must stop (everything
// printed).
func (r *initRun) backendSection(root *config.Module, diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Severity == hcl.DiagError && !workdir.IsRequirementsError(d) && (d.Subject == nil || !strings.Contains(d.Subject.Filename, "/")) {
			return false
		}
	}
	return r.initBackend(root)
}
