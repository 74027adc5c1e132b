package requirements

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
)

// testFiles collects what the root module's test files require (providers.md
// §5 step 5): each provider block, through the root module's local names,
// with its deprecated version constraint. The modules that run blocks test
// are collected by Load, which can read them.
func (c *collector) testFiles(m *config.Module, mod *Module) {
	for _, name := range sortedKeys(m.Tests) {
		tf := m.Tests[name]
		for _, pc := range tf.Providers {
			cons := c.parse(pc.Version, pc.VersionSet, pc.VersionRange)
			c.add(mod, m.ProviderForLocalName(pc.Name), Source{Kind: FromTestFile, Name: name + ": " + pc.Key(), Constraints: cons, Range: pc.DeclRange})
		}
	}
}

// testRunModules lists the local directories that run blocks of the root
// module's test files put under test, relative to the root directory, in
// file and source order without repeats. Other sources are not installed
// by tfdeps and are left out.
func testRunModules(m *config.Module) []string {
	if m == nil {
		return nil
	}
	var dirs []string
	for _, name := range sortedKeys(m.Tests) {
		for _, run := range m.Tests[name].Runs {
			src := run.ModuleSource
			if !strings.HasPrefix(src, "./") && !strings.HasPrefix(src, "../") {
				continue
			}
			if dir := path.Clean(src); !slices.Contains(dirs, dir) {
				dirs = append(dirs, dir)
			}
		}
	}
	return dirs
}

// collectTestRuns loads each module under test of the root's run blocks and
// adds its whole tree's requirements to res, as part of the root module.
func collectTestRuns(res *Result, rootDir string, opts []config.Option) hcl.Diagnostics {
	if res.Root == nil || res.Tree == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, dir := range testRunModules(res.Tree.Module) {
		tree, rootDiags, buildDiags := config.LoadTree(filepath.Join(rootDir, filepath.FromSlash(dir)), opts...)
		diags = append(diags, rootDiags...)
		diags = append(diags, buildDiags...)
		sub, subDiags := Collect(tree)
		diags = append(diags, subDiags...)
		res.mergeUnder(res.Root, sub)
	}
	return diags
}

// mergeUnder adds every requirement of other to r, attributing them to mod.
func (r *Result) mergeUnder(mod *Module, other *Result) {
	c := &collector{res: r}
	for p, srcs := range other.Sources {
		for _, s := range srcs {
			c.add(mod, p, s)
		}
		if other.Explicit[p] {
			r.Explicit[p] = true
		}
	}
}

// testRunOptions are the loader options for a module under test: the
// caller's, without test files of its own.
func testRunOptions(opts []config.Option) []config.Option {
	return append(append([]config.Option{}, opts...), config.WithTestsDir(""))
}
