package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
)

// ManifestWalker loads installed modules as OpenTofu does after `init`
// (modules.md §9.1): every call, local ones included, through its record in
// the module manifest; a call without a record, with another source, with a
// version that no longer meets its constraint, or whose directory cannot be
// read is an error. Child modules are loaded without test files.
type ManifestWalker struct {
	manifest manifest.Manifest
	baseDir  string
	opts     []Option
	fsys     FileSystem
	flavour  flavour.Flavour
}

// NewManifestWalker returns a walker over m. Relative record directories
// are joined to baseDir (the directory `init` ran in; "" or "." for the
// current one). opts are used to load each module (file system, emulated
// version).
func NewManifestWalker(m manifest.Manifest, baseDir string, opts ...Option) *ManifestWalker {
	childOpts := append(append([]Option{}, opts...), WithTestsDir(""))
	return &ManifestWalker{manifest: m, baseDir: baseDir, opts: childOpts, fsys: newOptions(opts).fsys, flavour: newOptions(opts).flavour}
}

var _ ModuleWalker = (*ManifestWalker)(nil)

// LoadModule implements ModuleWalker.
func (w *ManifestWalker) LoadModule(req *ModuleRequest) (*Module, string, hcl.Diagnostics) {
	call := req.Call
	rec, ok := w.manifest[req.Key()]
	if !ok {
		return nil, "", hcl.Diagnostics{errorDiag("Module not installed",
			NotInstalledDetail(w.flavour), call.DeclRange.Ptr())}
	}
	diags := InstalledCallChanges(call, rec, w.flavour)
	dir := w.dir(rec.Dir)
	if _, err := w.fsys.ReadDir(dir); err != nil {
		return nil, "", hcl.Diagnostics{errorDiag("Module not installed", fmt.Sprintf(
			"This module's local cache directory %s could not be read.%s",
			rec.Dir, runInit(w.flavour)), call.DeclRange.Ptr())}
	}
	mod, modDiags := LoadDir(dir, req.ChildOptions(w.opts...)...)
	return mod, dir, append(diags, modDiags...)
}

// InstalledCallChanges reports how call no longer matches the record of
// the module installed for it: its source or version requirements changed
// (OpenTofu's errors, at the source argument), in flavour f's words.
func InstalledCallChanges(call *ModuleCall, rec manifest.Record, f flavour.Flavour) hcl.Diagnostics {
	var diags hcl.Diagnostics
	srcRange := call.SourceAddrRange.Ptr()
	if call.Source != nil && call.Source.String() != rec.Source {
		diags = append(diags, errorDiag("Module source has changed", fmt.Sprintf(
			"The source address was changed from %q to %q since this module was installed.%s",
			rec.Source, call.Source.String(), runInit(f)), srcRange))
	}
	return append(diags, versionChanged(call, rec, srcRange, f)...)
}

// NotInstalledDetail is the detail of the error for a module call that has
// no record in the module manifest, in flavour f's words.
func NotInstalledDetail(f flavour.Flavour) string {
	return "This module is not yet installed." + runInit(f)
}

// runInit is the advice that ends the errors about installed modules.
func runInit(f flavour.Flavour) string {
	return fmt.Sprintf(` Run "%s init" to install all modules required by this configuration.`, f.Command())
}

// versionChanged checks a recorded version against the call's constraint.
func versionChanged(call *ModuleCall, rec manifest.Record, subject *hcl.Range, f flavour.Flavour) hcl.Diagnostics {
	var constraints version.Constraints
	if call.HasVersion && call.Version != "" {
		c, err := version.NewConstraint(call.Version)
		if err != nil {
			return nil // reported by the loader
		}
		constraints = c
	}
	tail := runInit(f)
	var diags hcl.Diagnostics
	if len(constraints) > 0 && rec.Version == "" {
		diags = append(diags, errorDiag("Module version requirements have changed",
			"The version requirements have changed since this module was installed and the installed version is no longer acceptable."+tail, subject))
	}
	if rec.Version != "" {
		v, err := version.NewVersion(rec.Version)
		if err == nil && !constraints.Check(v) {
			diags = append(diags, errorDiag("Module version requirements have changed", fmt.Sprintf(
				"The version requirements have changed since this module was installed and the installed version (%s) is no longer acceptable."+tail, v), subject))
		}
	}
	return diags
}

func (w *ManifestWalker) dir(recDir string) string {
	if filepath.IsAbs(recDir) || w.baseDir == "" || w.baseDir == "." {
		return recDir
	}
	return filepath.Join(w.baseDir, recDir)
}

// LocalFromDisk wraps a walker so that calls with a local source are
// loaded from the calling module's directory joined with the path, without
// any manifest; other calls go to next. It is for reading configurations
// that were never initialised (tests, conformance data); OpenTofu itself
// always goes through the manifest.
func LocalFromDisk(next ModuleWalker, opts ...Option) ModuleWalker {
	childOpts := append(append([]Option{}, opts...), WithTestsDir(""))
	return ModuleWalkerFunc(func(req *ModuleRequest) (*Module, string, hcl.Diagnostics) {
		if req.Call.Source == nil || !IsLocalModuleSource(req.Call.SourceAddr) {
			return next.LoadModule(req)
		}
		dir := filepath.Join(req.Parent.Dir, filepath.FromSlash(req.Call.SourceAddr))
		mod, diags := LoadDir(dir, req.ChildOptions(childOpts...)...)
		return mod, dir, diags
	})
}

// ManifestPath is where LoadTree reads the module manifest for a root
// module directory.
func ManifestPath(rootDir string) string {
	return filepath.Join(rootDir, ".terraform", "modules", manifest.FileName)
}

// ReadManifest reads the module manifest at path through the options' file
// system (manifest.Parse's rules: missing = empty).
func ReadManifest(path string, opts ...Option) (manifest.Manifest, error) {
	src, err := newOptions(opts).fsys.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return manifest.Manifest{}, nil
	}
	if err != nil {
		return nil, err
	}
	return manifest.Parse(src)
}

// LoadTree loads the root module in dir and, when it has no errors, builds
// its module tree from the modules installed for it (dir's
// .terraform/modules/modules.json, ManifestWalker). Root and build
// diagnostics are returned separately. A manifest that cannot be read is
// the only root diagnostic, "failed to read module manifest: …", as
// OpenTofu reports it.
func LoadTree(dir string, opts ...Option) (tree *Tree, rootDiags, buildDiags hcl.Diagnostics) {
	m, err := ReadManifest(ManifestPath(dir), opts...)
	if err != nil {
		root := newModule(dir)
		return &Tree{Module: root, Dir: dir, Children: map[string]*Tree{}},
			hcl.Diagnostics{errorDiag("failed to read module manifest: "+err.Error(), "", nil)}, nil
	}
	return LoadTreeWith(dir, NewManifestWalker(m, dir, opts...), opts...)
}

// LoadTreeWith is LoadTree with the given walker.
func LoadTreeWith(dir string, w ModuleWalker, opts ...Option) (tree *Tree, rootDiags, buildDiags hcl.Diagnostics) {
	root, rootDiags := LoadDir(dir, opts...)
	tree = &Tree{Module: root, Dir: dir, Children: map[string]*Tree{}}
	if rootDiags.HasErrors() {
		return tree, rootDiags, nil
	}
	if newOptions(opts).rootValues {
		rootDiags = append(rootDiags, root.RootVariableValueDiags()...)
		if rootDiags.HasErrors() {
			return tree, rootDiags, nil
		}
	}
	if root.initDiags.HasErrors() {
		// A module source or version terraform cannot evaluate stops
		// it before any module is loaded.
		return tree, rootDiags, root.initDiags
	}
	tree, buildDiags = BuildTree(root, w, opts...)
	return tree, rootDiags, append(root.initDiags, buildDiags...)
}
