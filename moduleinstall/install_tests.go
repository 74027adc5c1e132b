package moduleinstall

import (
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
)

// testRuns installs the modules of run blocks in the root's test files
// after the configuration tree (modules.md §5.1): test files sorted by
// path (OpenTofu: map order), runs in file order, keys
// test.DIR-PARTS.FILE.RUN; each with its own calls below it.
func (w *walk) testRuns(root *config.Tree) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range root.Module.TestFileNames() {
		for _, run := range root.Module.Tests[name].Runs {
			if run.ModuleSource == "" {
				continue
			}
			// The diagnostics point at the module block (OpenTofu 1.12.6
			// and Terraform alike).
			call, err := config.TestRunCall(run, w.o.Flavour)
			if err != nil {
				continue
			}
			path := config.TestRunModulePath(name, run.Name)
			diags = append(diags, w.subtree(root, path, call, 0)...)
		}
	}
	return diags
}

// subtree loads one call and, depth first in name order, its calls.
func (w *walk) subtree(parent *config.Tree, path []string, call *config.ModuleCall, depth int) hcl.Diagnostics {
	if depth > config.MaxTreeDepth {
		return nil
	}
	req := &config.ModuleRequest{Name: call.Name, Path: path, Call: call, Parent: parent}
	mod, dir, diags := w.LoadModule(req)
	if mod == nil {
		return diags
	}
	t := &config.Tree{Module: mod, Path: path, Call: call, SourceAddr: call.SourceAddr, Dir: dir, Parent: parent, Children: map[string]*config.Tree{}}
	names := make([]string, 0, len(mod.ModuleCalls))
	for n := range mod.ModuleCalls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		childPath := append(append([]string{}, path...), n)
		diags = append(diags, w.subtree(t, childPath, mod.ModuleCalls[n], depth+1)...)
	}
	return diags
}
