package requirements

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
)

// testProviderTypes are the provider types OpenTofu gives the provider
// blocks of one test file and the configurations its run blocks pass:
// claimed in run order from the configuration under test, defaults for
// the rest.
type testProviderTypes struct {
	blocks map[*config.ProviderConfig]addrs.Provider
	refs   map[*config.ProviderConfigRef]addrs.Provider
	// flavour gives the default host of implied providers.
	flavour flavour.Flavour
}

// rootProviderTypes maps the root module's required_providers names and
// provider block names to their providers.
func rootProviderTypes(m *config.Module) map[string]addrs.Provider {
	fl := m.Flavour()
	out := map[string]addrs.Provider{}
	for name, rp := range m.RequiredProviders.RequiredProviders {
		out[name] = rp.Type
	}
	for _, pc := range m.ProviderConfigs {
		if _, ok := out[pc.Name]; !ok {
			out[pc.Name] = addrs.NewDefaultProviderIn(fl, pc.Name)
		}
	}
	return out
}

func resolveTestProviderTypes(tf *config.TestFile, providers map[string]addrs.Provider, fl flavour.Flavour) testProviderTypes {
	types := testProviderTypes{blocks: map[*config.ProviderConfig]addrs.Provider{}, refs: map[*config.ProviderConfigRef]addrs.Provider{}, flavour: fl}
	byName := map[string][]*config.ProviderConfig{}
	for _, pc := range tf.Providers {
		byName[pc.Name] = append(byName[pc.Name], pc)
	}
	matched := map[string]addrs.Provider{}
	claim := func(name string, p addrs.Provider) {
		if blocks, ok := byName[name]; ok {
			matched[name] = p
			for _, pc := range blocks {
				types.blocks[pc] = p
			}
		}
	}
	for _, run := range tf.Runs {
		if run.ModuleSource != "" {
			// The types a module under test gives are not resolved
			// (see checkTestProviders).
			continue
		}
		if len(run.Providers) == 0 {
			for _, name := range sortedKeys(providers) {
				if _, ok := matched[name]; !ok {
					claim(name, providers[name])
				}
			}
			continue
		}
		for _, p := range run.Providers {
			child, ok := providers[p.InChild.Name]
			if !ok {
				child = addrs.NewDefaultProviderIn(fl, p.InChild.Name)
			}
			types.refs[p.InChild] = child
			if prev, ok := matched[p.InParent.Name]; ok {
				types.refs[p.InParent] = prev
				continue
			}
			types.refs[p.InParent] = child
			claim(p.InParent.Name, child)
		}
	}
	for name, blocks := range byName {
		if _, ok := matched[name]; ok {
			continue
		}
		for _, pc := range blocks {
			types.blocks[pc] = addrs.NewDefaultProviderIn(fl, name)
		}
	}
	return types
}

// checkTestProviders checks, for each run block of the root module's test
// files that runs the root configuration, that the providers it uses have
// the types the configuration requires (OpenTofu's "Provider type
// mismatch" for test files). Runs with a module block of their own are not
// checked: tfdeps does not resolve their types (a listed limit).
func checkTestProviders(root *config.Module) hcl.Diagnostics {
	var diags hcl.Diagnostics
	providers := rootProviderTypes(root)
	for _, name := range root.TestFileNames() {
		tf := root.Tests[name]
		types := resolveTestProviderTypes(tf, providers, root.Flavour())
		blocks := map[string]*config.ProviderConfig{}
		for _, pc := range tf.Providers {
			blocks[pc.Key()] = pc
		}
		for _, run := range tf.Runs {
			if run.ModuleSource != "" {
				continue
			}
			if len(run.Providers) > 0 {
				diags = append(diags, checkRunProviders(name, run, types)...)
				continue
			}
			diags = append(diags, checkTestBlocks(name, root, blocks, types)...)
		}
	}
	return diags
}

func checkRunProviders(file string, run *config.TestRun, types testProviderTypes) hcl.Diagnostics {
	fl := types.flavour
	var diags hcl.Diagnostics
	for _, p := range run.Providers {
		parent, child := types.refs[p.InParent], types.refs[p.InChild]
		if parent.IsZero() {
			parent = addrs.NewDefaultProviderIn(fl, p.InParent.Name)
		}
		if child.IsZero() {
			child = addrs.NewDefaultProviderIn(fl, p.InChild.Name)
		}
		if child == parent {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Provider type mismatch",
			Detail: fmt.Sprintf("The local name %q in %s represents provider %q, but %q in the root module represents %q.\n\nThis means the provider definition for %q within %s, or other provider definitions with the same name, have been referenced by multiple run blocks and assigned to different provider types.",
				p.InParent.Name, file, parent.String(), p.InChild.Name, child.String(), p.InParent.Name, file),
			Subject: p.InParent.NameRange.Ptr(),
		})
	}
	return diags
}

// checkTestBlocks compares the test file's provider blocks with the root
// module's requirements (by local name and configuration alias) and
// provider blocks (by NAME or NAME.ALIAS).
func checkTestBlocks(file string, root *config.Module, blocks map[string]*config.ProviderConfig, types testProviderTypes) hcl.Diagnostics {
	fl := root.Flavour()
	var diags hcl.Diagnostics
	typeOf := func(pc *config.ProviderConfig) addrs.Provider {
		if t := types.blocks[pc]; !t.IsZero() {
			return t
		}
		return addrs.NewDefaultProviderIn(fl, pc.Name)
	}
	mismatch := func(pc *config.ProviderConfig, rootName string, rootTy addrs.Provider, tail string) *hcl.Diagnostic {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Provider type mismatch",
			Detail: fmt.Sprintf("The provider %q in %s represents provider %q, but %q in the root module represents %q.\n\nThis means the provider definition for %q within %s%s been referenced by multiple run blocks and assigned to different provider types.",
				pc.Key(), file, typeOf(pc).String(), rootName, rootTy.String(), pc.Key(), file, tail),
			Subject: pc.DeclRange.Ptr(),
		}
	}
	const orOthers = ", or other provider definitions with the same name, have"
	for _, name := range root.RequiredProviders.Order {
		rp := root.RequiredProviders.RequiredProviders[name]
		if pc, ok := blocks[name]; ok && typeOf(pc) != rp.Type {
			diags = append(diags, mismatch(pc, name, rp.Type, orOthers))
		}
		for _, a := range rp.ConfigurationAliases {
			if pc, ok := blocks[a.String()]; ok && typeOf(pc) != rp.Type {
				diags = append(diags, mismatch(pc, a.String(), rp.Type, orOthers))
			}
		}
	}
	for _, key := range sortedKeys(root.ProviderConfigs) {
		pc := root.ProviderConfigs[key]
		rootTy := root.ProviderForLocalName(pc.Name)
		if _, ok := root.RequiredProviders.RequiredProviders[pc.Name]; !ok {
			rootTy = addrs.NewDefaultProviderIn(fl, pc.Name)
		}
		if tp, ok := blocks[pc.Key()]; ok && typeOf(tp) != rootTy {
			diags = append(diags, mismatch(tp, pc.Key(), rootTy, " has"))
		}
	}
	return diags
}
