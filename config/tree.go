package config

import (
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Tree is one module in a module tree: the root, or a module call resolved
// to a directory.
type Tree struct {
	Module *Module
	// Path is the module path: nil for the root, ["a", "b"] for module.a.module.b.
	Path []string
	// Call is the module call in the parent (nil for the root); SourceAddr
	// its decoded source address.
	Call       *ModuleCall
	SourceAddr string
	// Dir is the directory the module was loaded from.
	Dir      string
	Parent   *Tree
	Children map[string]*Tree
}

// PathString returns "" for the root and module.a.module.b otherwise.
func (t *Tree) PathString() string {
	var parts []string
	for _, p := range t.Path {
		parts = append(parts, "module."+p)
	}
	return strings.Join(parts, ".")
}

// Walk calls fn for t and its descendants, depth first, children in name
// order.
func (t *Tree) Walk(fn func(*Tree)) {
	fn(t)
	names := make([]string, 0, len(t.Children))
	for n := range t.Children {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Children[n].Walk(fn)
	}
}

// maxTreeDepth stops runaway recursion (a module calling itself).
const maxTreeDepth = 64

// LoadTree loads the root module in dir and, when it has no errors, builds
// its module tree (BuildTree). Root and build diagnostics are returned
// separately.
func LoadTree(dir string, opts ...Option) (tree *Tree, rootDiags, buildDiags hcl.Diagnostics) {
	root, rootDiags := LoadDir(dir, opts...)
	tree = &Tree{Module: root, Dir: dir, Children: map[string]*Tree{}}
	if rootDiags.HasErrors() {
		return tree, rootDiags, nil
	}
	tree, buildDiags = BuildTree(root, opts...)
	return tree, rootDiags, buildDiags
}

// BuildTree resolves the module calls of an already loaded root module:
// local sources ("./", "../") are read relative to the calling module's
// directory, other sources from the directory recorded for the call in
// ROOT/.terraform/modules/modules.json; a call that cannot be resolved is
// reported as "Module not installed". Child modules are loaded without test
// files.
func BuildTree(root *Module, opts ...Option) (*Tree, hcl.Diagnostics) {
	o := newOptions(opts)
	childOpts := append(append([]Option{}, opts...), WithTestsDir(""))
	manifest := readModulesManifest(o.fsys, root.SourceDir)
	tree := &Tree{Module: root, Dir: root.SourceDir, Children: map[string]*Tree{}}
	diags := buildChildren(tree, root.SourceDir, manifest, childOpts)
	return tree, diags
}

func buildChildren(t *Tree, rootDir string, manifest map[string]string, opts []Option) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if len(t.Path) >= maxTreeDepth {
		return diags
	}
	names := make([]string, 0, len(t.Module.ModuleCalls))
	for n := range t.Module.ModuleCalls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		call := t.Module.ModuleCalls[name]
		childPath := append(append([]string{}, t.Path...), name)
		var dir string
		switch {
		case IsLocalModuleSource(call.SourceAddr):
			dir = filepath.Join(t.Dir, filepath.FromSlash(call.SourceAddr))
		case manifest[strings.Join(childPath, ".")] != "":
			dir = manifest[strings.Join(childPath, ".")]
		default:
			diags = append(diags, errorDiag("Module not installed", `This module is not yet installed. Run "tofu init" to install all modules required by this configuration.`, call.DeclRange.Ptr()))
			continue
		}
		mod, modDiags := LoadDir(dir, append(opts[:len(opts):len(opts)], WithModuleCall(t.Module, call, childPath))...)
		diags = append(diags, modDiags...)
		child := &Tree{Module: mod, Path: childPath, Call: call, SourceAddr: call.SourceAddr, Dir: dir, Parent: t, Children: map[string]*Tree{}}
		t.Children[name] = child
		diags = append(diags, buildChildren(child, rootDir, manifest, opts)...)
	}
	return diags
}

// readModulesManifest reads .terraform/modules/modules.json: call key
// (a.b) → directory. A missing or unreadable manifest is empty.
func readModulesManifest(fsys FileSystem, rootDir string) map[string]string {
	out := map[string]string{}
	src, err := fsys.ReadFile(filepath.Join(rootDir, ".terraform", "modules", "modules.json"))
	if err != nil {
		return out
	}
	var manifest struct {
		Modules []struct {
			Key, Source, Dir string
		}
	}
	if json.Unmarshal(src, &manifest) != nil {
		return out
	}
	for _, rec := range manifest.Modules {
		if rec.Key == "" {
			continue
		}
		dir := rec.Dir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(rootDir, filepath.FromSlash(path.Clean(filepath.ToSlash(dir))))
		}
		out[rec.Key] = dir
	}
	return out
}

// String describes the tree for debugging: one line per module.
func (t *Tree) String() string {
	var b strings.Builder
	t.Walk(func(n *Tree) {
		fmt.Fprintf(&b, "%q %s\n", n.PathString(), n.Dir)
	})
	return b.String()
}
