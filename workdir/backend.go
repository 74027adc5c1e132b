package workdir

import (
	"errors"
	"fmt"
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
	"github.com/tfdeps/tfdeps/internal/regfile"
)

// BackendOptions are the settings of the backend step (init's backend
// and cloud flags) and the effects it needs from its caller.
type BackendOptions struct {
	// Disabled is -backend=false: nothing is configured; the backend
	// recorded by the last init is the one in effect.
	Disabled bool
	// Configs are the -backend-config values, in order (a file name, or
	// KEY=VALUE; a single empty value clears them).
	Configs []string
	// Reconfigure, MigrateState and ForceCopy are the flags of those
	// names; Cloud is -cloud (false: -cloud=false).
	Reconfigure, MigrateState, ForceCopy, Cloud bool
	// Workspace is TF_WORKSPACE ("": the one the data directory records).
	Workspace string
	// Getwd names -backend-config files relative to the working directory
	// (not used with Options.Dir, which is the working directory).
	Getwd func() (string, error)
	// KeepSource receives each -backend-config file parsed (the source of
	// its diagnostics' snippets); may be nil.
	KeepSource func(*hcl.File, string)
	// Check validates a backend's settings before they are recorded
	// (-backend-check's checks, which may ask for input); body is the
	// block with -backend-config merged, for the places of its
	// diagnostics. nil: none.
	Check func(rec *backend.SavedBackend, body hcl.Body) hcl.Diagnostics
	// RemoteWorkspaces lists the workspaces of a recorded remote backend;
	// skip is set when there is nothing to check (nil: never listed).
	RemoteWorkspaces func(rec *backend.SavedBackend) (list []string, skip bool, diags hcl.Diagnostics)
	// RemoteStateEmpty reports whether a recorded remote backend's state
	// is known to be empty (nil: never known).
	RemoteStateEmpty func(rec *backend.SavedBackend) bool
	// OpenRemoteState opens workspace ws of a remote backend (nil: there
	// is nothing to open).
	OpenRemoteState func(rec *backend.SavedBackend, ws string) hcl.Diagnostics
	// LookupEnv reads the environment variables the remote backend and
	// the cloud block fall back on (nil: the process's).
	LookupEnv func(string) (string, bool)
}

// lookupEnv is the step's reader of the environment.
func (s *backendStep) lookupEnv() func(string) (string, bool) {
	if s.o.LookupEnv != nil {
		return s.o.LookupEnv
	}
	return os.LookupEnv
}

// BackendEvent is one thing the backend step says as it works.
type BackendEvent struct {
	Kind BackendEventKind
	// From and To are backend types: the one recorded before and the one
	// recorded now, where the kind names them.
	From, To string
}

// BackendEventKind tells what happened to the backend.
type BackendEventKind int

const (
	// BackendInitializing: the step starts for a backend block (or none).
	BackendInitializing BackendEventKind = iota
	// CloudInitializing: the step starts for a cloud block.
	CloudInitializing
	// BackendUnconfiguring: the recorded backend From is being removed.
	BackendUnconfiguring
	// BackendUnset: the recorded backend From was removed.
	BackendUnset
	// CloudChanged: a cloud block's settings changed.
	CloudChanged
	// BackendTypeChanged: the backend type changes from From to To (with
	// -migrate-state, nothing to copy).
	BackendTypeChanged
	// BackendReconfigured: the backend's settings changed (with
	// -migrate-state, nothing to copy).
	BackendReconfigured
	// BackendConfigured: backend To was recorded anew.
	BackendConfigured
)

// BackendResult is what the backend step left for the rest of init.
type BackendResult struct {
	// Diags are the step's problems, which init reports once the modules
	// are installed, as the reference tools do.
	Diags hcl.Diagnostics
	// Active is the backend in effect (nil: the default local backend, or
	// none after errors); Failed is set when the step had errors.
	Active *backend.SavedBackend
	Failed bool
	// StatePath is the local state file of the selected workspace (""
	// for a remote backend).
	StatePath string
}

// WorkspaceError is the error of opening the selected workspace, which
// stops init at once.
type WorkspaceError struct {
	// Remote is set when a remote backend's state could not be opened.
	Remote bool
}

func (e *WorkspaceError) Error() string { return "the workspace could not be opened" }

// backendStep is one run of the backend step.
type backendStep struct {
	r    *Run
	o    *BackendOptions
	emit func(BackendEvent)
	res  *BackendResult
	// body is the backend block with -backend-config merged (for Check).
	body hcl.Body
	// block is the root module's backend or cloud block (for Prepare).
	block *backend.Block
}

// Backend is init's backend step, run once the root module has loaded:
// it decodes the backend (or cloud) block with -backend-config merged in,
// compares it with the backend recorded in the data directory, and
// records it when it is new (BackendConfigured), refusing changes that
// need -reconfigure or -migrate-state, and state migrations (tfdeps does
// not migrate state). Remote backends are contacted only through the
// injected BackendOptions functions. The step's own problems are kept in
// the result for after the modules; the error is a *WorkspaceError when
// init must stop at once (the returned diagnostics, the result's
// included, are then to be shown), as the tools do for a workspace they
// cannot select.
func (r *Run) Backend(root *config.Module, o BackendOptions) (*BackendResult, hcl.Diagnostics, error) {
	s := &backendStep{r: r, o: &o, emit: r.events.Backend, res: &BackendResult{}}
	if s.emit == nil {
		s.emit = func(BackendEvent) {}
	}
	r.backend = s.res
	diags, err := s.run(root)
	return s.res, diags, err
}

func (s *backendStep) run(root *config.Module) (hcl.Diagnostics, error) {
	r, o, res := s.r, s.o, s.res
	fl := r.opts.Flavour
	if o.Disabled {
		return s.fromSaved()
	}
	s.header()
	res.Diags = r.BackendConfigDiags(*o)
	if res.Diags.HasErrors() {
		res.Failed = true
		return nil, nil
	}
	block := backend.BlockOf(root)
	s.block = block
	var settings *backend.Settings
	if block != nil {
		parser := hclparse.NewParser()
		getwd := o.Getwd
		if r.opts.Dir != "" {
			getwd = func() (string, error) { return filepath.Abs(r.opts.Dir) }
		}
		overrides := make([]string, len(o.Configs))
		for i, v := range o.Configs {
			overrides[i] = v
			if v != "" && !strings.Contains(v, "=") {
				overrides[i] = normalizePath(getwd, v)
			}
		}
		var diags hcl.Diagnostics
		bo := backend.Options{Overrides: overrides, Parser: parser, Dir: r.opts.Dir}
		settings, diags = backend.Configure(fl, block, bo)
		s.body = backend.ConfiguredBody(fl, block, bo)
		for name, f := range parser.Files() {
			s.keep(f, name)
		}
		if diags.HasErrors() {
			if st := s.recordedUnchanged(block); st != nil {
				// The tools compare the block's hash with the recorded
				// one before they decode it: an unchanged block is not
				// decoded, so its problems are not reported, and the
				// recorded configuration stays in effect.
				if !s.apply(backendUnchanged, nil, st, st.Backend) {
					return nil, nil
				}
				return s.openWorkspace()
			}
		}
		res.Diags = append(res.Diags, diags...)
		if diags.HasErrors() {
			res.Failed = true
			return nil, nil
		}
	}
	st, err := backend.ReadState(r.opts.inDir(r.opts.dataDir()))
	if err != nil {
		s.fail(errorDiag("Failed to load state: "+stateErrorText(err), ""))
		return nil, nil
	}
	var saved *backend.SavedBackend
	if st != nil {
		saved = st.Backend
	}
	action, diags := decideBackend(s.situation(settings, saved), productOf(fl))
	if diags.HasErrors() {
		s.fail(diags...)
		return nil, nil
	}
	if !s.apply(action, settings, st, saved) {
		return nil, nil
	}
	return s.openWorkspace()
}

// situation is what decideBackend decides from.
func (s *backendStep) situation(settings *backend.Settings, saved *backend.SavedBackend) backendSituation {
	o := s.o
	sit := backendSituation{
		overrides:    len(o.Configs) > 0,
		reconfigure:  o.Reconfigure,
		migrateState: o.MigrateState || o.ForceCopy,
		forceCopy:    o.ForceCopy,
	}
	if settings != nil {
		sit.config, sit.hash = settings.Type, settings.Hash
		sit.sameConfig = settings.SameConfig(saved)
		if saved == nil || o.Reconfigure {
			var target *localPaths
			if settings.Type == "local" {
				if rec, err := settings.Saved(); err == nil {
					p := s.r.localPathsOf(rec)
					target = &p
				}
			}
			sit.localStates = s.r.defaultLocalStatesExist(target)
		}
	}
	if saved != nil {
		sit.saved, sit.savedHash = saved.Type, saved.Hash
		if o.MigrateState || o.ForceCopy {
			sit.sourceEmpty = s.savedStateEmpty(saved)
		}
	}
	return sit
}

// apply carries out action; it reports whether the step goes on to open
// the workspace (false: it failed, errors recorded).
func (s *backendStep) apply(action backendAction, settings *backend.Settings, st *backend.State, saved *backend.SavedBackend) bool {
	res := s.res
	switch action {
	case backendLocalDefault:
		res.Active = nil
	case backendUnchanged:
		res.Active = saved
		if d := s.selectWorkspace(saved); d.HasErrors() {
			s.fail(d...)
			return false
		}
	case backendRehash:
		rec := *saved
		rec.Hash = settings.Hash
		res.Active = &rec
		if err := s.writeState(st, &rec); err != nil {
			s.fail(errorDiag(err.Error(), ""))
			return false
		}
		if d := s.selectWorkspace(&rec); d.HasErrors() {
			s.fail(d...)
			return false
		}
	case backendUnset:
		s.emit(BackendEvent{Kind: BackendUnconfiguring, From: saved.Type})
		if err := s.writeState(st, nil); err != nil {
			s.fail(errorDiag(fmt.Sprintf(wordsOf(s.r.opts.Flavour, errBackendClearSaved), err), ""))
			return false
		}
		res.Active = nil
		s.emit(BackendEvent{Kind: BackendUnset, From: saved.Type})
	case backendConfigure, backendCloudUpdate, backendMigrateEmpty:
		return s.configure(action, settings, st, saved)
	}
	return true
}

// configure records the configured backend (a first configuration, a
// cloud block's new settings, or a migration with nothing to copy).
func (s *backendStep) configure(action backendAction, settings *backend.Settings, st *backend.State, saved *backend.SavedBackend) bool {
	rec, err := settings.Saved()
	if err != nil {
		s.fail(errorDiag("Can't serialize backend configuration as JSON: "+err.Error(), ""))
		return false
	}
	switch {
	case action == backendCloudUpdate:
		s.emit(BackendEvent{Kind: CloudChanged, From: saved.Type, To: rec.Type})
	case action == backendMigrateEmpty && saved.Type != rec.Type:
		s.emit(BackendEvent{Kind: BackendTypeChanged, From: saved.Type, To: rec.Type})
	case action == backendMigrateEmpty:
		s.emit(BackendEvent{Kind: BackendReconfigured, From: saved.Type, To: rec.Type})
	}
	if d := backend.Prepare(s.r.opts.Flavour, s.block, settings, s.lookupEnv()); d.HasErrors() {
		s.fail(d...)
		return false
	}
	if s.o.Check != nil {
		if d := s.o.Check(rec, s.body); d.HasErrors() {
			s.fail(d...)
			return false
		}
	}
	if d := s.selectWorkspace(rec); d.HasErrors() {
		s.fail(d...)
		return false
	}
	if err := s.writeState(st, rec); err != nil {
		s.fail(errorDiag(fmt.Sprintf(wordsOf(s.r.opts.Flavour, errBackendWriteSaved), err), ""))
		return false
	}
	s.res.Active = rec
	if rec.Type != "cloud" {
		s.emit(BackendEvent{Kind: BackendConfigured, To: rec.Type})
	}
	return true
}

// recordedUnchanged is the data directory's state when it records a
// backend of block's type with block's hash and nothing asks for another
// configuration (no -backend-config, -reconfigure or -migrate-state);
// nil otherwise.
func (s *backendStep) recordedUnchanged(block *backend.Block) *backend.State {
	o := s.o
	if len(o.Configs) > 0 || o.Reconfigure || o.MigrateState {
		return nil
	}
	st, err := backend.ReadState(s.r.opts.inDir(s.r.opts.dataDir()))
	if err != nil || st == nil || st.Backend == nil || st.Backend.Type != block.Type {
		return nil
	}
	if h, ok := backend.BlockHash(s.r.opts.Flavour, block, backend.Options{}); !ok || h != st.Backend.Hash {
		return nil
	}
	return st
}

// header announces the step: the cloud's for a cloud block (without a
// backend block), else the backend's.
func (s *backendStep) header() {
	root := s.r.BackendRoot()
	if root == nil || root.Cloud == nil || root.Backend != nil {
		s.emit(BackendEvent{Kind: BackendInitializing})
		return
	}
	s.emit(BackendEvent{Kind: CloudInitializing})
}

func (s *backendStep) keep(f *hcl.File, name string) {
	if s.o.KeepSource != nil {
		s.o.KeepSource(f, name)
	}
}

// savedStateEmpty reports whether the recorded backend's state is known
// to be empty, so that migrating it copies nothing: a local backend with
// the default workspace only and no resource or output in it; a remote
// backend as the caller knows it. Other states are unknown (not empty).
func (s *backendStep) savedStateEmpty(saved *backend.SavedBackend) bool {
	if saved.Type == "local" {
		p := s.r.localPathsOf(saved)
		list, err := s.r.localWorkspaces(p)
		return err == nil && len(list) == 1 && !s.r.stateFileHasContent(p.statePath)
	}
	return s.o.RemoteStateEmpty != nil && s.o.RemoteStateEmpty(saved)
}

// fromSaved is the step with -backend=false: the backend recorded in the
// data directory (if any) is the one in effect.
func (s *backendStep) fromSaved() (hcl.Diagnostics, error) {
	st, err := backend.ReadState(s.r.opts.inDir(s.r.opts.dataDir()))
	if err != nil {
		s.fail(errorDiag("Failed to load state: "+stateErrorText(err), ""))
		return nil, nil
	}
	if st == nil || st.Backend == nil || st.Backend.Type == "" {
		return s.openWorkspace()
	}
	if _, ok := backend.Lookup(s.r.opts.Flavour, st.Backend.Type); !ok {
		s.fail(errorDiag(fmt.Sprintf(wordsOf(s.r.opts.Flavour, errBackendSavedUnknown), st.Backend.Type), ""))
		return nil, nil
	}
	s.res.Active = st.Backend
	return s.openWorkspace()
}

// fail records the step's errors: no backend is in effect.
func (s *backendStep) fail(diags ...*hcl.Diagnostic) {
	s.res.Diags = append(s.res.Diags, diags...)
	s.res.Failed = true
	s.res.Active = nil
}

// writeState records rec in the data directory, keeping what else st
// held.
func (s *backendStep) writeState(st *backend.State, rec *backend.SavedBackend) error {
	out := &backend.State{Backend: rec}
	if st != nil && (rec != nil || st.StateStore != nil) {
		c := *st
		c.Backend = rec
		out = &c
	}
	if s.r.opts.Flavour == flavour.Terraform {
		out.TerraformVersion = s.r.opts.Version
	}
	return s.r.opts.relErr(backend.WriteState(s.r.opts.Flavour, s.r.opts.inDir(s.r.opts.dataDir()), out))
}

// openWorkspace is what init does with the backend in effect once the
// step succeeded: select the workspace (an invalid TF_WORKSPACE stops
// init at once) and open its state, which for a local backend creates the
// workspace's directory.
func (s *backendStep) openWorkspace() (hcl.Diagnostics, error) {
	res := s.res
	ws, overridden := s.workspace()
	if overridden && !validWorkspaceName(ws) {
		return append(res.Diags, errorDiag("Error selecting workspace", "Invalid workspace name set using TF_WORKSPACE")), &WorkspaceError{}
	}
	rec := res.Active
	if rec == nil || rec.Type == "local" {
		p := s.r.localPathsOf(rec)
		if ws != "default" {
			if err := os.MkdirAll(s.r.opts.inDir(filepath.Join(p.workspaceDir, ws)), 0o755); err != nil {
				return append(res.Diags, errorDiag("Error loading state", s.r.opts.relErr(err).Error())), &WorkspaceError{}
			}
		}
		res.StatePath = p.statePathOf(ws)
		return nil, nil
	}
	if s.o.OpenRemoteState == nil {
		return nil, nil
	}
	d := s.o.OpenRemoteState(rec, ws)
	if d.HasErrors() {
		return append(res.Diags, d...), &WorkspaceError{Remote: true}
	}
	// The remote backend's warnings are reported with the step's.
	res.Diags = append(res.Diags, d...)
	return nil, nil
}

// workspace is the selected workspace: TF_WORKSPACE, else the one the
// data directory records, else "default"; overridden is set when
// TF_WORKSPACE chose it.
func (s *backendStep) workspace() (name string, overridden bool) {
	if s.o.Workspace != "" {
		return s.o.Workspace, true
	}
	if b, err := regfile.ReadFile(s.r.opts.inDir(filepath.Join(s.r.opts.dataDir(), "environment"))); err == nil {
		if ws := strings.TrimSpace(string(b)); ws != "" {
			return ws, false
		}
	}
	return "default", false
}

// selectWorkspace checks, as init does after configuring a backend, that
// the selected workspace exists in it: for a local backend, when it does
// not and the backend has one workspace only, that one is selected
// (written to the environment file); with several, the choice is the
// user's (an error: tfdeps does not ask). A remote backend's workspaces
// are listed when the caller can (RemoteWorkspaces).
func (s *backendStep) selectWorkspace(rec *backend.SavedBackend) hcl.Diagnostics {
	ws, overridden := s.workspace()
	var list []string
	switch {
	case rec.Type == "local":
		var err error
		if list, err = s.r.localWorkspaces(s.r.localPathsOf(rec)); err != nil {
			return hcl.Diagnostics{errorDiag("Failed to get existing workspaces: "+s.r.opts.relErr(err).Error(), "")}
		}
	case s.o.RemoteWorkspaces == nil:
		return nil
	default:
		l, skip, diags := s.o.RemoteWorkspaces(rec)
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
		if err := s.setWorkspace(list[0]); err != nil {
			return hcl.Diagnostics{errorDiag(s.r.opts.relErr(err).Error(), "")}
		}
		return nil
	}
	return hcl.Diagnostics{errorDiag(fmt.Sprintf("Currently selected workspace %q does not exist", ws), "")}
}

// setWorkspace records the selected workspace in the data directory.
func (s *backendStep) setWorkspace(name string) error {
	dir := s.r.opts.inDir(s.r.opts.dataDir())
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

// stateErrorText is the reference tools' text for a data-directory state
// file that cannot be read: the reason, without the file's name.
func stateErrorText(err error) string {
	var se *backend.StateError
	if errors.As(err, &se) {
		return se.Err.Error()
	}
	return err.Error()
}

// normalizePath makes path relative to the working directory, as both
// reference tools name the files given on their command line.
func normalizePath(getwd func() (string, error), path string) string {
	if getwd == nil {
		return filepath.Clean(path)
	}
	wd, err := getwd()
	if err != nil {
		return filepath.Clean(path)
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(wd, path)
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil {
		return filepath.Clean(path)
	}
	return rel
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
func (r *Run) localPathsOf(rec *backend.SavedBackend) localPaths {
	p := localPaths{statePath: "terraform.tfstate", workspaceDir: "terraform.tfstate.d"}
	if rec == nil {
		return p
	}
	schema, ok := backend.Lookup(r.opts.Flavour, "local")
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
func (r *Run) localWorkspaces(p localPaths) ([]string, error) {
	out := []string{"default"}
	entries, err := os.ReadDir(r.opts.inDir(p.workspaceDir))
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

// defaultLocalStatesExist reports whether a workspace of the default
// local backend holds a non-empty state that configuring a backend would
// copy: target, when the new backend is local, keeps the states at the
// same paths (nothing to copy there).
func (r *Run) defaultLocalStatesExist(target *localPaths) bool {
	p := localPaths{statePath: "terraform.tfstate", workspaceDir: "terraform.tfstate.d"}
	list, err := r.localWorkspaces(p)
	if err != nil {
		return true
	}
	for _, ws := range list {
		path := p.statePathOf(ws)
		if target != nil && filepath.Clean(target.statePathOf(ws)) == filepath.Clean(path) {
			continue
		}
		if r.stateFileHasContent(path) {
			return true
		}
	}
	return false
}

// stateFileHasContent reports a state file with resources or outputs (an
// unreadable one counts: the tools would fail on it).
func (r *Run) stateFileHasContent(path string) bool {
	b, err := regfile.ReadFileMax(r.opts.inDir(path), 256<<20)
	if errors.Is(err, os.ErrNotExist) || (err == nil && len(b) == 0) {
		return false
	}
	if err != nil {
		return true
	}
	return backend.StateHasContent(b)
}
