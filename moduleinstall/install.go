package moduleinstall

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleaddr"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
)

// Events receives the installer's progress, in walk order.
type Events interface {
	// Download: a registry (version set) or remote package is about to be
	// fetched for key.
	Download(key, addr, version string)
	// Install: key was installed in dir (dir may be "" for a missing
	// local directory).
	Install(key, version, dir string)
}

// Options configure one installation.
type Options struct {
	// ModsDir is MODDIR, relative to the working directory
	// (".terraform/modules" by default).
	ModsDir string
	// Dir is the working directory ("" for the current one). ModsDir,
	// the manifest's directories and local sources are relative to it
	// and are recorded (modules.json) and reported (events, diagnostics)
	// as they are, exactly as when installing from inside it. Modules
	// are read with config.OSFileSystem{Root: Dir} and
	// config.WithWorkingDir(Dir) unless Config says otherwise.
	Dir string
	// Upgrade replaces every module (init -upgrade, get -update).
	Upgrade bool
	// Registry answers registry sources (nil: registry calls fail with M10).
	Registry Registry
	Getters  GetterOptions
	// Cache is the shared package cache (nil: none).
	Cache *Cache
	// Parallelism bounds concurrent fetches ahead of the walk (0: 8;
	// negative: no fetching ahead, one package at a time in walk order).
	Parallelism int
	// Config are the options for loading child modules.
	Config []config.Option
	Events Events
	// Fetches, when set, hears about remote package fetches as they
	// happen (for a live display; Events keeps OpenTofu's order).
	Fetches *FetchEvents
	// InstallErrorsOnly is tofu get's mode: modules.json is left as it was
	// when installing a module failed (tofu init writes it even then;
	// Terraform never writes it after errors), but not for errors of
	// RootDiags; and the problems TreeChecks finds do not stop anything:
	// they are reported as warnings.
	InstallErrorsOnly bool
	// TreeChecks, with InstallErrorsOnly, are the checks OpenTofu makes
	// while it builds the module tree (provider configurations across
	// modules); they run on the installed tree when installing succeeded.
	TreeChecks func(*config.Tree) hcl.Diagnostics
	// Flavour selects the texts of the diagnostics (OpenTofu's or
	// Terraform's) and, for Terraform, that no manifest is written after
	// errors.
	Flavour flavour.Flavour
	// RootDiags are the diagnostics of loading root, reported with the
	// installer's: Terraform's installer loads the root module itself and
	// counts its errors as installation errors (no manifest is written).
	RootDiags hcl.Diagnostics
	// CoreVersion, with Terraform's flavour, is the emulated Terraform
	// version: each module loaded whose required_version excludes it has
	// those errors reported instead of its other diagnostics, as
	// Terraform's installer does ("": no check).
	CoreVersion string
}

// Install installs the module calls of root (loaded from "." with its
// test files) while building its tree with config.BuildTree (the walk
// order and cycle check), then writes MODDIR/modules.json, even after
// errors unless o.InstallErrorsOnly (see there) or Terraform's flavour.
// It returns the diagnostics in the order they arose; the caller sorts
// them.
func Install(ctx context.Context, root *config.Module, o Options) hcl.Diagnostics {
	o = o.withDir()
	if o.ModsDir == "" {
		o.ModsDir = filepath.Join(".terraform", "modules")
	}
	if o.Flavour == flavour.Terraform {
		// terraform creates the modules directory before it installs
		// anything, so it exists even after errors.
		if err := os.MkdirAll(o.inDir(o.ModsDir), 0o777); err != nil {
			return hcl.Diagnostics{sourceless("failed to create local modules directory: "+o.relErr(err).Error(), "")}
		}
	}
	path := filepath.Join(o.ModsDir, manifest.FileName)
	m, err := manifest.Read(o.inDir(path))
	if err != nil {
		return hcl.Diagnostics{sourceless("Failed to read modules manifest file", "Error reading manifest for "+o.ModsDir+": "+o.relErr(err).Error()+".")}
	}
	m[""] = manifest.Record{Key: "", Dir: "."}
	w := &walk{ctx: ctx, o: o, manifest: m, fetch: newFetcher(o)}
	if o.Registry != nil {
		w.res = newResolver(o.Registry)
	}
	if o.Parallelism >= 0 {
		w.fetch.pre = startPrefetch(ctx, w, root)
		defer w.fetch.pre.close()
	}
	tree, diags := config.BuildTree(root, w, o.Config...)
	diags = append(diags, w.testRuns(tree)...)
	installFailed := diags.HasErrors()
	if o.InstallErrorsOnly && !installFailed && o.TreeChecks != nil {
		diags = append(diags, asWarnings(o.TreeChecks(tree))...)
	}
	diags = append(append(hcl.Diagnostics{}, o.RootDiags...), diags...)
	if (o.InstallErrorsOnly && installFailed) || (o.Flavour == flavour.Terraform && diags.HasErrors()) {
		return diags
	}
	if err := os.MkdirAll(o.inDir(o.ModsDir), 0o777); err == nil {
		err = m.Write(o.inDir(path))
	}
	if err != nil {
		diags = append(diags, sourceless("Failed to update module manifest", "Unable to write the module manifest file: "+o.relErr(err).Error()))
	}
	return diags
}

// asWarnings returns diags with every error made a warning.
func asWarnings(diags hcl.Diagnostics) hcl.Diagnostics {
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		c := *d
		c.Severity = hcl.DiagWarning
		out[i] = &c
	}
	return out
}

// walk installs modules as config.BuildTree asks for them.
type walk struct {
	ctx      context.Context
	o        Options
	manifest manifest.Manifest
	fetch    *fetcher
	res      *resolver
}

var _ config.ModuleWalker = (*walk)(nil)

// LoadModule implements config.ModuleWalker: reuse or install one call
// (modules.md §5.2, §5.3).
func (w *walk) LoadModule(req *config.ModuleRequest) (*config.Module, string, hcl.Diagnostics) {
	mod, dir, diags := w.loadModule(req)
	if mod != nil && w.o.Flavour == flavour.Terraform && w.o.CoreVersion != "" {
		if v := mod.CheckTerraformCore(w.o.CoreVersion, config.ModulePathString(req.Path), req.Call.SourceAddr); v.HasErrors() {
			diags = v
		}
	}
	return mod, dir, diags
}

func (w *walk) loadModule(req *config.ModuleRequest) (*config.Module, string, hcl.Diagnostics) {
	call := req.Call
	if call.Source == nil || req.Name == "" || !hclsyntax.ValidIdentifier(req.Name) || w.ctx.Err() != nil {
		return nil, "", nil
	}
	key := req.Key()
	instPath := filepath.Join(w.o.ModsDir, key)
	w.replaceIfChanged(key, call)
	rec, recorded := w.manifest[key]
	if !recorded {
		if err := os.RemoveAll(w.o.inDir(instPath)); err != nil {
			return nil, "", hcl.Diagnostics{sourceless("Failed to remove local module cache",
				w.o.Flavour.Product()+" tried to remove "+instPath+" in order to reinstall this module, but encountered an error: "+w.o.relErr(err).Error())}
		}
	} else if w.isDir(rec.Dir) {
		mod, diags := config.LoadDir(rec.Dir, w.childOptions(req)...)
		return mod, rec.Dir, diags
	}
	switch src := call.Source.(type) {
	case moduleaddr.Local:
		return w.installLocal(req, src)
	case moduleaddr.Registry:
		return w.installRegistry(req, src, instPath)
	case moduleaddr.Remote:
		return w.installRemote(req, src, instPath)
	}
	return nil, "", nil
}

// childOptions are the loader options of the requested child module: its
// parent's call gives its variables' values for static evaluation.
func (w *walk) childOptions(req *config.ModuleRequest) []config.Option {
	return req.ChildOptions(w.baseOptions()...)
}

// baseOptions are the loader options of every child module.
func (w *walk) baseOptions() []config.Option {
	return append(append([]config.Option{}, w.o.Config...), config.WithTestsDir(""))
}

// replaceIfChanged drops the record of key and those below it when the
// call no longer matches it, or on upgrade (modules.md §5.2).
func (w *walk) replaceIfChanged(key string, call *config.ModuleCall) {
	rec, recorded := w.manifest[key]
	replace := w.o.Upgrade || !recorded || rec.Source != call.Source.String()
	if !replace && rec.Version != "" && !versionAccepted(rec.Version, call) {
		replace = true
	}
	if !replace {
		return
	}
	delete(w.manifest, key)
	for k := range w.manifest {
		if strings.HasPrefix(k, key+".") {
			delete(w.manifest, k)
		}
	}
}

// versionAccepted reports whether a recorded version meets the call's
// constraint (none: every version).
func versionAccepted(recorded string, call *config.ModuleCall) bool {
	v, err := version.NewVersion(recorded)
	if err != nil {
		return false
	}
	if !call.HasVersion || call.Version == "" {
		return true
	}
	cons, err := version.NewConstraint(call.Version)
	return err != nil || cons.Check(v)
}

// load reads the module in dir, or reports that dir is not a readable
// directory (nil module).
func (w *walk) load(req *config.ModuleRequest, dir string) (*config.Module, hcl.Diagnostics) {
	if !w.isDir(dir) {
		return nil, nil
	}
	return config.LoadDir(dir, w.childOptions(req)...)
}

// isDir is isDir for dir relative to the working directory.
func (w *walk) isDir(dir string) bool { return dir != "" && isDir(w.o.inDir(dir)) }

func isDir(dir string) bool {
	if dir == "" {
		return false
	}
	info, err := os.Stat(dir)
	return err == nil && info.IsDir()
}

func sourceless(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
}

func blockDiag(summary, detail string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}
}
