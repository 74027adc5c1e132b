package cli

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/backend"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
)

// backendPhase is what init's backend section leaves for the rest of
// the run.
type backendPhase struct {
	// diags are the section's problems, reported (as the reference tools
	// report them) once the modules are installed.
	diags hcl.Diagnostics
	// active is the backend in effect after the section (nil: the
	// default local backend; unset after errors); failed is set when the
	// section had errors and no backend is in effect.
	active *backend.SavedBackend
	failed bool
	// unconfigured is set for a backend whose schema tfdeps does not
	// know: nothing was recorded, and the local state is read as before.
	unconfigured bool
	// body is the backend block with -backend-config merged (for the
	// places of the backend's diagnostics); checked the backend contacted
	// with -backend-check.
	body    hcl.Body
	checked *checkedBackend
}

// initBackend is init's backend section, run once the root module has
// loaded: the header, then what the reference tool does to configure the
// backend — decode the block with -backend-config merged in, compare it
// with the backend recorded in the data directory, and record it anew
// when it is new (printing "Successfully configured the backend"),
// refusing changes that need -reconfigure or -migrate-state. Remote
// backends are not contacted unless -backend-check is given. Its errors
// are kept in r.backend.diags for after the modules; it returns true
// when init must stop at once (everything printed), as the tools do for
// a workspace they cannot select.
func (r *initRun) initBackend(root *config.Module) (stop bool) {
	r.backend = &backendPhase{}
	if !r.opts.backend {
		return r.backendFromSaved()
	}
	r.backendHeaderEvent()
	r.backend.diags = r.backendConfigDiags()
	if r.backend.diags.HasErrors() {
		r.backend.failed = true
		return false
	}
	block := backend.BlockOf(root)
	if block != nil && (block.Cloud || schemaUnknown(r.m.Flavour, block.Type)) {
		if _, ok := backend.Lookup(r.m.Flavour, block.Type); !ok {
			// Not configured by tfdeps (yet): only the files are checked.
			keep := func(*hcl.File, string) {}
			if k, ok := r.view.(interface{ keepSource(*hcl.File, string) }); ok {
				keep = k.keepSource
			}
			r.backend.diags = append(r.backend.diags, checkBackendConfigFiles(r.m.Getwd, r.opts.configs, keep)...)
			r.backend.failed = r.backend.diags.HasErrors()
			r.backend.unconfigured = true
			return false
		}
	}
	var settings *backend.Settings
	if block != nil {
		parser := hclparse.NewParser()
		overrides := make([]string, len(r.opts.configs))
		for i, v := range r.opts.configs {
			overrides[i] = v
			if v != "" && !strings.Contains(v, "=") {
				overrides[i] = normalizePath(r.m.Getwd, v)
			}
		}
		var diags hcl.Diagnostics
		settings, diags = backend.Configure(r.m.Flavour, block, backend.Options{Overrides: overrides, Parser: parser})
		r.backend.body = backend.ConfiguredBody(r.m.Flavour, block, backend.Options{Overrides: overrides, Parser: parser})
		if k, ok := r.view.(interface{ keepSource(*hcl.File, string) }); ok {
			for name, f := range parser.Files() {
				k.keepSource(f, name)
			}
		}
		r.backend.diags = append(r.backend.diags, diags...)
		if diags.HasErrors() {
			r.backend.failed = true
			return false
		}
	}
	st, err := backend.ReadState(dataDir(r.m))
	if err != nil {
		r.backendFail(errorDiag("Failed to load state: "+stateErrorText(err), ""))
		return false
	}
	var saved *backend.SavedBackend
	if st != nil {
		saved = st.Backend
	}
	situation := backendSituation{
		overrides:    len(r.opts.configs) > 0,
		reconfigure:  r.opts.reconfigure,
		migrateState: r.opts.migrateState || r.opts.forceCopy,
		forceCopy:    r.opts.forceCopy,
	}
	if settings != nil {
		situation.config, situation.hash = settings.Type, settings.Hash
		situation.sameConfig = settings.SameConfig(saved)
		if saved == nil || r.opts.reconfigure {
			var target *localPaths
			if settings.Type == "local" {
				if rec, err := settings.Saved(); err == nil {
					p := localPathsOf(r.m, rec)
					target = &p
				}
			}
			situation.localStates = defaultLocalStatesExist(target)
		}
	}
	if saved != nil {
		situation.saved, situation.savedHash = saved.Type, saved.Hash
		if r.opts.migrateState || r.opts.forceCopy {
			situation.sourceEmpty = r.savedStateEmpty(saved)
		}
	}
	action, diags := decideBackend(situation, productOf(r.m.Flavour))
	if diags.HasErrors() {
		r.backendFail(diags...)
		return false
	}
	switch action {
	case backendLocalDefault:
		r.backend.active = nil
	case backendUnchanged:
		r.backend.active = saved
		if d := r.selectWorkspace(saved); d.HasErrors() {
			r.backendFail(d...)
			return false
		}
	case backendRehash:
		rec := *saved
		rec.Hash = settings.Hash
		r.backend.active = &rec
		if err := r.writeBackendState(st, &rec); err != nil {
			r.backendFail(errorDiag(err.Error(), ""))
			return false
		}
		if d := r.selectWorkspace(&rec); d.HasErrors() {
			r.backendFail(d...)
			return false
		}
	case backendUnset:
		r.backendText("backend_unconfiguring", fmt.Sprintf(backendUnconfiguringText, saved.Type), fmt.Sprintf(backendUnconfiguringJSON, saved.Type))
		if err := r.writeBackendState(st, nil); err != nil {
			r.backendFail(errorDiag(fmt.Sprintf(errBackendClearSaved, err), ""))
			return false
		}
		r.backend.active = nil
		r.backendText("backend_unset", fmt.Sprintf(backendUnsetText, saved.Type), fmt.Sprintf(backendUnsetJSON, saved.Type))
	case backendConfigure, backendCloudUpdate, backendMigrateEmpty:
		rec, err := settings.Saved()
		if err != nil {
			r.backendFail(errorDiag("Can't serialize backend configuration as JSON: "+err.Error(), ""))
			return false
		}
		switch {
		case action == backendCloudUpdate:
			r.backendText("backend_cloud_changed", cloudChangedText(r.m.Flavour), cloudChangedJSON(r.m.Flavour))
		case action == backendMigrateEmpty && saved.Type != rec.Type:
			r.backendText("backend_type_changed", typeChangedText(r.m.Flavour, saved.Type, rec.Type), fmt.Sprintf(backendTypeChangedJSON, saved.Type, rec.Type))
		case action == backendMigrateEmpty:
			r.backendText("backend_reconfigured", reconfiguredText(r.m.Flavour), reconfiguredJSON(r.m.Flavour))
		}
		if d := r.backendCheck(rec); d.HasErrors() {
			r.backendFail(d...)
			return false
		}
		if d := r.selectWorkspace(rec); d.HasErrors() {
			r.backendFail(d...)
			return false
		}
		if err := r.writeBackendState(st, rec); err != nil {
			r.backendFail(errorDiag(fmt.Sprintf(errBackendWriteSaved, err), ""))
			return false
		}
		r.backend.active = rec
		if rec.Type != "cloud" {
			r.backendText("backend_configured", fmt.Sprintf(backendConfiguredText, rec.Type), fmt.Sprintf(backendConfiguredJSON, rec.Type))
		}
	}
	return r.openWorkspace()
}

// savedStateEmpty reports whether the recorded backend's state is known
// to be empty, so that migrating it copies nothing: a local backend with
// the default workspace only and no resource or output in it; with
// -backend-check, a remote backend with the default workspace only, its
// state absent or empty. Other backends' states are unknown (not empty).
func (r *initRun) savedStateEmpty(saved *backend.SavedBackend) bool {
	switch saved.Type {
	case "local":
		p := localPathsOf(r.m, saved)
		list, err := localWorkspaces(p)
		return err == nil && len(list) == 1 && !stateFileHasContent(p.statePath)
	}
	return r.remoteStateEmpty(saved)
}

// backendFromSaved is the backend section with -backend=false: nothing is
// printed; the backend recorded in the data directory (if any) is the
// one in effect.
func (r *initRun) backendFromSaved() bool {
	st, err := backend.ReadState(dataDir(r.m))
	if err != nil {
		r.backendFail(errorDiag("Failed to load state: "+stateErrorText(err), ""))
		return false
	}
	if st == nil || st.Backend == nil || st.Backend.Type == "" {
		return r.openWorkspace()
	}
	if _, ok := backend.Lookup(r.m.Flavour, st.Backend.Type); !ok {
		r.backendFail(errorDiag(fmt.Sprintf(errBackendSavedUnknown, st.Backend.Type), ""))
		return false
	}
	r.backend.active = st.Backend
	return r.openWorkspace()
}

// backendFail records the section's errors: no backend is in effect.
func (r *initRun) backendFail(diags ...*hcl.Diagnostic) {
	r.backend.diags = append(r.backend.diags, diags...)
	r.backend.failed = true
	r.backend.active = nil
}

// backendText prints one of the section's messages: OpenTofu's JSON
// output logs machine, its own wording of the text; Terraform's logs the
// human text as an init_output message with its code.
func (r *initRun) backendText(kind, human, machine string) {
	if r.m.Flavour == flavour.Terraform {
		r.view.Message(kind, human, false)
		return
	}
	r.view.Text("info", kind, human, machine)
}

// writeBackendState records rec in the data directory, keeping what else
// st held.
func (r *initRun) writeBackendState(st *backend.State, rec *backend.SavedBackend) error {
	out := &backend.State{Backend: rec}
	if st != nil && (rec != nil || st.StateStore != nil) {
		c := *st
		c.Backend = rec
		out = &c
	}
	if r.m.Flavour == flavour.Terraform {
		out.TerraformVersion = r.m.Version()
	}
	return backend.WriteState(r.m.Flavour, dataDir(r.m), out)
}

// stateErrorText is the reference tools' text for a data-directory state
// file that cannot be read: the reason, without the file's name.
func stateErrorText(err error) string {
	var se *backend.StateError
	if errors.As(err, &se) {
		return se.Err.Error()
	}
	return err.Error()
}

// selectedWorkspace is the workspace selected in the working directory
// (currentWorkspace); overridden is set when TF_WORKSPACE chose it.
func selectedWorkspace(m *Meta) (name string, overridden bool) {
	return currentWorkspace(m), m.Getenv("TF_WORKSPACE") != ""
}

// readBounded reads at most limit bytes of a file.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// validWorkspaceName reports a name that needs no escaping in a URL
// path, as both tools require of TF_WORKSPACE.
func validWorkspaceName(name string) bool {
	return name == url.PathEscape(name)
}

// localPaths are a local backend's settings: the default workspace's
// state file and the directory of the other workspaces.
type localPaths struct {
	statePath, workspaceDir string
}

// localPathsOf reads the local backend's settings from its recorded
// configuration (nil: the default local backend).
func localPathsOf(m *Meta, rec *backend.SavedBackend) localPaths {
	p := localPaths{statePath: "terraform.tfstate", workspaceDir: "terraform.tfstate.d"}
	if rec == nil {
		return p
	}
	schema, ok := backend.Lookup(m.Flavour, "local")
	if !ok {
		return p
	}
	v, err := rec.Value(schema)
	if err != nil || v.IsNull() || !v.Type().IsObjectType() {
		return p
	}
	str := func(name string) string {
		if !v.Type().HasAttribute(name) {
			return ""
		}
		a := v.GetAttr(name)
		if a.IsNull() || !a.IsKnown() || a.Type() != cty.String {
			return ""
		}
		return a.AsString()
	}
	if s := str("path"); s != "" {
		p.statePath = s
	}
	if s := str("workspace_dir"); s != "" {
		p.workspaceDir = s
	}
	return p
}

// localWorkspaces lists a local backend's workspaces: "default", then
// the directories of its workspace directory, sorted.
func localWorkspaces(p localPaths) ([]string, error) {
	out := []string{"default"}
	entries, err := os.ReadDir(p.workspaceDir)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// statePathOf is the state file of workspace ws of a local backend.
func (p localPaths) statePathOf(ws string) string {
	if ws == "default" || ws == "" {
		return p.statePath
	}
	return filepath.Join(p.workspaceDir, ws, "terraform.tfstate")
}

// selectWorkspace checks, as init does after configuring a backend, that
// the selected workspace exists in it: for a local backend, when it does
// not and the backend has one workspace only, that one is selected
// (written to the environment file); with several, the choice is the
// user's (an error: tfdeps does not ask). A remote backend's workspaces
// are listed with -backend-check only (remoteWorkspaces).
func (r *initRun) selectWorkspace(rec *backend.SavedBackend) hcl.Diagnostics {
	ws, overridden := selectedWorkspace(r.m)
	var list []string
	if rec.Type == "local" {
		var err error
		if list, err = localWorkspaces(localPathsOf(r.m, rec)); err != nil {
			return hcl.Diagnostics{errorDiag("Failed to get existing workspaces: "+err.Error(), "")}
		}
	} else {
		l, skip, diags := r.remoteWorkspaces(rec)
		if skip || diags.HasErrors() {
			return diags
		}
		list = l
	}
	if overridden && !validWorkspaceName(ws) {
		return hcl.Diagnostics{errorDiag("Invalid workspace name set using TF_WORKSPACE", "")}
	}
	for _, w := range list {
		if w == ws {
			return nil
		}
	}
	if len(list) == 1 {
		if err := setWorkspace(r.m, list[0]); err != nil {
			return hcl.Diagnostics{errorDiag(err.Error(), "")}
		}
		return nil
	}
	return hcl.Diagnostics{errorDiag(fmt.Sprintf("Currently selected workspace %q does not exist", ws), "")}
}

// setWorkspace records the selected workspace in the data directory.
func setWorkspace(m *Meta, name string) error {
	dir := dataDir(m)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "environment"), []byte(name), 0o644)
}

// writeFileAtomic writes a file through a temporary file renamed into
// place.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(name, perm)
	}
	if werr == nil {
		werr = os.Rename(name, path)
	}
	if werr != nil {
		os.Remove(name)
	}
	return werr
}

// openWorkspace is what init does with the backend in effect once the
// section succeeded: select the workspace (an invalid TF_WORKSPACE stops
// init at once) and open its state, which for a local backend creates the
// workspace's directory. A remote backend's state is read only with
// -backend-check.
func (r *initRun) openWorkspace() bool {
	ws, overridden := selectedWorkspace(r.m)
	if overridden && !validWorkspaceName(ws) {
		r.view.Diagnostics(append(r.backend.diags, errorDiag("Error selecting workspace", "Invalid workspace name set using TF_WORKSPACE")))
		return true
	}
	rec := r.backend.active
	if rec == nil || rec.Type == "local" {
		p := localPathsOf(r.m, rec)
		if ws != "default" {
			if err := os.MkdirAll(filepath.Join(p.workspaceDir, ws), 0o755); err != nil {
				r.view.Diagnostics(append(r.backend.diags, errorDiag("Error loading state", err.Error())))
				return true
			}
		}
		r.statePath = p.statePathOf(ws)
		return false
	}
	if d := r.openRemoteState(rec, ws); d.HasErrors() {
		if r.m.Flavour == flavour.Terraform && r.opts.backend {
			// terraform closes the backend's section with its empty line
			// before it opens the workspace's state.
			r.view.Message("empty_line", "", false)
		}
		r.view.Diagnostics(append(r.backend.diags, d...))
		return true
	}
	return false
}

// defaultLocalStatesExist reports whether a workspace of the default
// local backend holds a non-empty state that configuring a backend would
// copy: target, when the new backend is local, keeps the states at the
// same paths (nothing to copy there).
func defaultLocalStatesExist(target *localPaths) bool {
	p := localPaths{statePath: "terraform.tfstate", workspaceDir: "terraform.tfstate.d"}
	list, err := localWorkspaces(p)
	if err != nil {
		return true
	}
	for _, ws := range list {
		path := p.statePathOf(ws)
		if target != nil && filepath.Clean(target.statePathOf(ws)) == filepath.Clean(path) {
			continue
		}
		if stateFileHasContent(path) {
			return true
		}
	}
	return false
}

// stateFileHasContent reports a state file with resources or outputs (an
// unreadable one counts: the tools would fail on it).
func stateFileHasContent(path string) bool {
	b, err := readBounded(path, 256<<20)
	if errors.Is(err, os.ErrNotExist) || (err == nil && len(b) == 0) {
		return false
	}
	if err != nil {
		return true
	}
	return stateJSONHasContent(b)
}

// productOf names the flavour in the backend's messages.
func productOf(f flavour.Flavour) product {
	if f == flavour.Terraform {
		return product{cmd: "terraform", terraform: true}
	}
	return product{cmd: "tofu"}
}
