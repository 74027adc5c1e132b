package config

import (
	"fmt"
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
	// its canonical source address.
	Call       *ModuleCall
	SourceAddr string
	// Dir is the directory the module was loaded from.
	Dir      string
	Parent   *Tree
	Children map[string]*Tree
}

// PathString returns "" for the root and module.a.module.b otherwise.
func (t *Tree) PathString() string { return modulePathString(t.Path) }

// ModulePathString returns "" for the root's path and module.a.module.b
// otherwise.
func ModulePathString(path []string) string { return modulePathString(path) }

func modulePathString(path []string) string {
	var parts []string
	for _, p := range path {
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

// ModuleRequest asks a ModuleWalker for the module of one call.
type ModuleRequest struct {
	// Name is the call's name; Path the new module's path (Parent's path
	// plus Name).
	Name string
	Path []string
	// Call is the module block; Call.Source is its classified source (nil
	// when it did not parse).
	Call *ModuleCall
	// Parent is the calling module, already loaded (Parent.Dir is where a
	// local source is resolved from).
	Parent *Tree
}

// Key is the request's manifest key: the path joined with ".".
func (r *ModuleRequest) Key() string { return strings.Join(r.Path, ".") }

// ChildOptions returns opts plus what loading the requested module needs:
// how its parent calls it, so that static evaluation in the child takes
// its variables' values from the call's arguments. Every walker loads a
// child with them.
func (r *ModuleRequest) ChildOptions(opts ...Option) []Option {
	return append(opts[:len(opts):len(opts)], WithModuleCall(r.Parent.Module, r.Call, r.Path))
}

// ModuleWalker loads the module of a call. It returns the module and the
// directory it was loaded from, or a nil module (and diagnostics) when the
// call cannot be resolved; a nil module stops the walk below that call.
// The module installer implements it to install while the tree is built;
// ManifestWalker loads what is installed.
type ModuleWalker interface {
	LoadModule(req *ModuleRequest) (mod *Module, dir string, diags hcl.Diagnostics)
}

// ModuleWalkerFunc adapts a function to ModuleWalker.
type ModuleWalkerFunc func(req *ModuleRequest) (*Module, string, hcl.Diagnostics)

// LoadModule calls f.
func (f ModuleWalkerFunc) LoadModule(req *ModuleRequest) (*Module, string, hcl.Diagnostics) {
	return f(req)
}

// MaxTreeDepth is the deepest module nesting BuildTree follows; a call
// below it is an error naming the limit. Cycles are found before, at their
// first repeat (see BuildTree).
const MaxTreeDepth = 1000

// BuildTree builds the module tree of an already loaded root module: for
// each module call, sorted by name and depth first (a module's children
// before its next sibling, the installer's walk order), it asks w for the
// module. A module whose directory (after symbolic links, on the operating
// system's file system) is already on the path from the root is not
// descended into: the call closes a cycle and is reported as "Module call
// cycle". Calls nested deeper than MaxTreeDepth are errors too.
//
// opts give the file system (for resolving symbolic links) like LoadDir's.
func BuildTree(root *Module, w ModuleWalker, opts ...Option) (*Tree, hcl.Diagnostics) {
	o := newOptions(opts)
	tree := &Tree{Module: root, Dir: root.SourceDir, Children: map[string]*Tree{}}
	b := &treeBuilder{walker: w, fsys: o.fsys, real: map[*Tree]string{tree: realDir(o.fsys, root.SourceDir)}}
	return tree, b.children(tree)
}

type treeBuilder struct {
	walker  ModuleWalker
	fsys    FileSystem
	real    map[*Tree]string
	modules int // calls followed, for MaxModules
}

func (b *treeBuilder) children(t *Tree) hcl.Diagnostics {
	var diags hcl.Diagnostics
	names := make([]string, 0, len(t.Module.ModuleCalls))
	for n := range t.Module.ModuleCalls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		call := t.Module.ModuleCalls[name]
		req := &ModuleRequest{Name: name, Path: append(append([]string{}, t.Path...), name), Call: call, Parent: t}
		if len(req.Path) > MaxTreeDepth {
			diags = append(diags, tooDeepDiag(req))
			continue
		}
		if stop, diag := b.countModule(req); stop {
			if diag != nil {
				diags = append(diags, diag)
			}
			return diags
		}
		mod, dir, modDiags := b.walker.LoadModule(req)
		diags = append(diags, modDiags...)
		if mod == nil {
			continue
		}
		child := &Tree{Module: mod, Path: req.Path, Call: call, SourceAddr: call.SourceAddr, Dir: dir, Parent: t, Children: map[string]*Tree{}}
		t.Children[name] = child
		real := realDir(b.fsys, dir)
		if anc := b.ancestorWithDir(t, real); anc != nil {
			diags = append(diags, cycleDiag(anc, child))
			continue
		}
		b.real[child] = real
		if argDiags := callArgumentDiags(call, mod); argDiags.HasErrors() {
			diags = append(diags, argDiags...)
			continue
		}
		// A Terraform child's static evaluation (its module sources and
		// const variables) comes after the check of the call's arguments.
		diags = append(diags, mod.initDiags...)
		diags = append(diags, b.children(child)...)
	}
	return diags
}

// ancestorWithDir returns t or the nearest ancestor of t whose real
// directory is real.
func (b *treeBuilder) ancestorWithDir(t *Tree, real string) *Tree {
	for a := t; a != nil; a = a.Parent {
		if b.real[a] == real {
			return a
		}
	}
	return nil
}

// realDir is dir made absolute with symbolic links resolved when fsys is
// the operating system's; a cleaned dir otherwise.
func realDir(fsys FileSystem, dir string) string {
	osfs, ok := fsys.(OSFileSystem)
	if !ok {
		return filepath.Clean(dir)
	}
	p, err := filepath.Abs(osfs.path(dir))
	if err != nil {
		return filepath.Clean(dir)
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// cycleDiag reports that child's directory is anc's: the calls from anc
// down to child form a cycle.
func cycleDiag(anc, child *Tree) *hcl.Diagnostic {
	var steps []string
	for t := child; t != anc; t = t.Parent {
		steps = append(steps, fmt.Sprintf("%s (%s)", t.PathString(), callPos(t.Call)))
	}
	start := anc.PathString()
	if start == "" {
		start = "the root module"
	}
	chain := start
	for i := len(steps) - 1; i >= 0; i-- {
		chain += " → " + steps[i]
	}
	return errorDiag("Module call cycle", fmt.Sprintf(
		"The module call %s loads the directory %s, which %s has already loaded on this path, so the module tree would never end: %s. A module must not call itself, directly or through other modules.",
		child.PathString(), child.Dir, start, chain), child.Call.DeclRange.Ptr())
}

func tooDeepDiag(req *ModuleRequest) *hcl.Diagnostic {
	return errorDiag("Module tree too deep", fmt.Sprintf(
		"The module call %s (%s) is nested %d modules deep, more than tfdeps' limit of %d. Check the configuration for module calls that repeat without end.",
		modulePathString(req.Path), callPos(req.Call), len(req.Path), MaxTreeDepth), req.Call.DeclRange.Ptr())
}

// callPos is FILE:LINE of a module block.
func callPos(c *ModuleCall) string {
	return fmt.Sprintf("%s:%d", c.DeclRange.Filename, c.DeclRange.Start.Line)
}

// String describes the tree for debugging: one line per module.
func (t *Tree) String() string {
	var b strings.Builder
	t.Walk(func(n *Tree) {
		fmt.Fprintf(&b, "%q %s\n", n.PathString(), n.Dir)
	})
	return b.String()
}
