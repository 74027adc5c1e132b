package requirements

import (
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
	"github.com/tfdeps/tfdeps/versions"
)

// testFiles collects what the root module's test files require
// (providers.md §5 step 5): each provider block, through the root module's
// local names, with its deprecated version constraint. The modules that run
// blocks test are added by Load, which can read them. Terraform requires
// nothing for a test file's provider blocks (only for its runs' modules).
func (c *collector) testFiles(m *config.Module, mod *Module) {
	for _, name := range sortedKeys(m.Tests) {
		tf := &TestFile{Name: name, Providers: map[addrs.Provider]versions.Constraints{}}
		mod.Tests = append(mod.Tests, tf)
		if c.flavour == flavour.Terraform {
			continue
		}
		for _, pc := range m.Tests[name].Providers {
			p := m.ProviderForLocalName(pc.Name)
			if p.IsZero() {
				continue
			}
			cons := c.parse(pc.Version, pc.VersionSet, pc.VersionRange)
			tf.Providers[p] = versions.Intersect(tf.Providers[p], cons)
			c.addFlat(p, Source{Module: mod.Path, Kind: FromTestFile, Name: name + ": " + pc.Key(), Constraints: cons, Range: pc.DeclRange})
		}
	}
}

// addFlat records that src requires p in the whole-tree result only.
func (c *collector) addFlat(p addrs.Provider, src Source) {
	c.res.Providers[p] = versions.Intersect(c.res.Providers[p], src.Constraints)
	c.res.Sources[p] = append(c.res.Sources[p], src)
}

// collectTestRuns loads the module under test of every run block of the
// root module's test files that has a module block, and adds its
// requirements to res: as a run below its test file, and to the whole-tree
// result. As OpenTofu does, the module is read from where init installed
// it (modules.json, key test.FILE.RUN); one that is not installed is
// "Module not installed". With fromDisk (configurations that were never
// initialised), local sources are read from their directories instead.
func collectTestRuns(res *Result, rootDir string, opts []config.Option, fromDisk bool) hcl.Diagnostics {
	if res.Root == nil || res.Tree == nil || res.Tree.Module == nil {
		return nil
	}
	var diags hcl.Diagnostics
	var installed manifest.Manifest
	if !fromDisk {
		m, err := config.ReadManifest(config.ManifestPath(rootDir), opts...)
		if err != nil {
			return nil // reported while loading the tree
		}
		installed = m
	}
	c := &collector{res: res}
	for _, tf := range res.Root.Tests {
		for _, run := range res.Tree.Module.Tests[tf.Name].Runs {
			if run.ModuleSource == "" {
				continue
			}
			dir, d := testRunDir(rootDir, tf.Name, run, installed, fromDisk, res.Tree.Module.Flavour())
			diags = append(diags, d...)
			if dir == "" {
				continue
			}
			prefix := strings.Join(config.TestRunModulePath(tf.Name, run.Name), ".")
			tree, rootDiags, buildDiags := config.LoadTreeWith(dir, testRunWalker(rootDir, dir, prefix, installed, opts, fromDisk), opts...)
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

// testRunDir is the directory of a run block's module: from the manifest,
// or (fromDisk) the local source's directory; "" when there is none.
func testRunDir(rootDir, file string, run *config.TestRun, installed manifest.Manifest, fromDisk bool, f flavour.Flavour) (string, hcl.Diagnostics) {
	if fromDisk {
		src := run.ModuleSource
		if !strings.HasPrefix(src, "./") && !strings.HasPrefix(src, "../") {
			return "", nil
		}
		return filepath.Join(rootDir, filepath.FromSlash(src)), nil
	}
	rec, ok := installed[strings.Join(config.TestRunModulePath(file, run.Name), ".")]
	if !ok {
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Module not installed",
			Detail:   config.NotInstalledDetail(f),
			Subject:  run.ModuleRange.Ptr(),
		}}
	}
	// A changed source or version is reported, as OpenTofu does; the
	// installed module is still read.
	var diags hcl.Diagnostics
	if call, err := config.TestRunCall(run, f); err == nil {
		diags = config.InstalledCallChanges(call, rec, f)
	}
	if filepath.IsAbs(rec.Dir) {
		return rec.Dir, diags
	}
	return filepath.Join(rootDir, filepath.FromSlash(rec.Dir)), diags
}

// testRunWalker reads the children of a module under test through the
// manifest records below its key (prefix), or from disk for configurations
// never initialised.
func testRunWalker(rootDir, dir, prefix string, installed manifest.Manifest, opts []config.Option, fromDisk bool) config.ModuleWalker {
	if fromDisk {
		return config.LocalFromDisk(config.NewManifestWalker(nil, dir, opts...), opts...)
	}
	below := manifest.Manifest{}
	for key, rec := range installed {
		if rest, ok := strings.CutPrefix(key, prefix+"."); ok {
			below[rest] = rec
		}
	}
	return config.NewManifestWalker(below, rootDir, opts...)
}

// testRunOptions are the loader options for a module under test: the
// caller's, without test files of its own.
func testRunOptions(opts []config.Option) []config.Option {
	return append(append([]config.Option{}, opts...), config.WithTestsDir(""))
}
