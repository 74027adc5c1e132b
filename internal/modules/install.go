package modules

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfdeps/tfdeps/config"
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
	// Upgrade replaces every module (init -upgrade, get -update).
	Upgrade bool
	// Registry answers registry sources (nil: registry calls fail with M10).
	Registry Registry
	Getters  GetterOptions
	// Cache is the shared package cache (nil: none).
	Cache *Cache
	// Parallelism bounds concurrent fetches ahead of the walk (0: 8;
	// negative: no fetching ahead).
	Parallelism int
	// Config are the options for loading child modules.
	Config []config.Option
	Events Events
}

// Install installs the module calls of root (loaded from "." with its
// test files) and writes MODDIR/modules.json, even after errors. It
// returns the diagnostics in the order they arose; the caller sorts them.
func Install(ctx context.Context, root *config.Module, o Options) hcl.Diagnostics {
	if o.ModsDir == "" {
		o.ModsDir = filepath.Join(".terraform", "modules")
	}
	manifest, err := ReadManifest(o.ModsDir)
	if err != nil {
		return hcl.Diagnostics{sourceless("Failed to read modules manifest file", "Error reading manifest for "+o.ModsDir+": "+err.Error()+".")}
	}
	manifest[""] = Record{Key: "", Dir: "."}
	w := &walk{o: o, manifest: manifest, fetch: newFetcher(o.Getters)}
	if o.Registry != nil {
		w.res = newResolver(o.Registry)
	}
	if o.Parallelism >= 0 {
		w.fetch.pre = startPrefetch(ctx, w, root)
		defer w.fetch.pre.close()
	}
	rootNode := &node{dir: "."}
	w.children(ctx, rootNode, root)
	w.testRuns(ctx, rootNode, root)
	if err := os.MkdirAll(o.ModsDir, 0o777); err == nil {
		err = manifest.Write(o.ModsDir)
	}
	if err != nil {
		w.diags = append(w.diags, sourceless("Failed to update module manifest", "Unable to write the module manifest file: "+err.Error()))
	}
	return w.diags
}

// walk is one run of the installer over the tree.
type walk struct {
	o        Options
	manifest Manifest
	fetch    *fetcher
	res      *resolver
	diags    hcl.Diagnostics
}

// node is an installed (or reused) module: its path, directory and
// source, for its children's local paths and the escape check.
type node struct {
	path   []string
	dir    string
	src    *Source
	parent *node
}

// request is one module call to visit.
type request struct {
	name       string
	path       []string
	raw        string
	hasVersion bool
	constraint string
	rng        hcl.Range
}

func (r request) key() string { return strings.Join(r.path, ".") }

// children visits the calls of mod, sorted by name, depth first.
func (w *walk) children(ctx context.Context, parent *node, mod *config.Module) {
	names := make([]string, 0, len(mod.ModuleCalls))
	for n := range mod.ModuleCalls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if ctx.Err() != nil {
			return
		}
		w.visit(ctx, parent, callRequest(parent.path, mod.ModuleCalls[n]))
	}
}

func callRequest(parentPath []string, c *config.ModuleCall) request {
	return request{
		name: c.Name, path: append(append([]string{}, parentPath...), c.Name),
		raw: c.SourceAddr, hasVersion: c.HasVersion, constraint: c.Version, rng: c.DeclRange,
	}
}

// testRuns visits the module calls of run blocks, test files sorted by
// path (OpenTofu: map order), runs in file order.
func (w *walk) testRuns(ctx context.Context, root *node, mod *config.Module) {
	for _, name := range mod.TestFileNames() {
		tf := mod.Tests[name]
		for _, run := range tf.Runs {
			if run.ModuleSource == "" {
				continue
			}
			path := append([]string{"test"}, testKeyParts(name)...)
			path = append(path, run.Name)
			w.visit(ctx, root, request{name: run.Name, path: path, raw: run.ModuleSource, rng: run.DeclRange})
		}
	}
}

// testKeyParts splits tests/smoke.tftest.hcl into tests, smoke.
func testKeyParts(name string) []string {
	name = strings.TrimSuffix(filepath.ToSlash(name), ".tftest.hcl")
	return strings.Split(name, "/")
}

// visit decides between reuse and install for one call and walks on.
func (w *walk) visit(ctx context.Context, parent *node, req request) {
	if req.raw == "" || req.name == "" || !hclsyntax.ValidIdentifier(req.name) {
		return
	}
	src, err := ParseSource(req.raw, req.hasVersion)
	if err != nil {
		return
	}
	key := req.key()
	instPath := filepath.Join(w.o.ModsDir, key)
	w.replaceIfChanged(key, src, req.constraint)
	rec, recorded := w.manifest[key]
	if !recorded {
		if err := os.RemoveAll(instPath); err != nil {
			w.diags = append(w.diags, sourceless("Failed to remove local module cache",
				"OpenTofu tried to remove "+instPath+" in order to reinstall this module, but encountered an error: "+err.Error()))
			return
		}
	} else if isDir(rec.Dir) {
		mod, diags := config.LoadDir(rec.Dir, w.o.Config...)
		w.diags = append(w.diags, diags...)
		w.diags = append(w.diags, SourceDiags(mod)...)
		n := &node{path: req.path, dir: rec.Dir, src: &src, parent: parent}
		w.children(ctx, n, mod)
		return
	}
	var n *node
	var mod *config.Module
	switch src.Kind {
	case KindLocal:
		n, mod = w.installLocal(parent, req, src)
	case KindRegistry:
		n, mod = w.installRegistry(ctx, parent, req, src, instPath)
	case KindRemote:
		n, mod = w.installRemote(ctx, parent, req, src, instPath)
	}
	if mod != nil {
		w.children(ctx, n, mod)
	}
}

// replaceIfChanged drops the record of key and those below it when the
// call no longer matches it, or on upgrade (modules.md §5.2).
func (w *walk) replaceIfChanged(key string, src Source, constraint string) {
	rec, recorded := w.manifest[key]
	replace := w.o.Upgrade || !recorded || rec.Source != src.String()
	if !replace && rec.Version != "" {
		v, err := version.NewVersion(rec.Version)
		cons, cerr := version.NewConstraint(constraint)
		replace = err != nil || (cerr == nil && !cons.Check(v))
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

// load reads the module in dir, or reports that dir is not a readable
// directory (nil module).
func (w *walk) load(dir string) (*config.Module, hcl.Diagnostics) {
	if !isDir(dir) {
		return nil, nil
	}
	return config.LoadDir(dir, w.o.Config...)
}

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
