package requirements

import (
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/versions"
)

// testFiles collects what the root module's test files require
// (providers.md §5 step 5): each provider block, through the root module's
// local names, with its deprecated version constraint. The modules that run
// blocks test are added by Load, which can read them.
func (c *collector) testFiles(m *config.Module, mod *Module) {
	for _, name := range sortedKeys(m.Tests) {
		tf := &TestFile{Name: name, Providers: map[addrs.Provider]versions.Constraints{}}
		for _, pc := range m.Tests[name].Providers {
			p := m.ProviderForLocalName(pc.Name)
			if p.IsZero() {
				continue
			}
			cons := c.parse(pc.Version, pc.VersionSet, pc.VersionRange)
			tf.Providers[p] = versions.Intersect(tf.Providers[p], cons)
			c.addFlat(p, Source{Module: mod.Path, Kind: FromTestFile, Name: name + ": " + pc.Key(), Constraints: cons, Range: pc.DeclRange})
		}
		mod.Tests = append(mod.Tests, tf)
	}
}

// addFlat records that src requires p in the whole-tree result only.
func (c *collector) addFlat(p addrs.Provider, src Source) {
	c.res.Providers[p] = versions.Intersect(c.res.Providers[p], src.Constraints)
	c.res.Sources[p] = append(c.res.Sources[p], src)
}

// collectTestRuns loads the module under test of every run block of the
// root module's test files that names a local module source, and adds its
// requirements to res: as a run below its test file, and to the whole-tree
// result. Other sources are not installed by tfdeps and are left out.
func collectTestRuns(res *Result, rootDir string, opts []config.Option) hcl.Diagnostics {
	if res.Root == nil || res.Tree == nil || res.Tree.Module == nil {
		return nil
	}
	var diags hcl.Diagnostics
	c := &collector{res: res}
	for _, tf := range res.Root.Tests {
		for _, run := range res.Tree.Module.Tests[tf.Name].Runs {
			src := run.ModuleSource
			if !strings.HasPrefix(src, "./") && !strings.HasPrefix(src, "../") {
				continue
			}
			dir := filepath.Join(rootDir, filepath.FromSlash(src))
			tree, rootDiags, buildDiags := config.LoadTreeWith(dir, config.LocalFromDisk(config.NewManifestWalker(nil, dir, opts...), opts...), opts...)
			diags = append(append(diags, rootDiags...), buildDiags...)
			sub, subDiags := Collect(tree)
			diags = append(diags, subDiags...)
			if sub.Root == nil {
				continue
			}
			sub.Root.Name = run.Name
			tf.Runs = append(tf.Runs, sub.Root)
			for _, p := range sortedProviders(sub.Providers) {
				for _, s := range sub.Sources[p] {
					c.addFlat(p, s)
				}
				if sub.Explicit[p] {
					res.Explicit[p] = true
				}
			}
		}
	}
	return diags
}

// testRunOptions are the loader options for a module under test: the
// caller's, without test files of its own.
func testRunOptions(opts []config.Option) []config.Option {
	return append(append([]config.Option{}, opts...), config.WithTestsDir(""))
}
