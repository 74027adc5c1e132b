package moduleinstall

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	getter "github.com/hashicorp/go-getter"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleaddr"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
)

// installLocal resolves a local call against its parent's directory
// (modules.md §5.3); nothing is copied.
func (w *walk) installLocal(req *config.ModuleRequest, src moduleaddr.Local) (*config.Module, string, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	rng := req.Call.DeclRange
	dir, err := w.o.evalSymlinks(filepath.Join(req.Parent.Dir, src.String()))
	if err != nil {
		diags = append(diags, sourceless("Unreadable module directory", "Unable to evaluate directory symlink: "+err.Error()))
	}
	mod, modDiags := w.load(req, dir)
	if mod == nil {
		diags = append(diags, sourceless("Unreadable module directory", fmt.Sprintf("The directory %s could not be read for module %q at %s:%d.", dir, req.Name, rng.Filename, rng.Start.Line)))
	} else {
		diags = append(diags, modDiags...)
	}
	diags = escapeCheck(req, diags, w.o.Flavour)
	w.manifest[req.Key()] = manifest.Record{Key: req.Key(), Source: src.String(), Dir: dir}
	w.o.Events.Install(req.Key(), "", dir)
	return mod, dir, diags
}

// installRemote fetches a go-getter package into instPath.
func (w *walk) installRemote(req *config.ModuleRequest, src moduleaddr.Remote, instPath string) (*config.Module, string, hcl.Diagnostics) {
	rng := req.Call.DeclRange
	w.o.Events.Download(req.Key(), src.Package, "")
	if err := w.fetch.install(w.ctx, w.o.inDir(instPath), src.Package); err != nil {
		return nil, "", hcl.Diagnostics{blockDiag("Failed to download module", fmt.Sprintf("Could not download module %q (%s:%d) source code from %q: %s", req.Name, rng.Filename, rng.Start.Line, src.Package, w.o.relText(err.Error())), rng)}
	}
	dir, err := getter.SubdirGlob(w.o.inDir(instPath), src.Subdir)
	if err != nil {
		return nil, "", hcl.Diagnostics{sourceless("Failed to expand subdir globs", w.o.relErr(err).Error())}
	}
	if rel, ok := w.o.relative(dir); ok && w.o.Dir != "" && !filepath.IsAbs(instPath) {
		dir = rel
	}
	mod, diags := w.loadInstalled(req, dir, instPath, src.Subdir, false)
	w.manifest[req.Key()] = manifest.Record{Key: req.Key(), Source: src.String(), Dir: dir}
	w.o.Events.Install(req.Key(), "", dir)
	return mod, dir, diags
}

// loadInstalled loads a fetched module; a missing subdirectory is M6,
// another unreadable directory M8.
func (w *walk) loadInstalled(req *config.ModuleRequest, dir, instPath, subdir string, registry bool) (*config.Module, hcl.Diagnostics) {
	mod, diags := w.load(req, dir)
	if mod != nil {
		return mod, diags
	}
	if w.o.Flavour == flavour.Terraform && registry && subdir != "" && w.isDir(instPath) && !exists(w.o.inDir(dir)) {
		return nil, hcl.Diagnostics{sourceless("Unreadable module subdirectory", fmt.Sprintf("The directory %s does not exist. The target submodule %s does not exist within the target module.", dir, filepath.FromSlash(subdir)))}
	}
	if missing, ok := firstMissing(w.o.inDir(dir)); subdir != "" && ok && w.o.Flavour != flavour.Terraform {
		format := "Cannot find directory %q in the module path %q. The requested subdirectory was %q."
		if registry {
			format = "Cannot find directory %q in module %q. The requested subdirectory was %q."
		}
		return nil, hcl.Diagnostics{blockDiag("Module subdirectory not found", fmt.Sprintf(format, missing, instPath, subdir), req.Call.DeclRange)}
	}
	return nil, hcl.Diagnostics{sourceless("Unreadable module directory", fmt.Sprintf("The directory %s could not be read. This is a bug in %s and should be reported.", dir, w.o.Flavour.Product()))}
}

// exists reports whether path names an existing file or directory.
func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, os.ErrNotExist)
}

// firstMissing names the first path element of dir that does not exist.
func firstMissing(dir string) (string, bool) {
	dir = filepath.Clean(dir)
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		return "", false
	}
	var parts []string
	for cur := dir; ; {
		parent := filepath.Dir(cur)
		if parent == cur {
			return "", false
		}
		parts = append([]string{filepath.Base(cur)}, parts...)
		if info, err := os.Stat(parent); err == nil && info.IsDir() {
			return parts[0], true
		}
		cur = parent
	}
}

// escapeCheck replaces the errors of a failed local call by M3 when its
// chain of local paths leaves the package it belongs to (modules.md §5.4).
// The root module is no package.
func escapeCheck(req *config.ModuleRequest, diags hcl.Diagnostics, f flavour.Flavour) hcl.Diagnostics {
	if !diags.HasErrors() {
		return diags
	}
	type step struct {
		path  []string
		local string
	}
	chain := []step{{req.Path, req.Call.Source.String()}}
	t := req.Parent
	for ; t != nil && t.Call != nil; t = t.Parent {
		l, ok := t.Call.Source.(moduleaddr.Local)
		if !ok {
			break
		}
		chain = append([]step{{t.Path, l.String()}}, chain...)
	}
	if t == nil || t.Call == nil || t.Call.Source == nil {
		return diags
	}
	var pkg, sub string
	switch src := t.Call.Source.(type) {
	case moduleaddr.Registry:
		pkg, sub = src.Package().String(), src.Subdir
	case moduleaddr.Remote:
		pkg, sub = src.Package, src.Subdir
	}
	const prefix = "*/"
	at := path.Join(prefix, sub)
	for _, s := range chain {
		next := path.Join(at, s.local)
		if !strings.HasPrefix(next, prefix) {
			return escapeDiags(diags, s.path, pkg, f)
		}
		at = next
	}
	return diags
}

func escapeDiags(diags hcl.Diagnostics, modPath []string, pkg string, f flavour.Flavour) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			out = append(out, d)
		}
	}
	hint := ""
	if strings.HasPrefix(pkg, "/") || filepath.VolumeName(pkg) != "" {
		hint = "\n\n" + f.Product() + " treats absolute filesystem paths as external modules which establish a new module package. To treat this directory as part of the same package as its caller, use a local path starting with either \"./\" or \"../\"."
	}
	parts := make([]string, len(modPath))
	for i, p := range modPath {
		parts[i] = "module." + p
	}
	return append(out, sourceless("Local module path escapes module package", fmt.Sprintf(
		"The given source directory for %s would be outside of its containing package %q. Local source addresses starting with \"../\" must stay within the same package that the calling module belongs to.%s",
		strings.Join(parts, "."), pkg, hint)))
}
