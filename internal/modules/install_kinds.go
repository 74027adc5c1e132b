package modules

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	getter "github.com/hashicorp/go-getter"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
)

// installLocal resolves a local call against its parent's directory
// (modules.md §5.3); nothing is copied.
func (w *walk) installLocal(parent *node, req request, src Source) (*node, *config.Module) {
	var diags hcl.Diagnostics
	dir, err := filepath.EvalSymlinks(filepath.Join(parent.dir, src.Local))
	if err != nil {
		diags = append(diags, sourceless("Unreadable module directory", "Unable to evaluate directory symlink: "+err.Error()))
	}
	mod, modDiags := w.load(dir)
	if mod != nil {
		modDiags = append(modDiags, SourceDiags(mod)...)
	}
	if mod == nil {
		diags = append(diags, sourceless("Unreadable module directory", fmt.Sprintf("The directory %s could not be read for module %q at %s:%d.", dir, req.name, req.rng.Filename, req.rng.Start.Line)))
	} else {
		diags = append(diags, modDiags...)
	}
	n := &node{path: req.path, dir: dir, src: &src, parent: parent}
	w.diags = append(w.diags, escapeCheck(n, diags)...)
	w.manifest[req.key()] = Record{Key: req.key(), Source: src.String(), Dir: dir}
	w.o.Events.Install(req.key(), "", dir)
	return n, mod
}

// installRemote fetches a go-getter package into instPath.
func (w *walk) installRemote(ctx context.Context, parent *node, req request, src Source, instPath string) (*node, *config.Module) {
	w.o.Events.Download(req.key(), src.Package, "")
	if err := w.fetch.install(ctx, instPath, src.Package); err != nil {
		w.diags = append(w.diags, blockDiag("Failed to download module", fmt.Sprintf("Could not download module %q (%s:%d) source code from %q: %s", req.name, req.rng.Filename, req.rng.Start.Line, src.Package, err), req.rng))
		return nil, nil
	}
	dir, err := getter.SubdirGlob(instPath, src.Subdir)
	if err != nil {
		w.diags = append(w.diags, sourceless("Failed to expand subdir globs", err.Error()))
		return nil, nil
	}
	mod := w.loadInstalled(req, dir, instPath, src.Subdir, false)
	w.manifest[req.key()] = Record{Key: req.key(), Source: src.String(), Dir: dir}
	w.o.Events.Install(req.key(), "", dir)
	return &node{path: req.path, dir: dir, src: &src, parent: parent}, mod
}

// loadInstalled loads a fetched module; a missing subdirectory is M6,
// another unreadable directory M8.
func (w *walk) loadInstalled(req request, dir, instPath, subdir string, registry bool) *config.Module {
	mod, diags := w.load(dir)
	if mod != nil {
		w.diags = append(w.diags, diags...)
		w.diags = append(w.diags, SourceDiags(mod)...)
		return mod
	}
	if missing, ok := firstMissing(dir); subdir != "" && ok {
		format := "Cannot find directory %q in the module path %q. The requested subdirectory was %q."
		if registry {
			format = "Cannot find directory %q in module %q. The requested subdirectory was %q."
		}
		w.diags = append(w.diags, blockDiag("Module subdirectory not found", fmt.Sprintf(format, missing, instPath, subdir), req.rng))
		return nil
	}
	w.diags = append(w.diags, sourceless("Unreadable module directory", fmt.Sprintf("The directory %s could not be read. This is a bug in OpenTofu and should be reported.", dir)))
	return nil
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
func escapeCheck(n *node, diags hcl.Diagnostics) hcl.Diagnostics {
	if !diags.HasErrors() {
		return diags
	}
	var chain []*node
	cur := n
	for cur != nil && cur.src != nil && cur.src.Kind == KindLocal {
		chain = append([]*node{cur}, chain...)
		cur = cur.parent
	}
	if cur == nil || cur.src == nil {
		return diags
	}
	pkg, sub := cur.src.Package, cur.src.Subdir
	if cur.src.Kind == KindRegistry {
		pkg = cur.src.Registry.Package.String()
	}
	const prefix = "*/"
	at := path.Join(prefix, sub)
	for _, step := range chain {
		next := path.Join(at, step.src.Local)
		if !strings.HasPrefix(next, prefix) {
			var out hcl.Diagnostics
			for _, d := range diags {
				if d.Severity != hcl.DiagError {
					out = append(out, d)
				}
			}
			hint := ""
			if strings.HasPrefix(pkg, "/") || filepath.VolumeName(pkg) != "" {
				hint = "\n\nOpenTofu treats absolute filesystem paths as external modules which establish a new module package. To treat this directory as part of the same package as its caller, use a local path starting with either \"./\" or \"../\"."
			}
			return append(out, sourceless("Local module path escapes module package", fmt.Sprintf(
				"The given source directory for %s would be outside of its containing package %q. Local source addresses starting with \"../\" must stay within the same package that the calling module belongs to.%s",
				moduleAddr(step.path), pkg, hint)))
		}
		at = next
	}
	return diags
}

func moduleAddr(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = "module." + p
	}
	return strings.Join(parts, ".")
}
