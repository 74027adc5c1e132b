package requirements

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/versions"
)

// Collect gathers the requirements of every module of tree, root first,
// then children depth first in call name order (providers.md §5). The
// diagnostics are the constraint strings that decoded in configuration but
// do not parse as provider constraints ("Incorrect version constraint
// syntax"; such a provider stays in the result unconstrained) and import
// blocks whose provider argument disagrees with their target resource's
// (checkImportProvider), as OpenTofu reports while collecting.
func Collect(tree *config.Tree) (*Result, hcl.Diagnostics) {
	c := &collector{res: &Result{
		Tree:      tree,
		Providers: map[addrs.Provider]versions.Constraints{},
		Explicit:  map[addrs.Provider]bool{},
		Implicit:  map[addrs.Provider][]ResourceRef{},
		Sources:   map[addrs.Provider][]Source{},
	}}
	if tree != nil {
		if tree.Module != nil {
			c.flavour = tree.Module.Flavour()
		}
		c.res.Root = c.module(tree)
	}
	return c.res, c.diags
}

type collector struct {
	res     *Result
	diags   hcl.Diagnostics
	flavour flavour.Flavour
}

// module collects one module and, recursively, its children.
func (c *collector) module(t *config.Tree) *Module {
	mod := &Module{
		Path:      t.PathString(),
		Dir:       t.Dir,
		Providers: map[addrs.Provider]versions.Constraints{},
	}
	if len(t.Path) > 0 {
		mod.Name = t.Path[len(t.Path)-1]
	}
	if t.Module != nil {
		c.requiredProviders(t.Module, mod)
		c.resources(t.Module, mod)
		c.imports(t.Module, mod)
		c.providerBlocks(t.Module, mod)
		if len(t.Path) == 0 {
			c.testFiles(t.Module, mod)
		}
	}
	for _, name := range sortedKeys(t.Children) {
		mod.Children = append(mod.Children, c.module(t.Children[name]))
	}
	return mod
}

// add records that src requires p with the given constraints.
func (c *collector) add(mod *Module, p addrs.Provider, src Source) {
	if p.IsZero() {
		return
	}
	src.Module = mod.Path
	mod.Providers[p] = versions.Intersect(mod.Providers[p], src.Constraints)
	c.res.Providers[p] = versions.Intersect(c.res.Providers[p], src.Constraints)
	c.res.Sources[p] = append(c.res.Sources[p], src)
}

func (c *collector) requiredProviders(m *config.Module, mod *Module) {
	if m.RequiredProviders == nil {
		return
	}
	for _, name := range m.RequiredProviders.Order {
		rp := m.RequiredProviders.RequiredProviders[name]
		if rp == nil || rp.Type.IsZero() {
			continue
		}
		cons := c.parse(rp.Requirement.Required, rp.Requirement.Set, rp.Requirement.DeclRange)
		c.add(mod, rp.Type, Source{Kind: FromRequiredProviders, Name: name, Constraints: cons, Range: rp.DeclRange})
		c.res.Explicit[rp.Type] = true
	}
}

func (c *collector) resources(m *config.Module, mod *Module) {
	for _, r := range moduleResources(m) {
		if r.Provider.IsZero() {
			continue
		}
		if !c.res.Explicit[r.Provider] {
			c.res.Implicit[r.Provider] = append(c.res.Implicit[r.Provider], ResourceRef{
				Address:        absAddress(mod.Path, r.Key()),
				Range:          r.DeclRange,
				HasProviderArg: r.ProviderConfigRef != nil,
			})
		}
		c.add(mod, r.Provider, Source{Kind: FromResource, Name: r.Key(), Range: r.DeclRange})
	}
	// Terraform's action blocks need their provider as resources do.
	actions := make([]*config.Action, 0, len(m.Actions))
	for _, a := range m.Actions {
		actions = append(actions, a)
	}
	slices.SortFunc(actions, func(a, b *config.Action) int { return compareRanges(a.DeclRange, b.DeclRange) })
	for _, a := range actions {
		c.add(mod, a.Provider, Source{Kind: FromAction, Name: a.Key(), Range: a.DeclRange})
	}
}

func (c *collector) imports(m *config.Module, mod *Module) {
	for _, imp := range m.Imports {
		name := imp.ResolvedTo
		if name == "" {
			name = imp.ToType
		}
		// OpenTofu counts an import block as an implied use of its
		// provider (for the "Automatically-inferred provider dependency"
		// warning) when nothing met before it in the walk required that
		// provider, whether or not the block names its provider.
		if _, seen := c.res.Providers[imp.Provider]; !seen && !imp.Provider.IsZero() && !c.res.Explicit[imp.Provider] {
			c.res.Implicit[imp.Provider] = append(c.res.Implicit[imp.Provider], ResourceRef{
				Address: imp.TargetResource(),
				Range:   imp.DeclRange,
			})
		}
		c.add(mod, imp.Provider, Source{Kind: FromImport, Name: name, Range: imp.DeclRange})
		c.diags = append(c.diags, checkImportProvider(m, imp)...)
	}
}

// checkImportProvider is OpenTofu's check, made while it collects
// requirements, that an import block's provider argument agrees with the
// one of the resource it imports into in the same module: the resource
// must have one too, naming the same configuration (instance keys aside).
func checkImportProvider(m *config.Module, imp *config.Import) hcl.Diagnostics {
	if imp.ProviderConfigRef == nil || imp.StaticTo == "" {
		return nil
	}
	target, ok := m.ManagedResources[imp.StaticTo]
	if !ok {
		return nil
	}
	detail := ""
	switch ref := target.ProviderConfigRef; {
	case ref == nil:
		detail = "The provider argument in the target resource block must be specified and match the import block."
	case ref.Name != imp.ProviderConfigRef.Name || ref.Alias != imp.ProviderConfigRef.Alias:
		detail = "The provider argument in the target resource block must match the import block."
	default:
		return nil
	}
	if m.Flavour() == flavour.Terraform {
		// Terraform gives one text for both cases: the argument belongs
		// in the resource block.
		detail = "The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the provider argument in the target resource block to configure the provider for a resource with explicit provider configuration."
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid import provider argument",
		Detail:   detail,
		Subject:  imp.ProviderDeclRange.Ptr(),
	}}
}

func (c *collector) providerBlocks(m *config.Module, mod *Module) {
	pcs := make([]*config.ProviderConfig, 0, len(m.ProviderConfigs))
	for _, pc := range m.ProviderConfigs {
		pcs = append(pcs, pc)
	}
	slices.SortFunc(pcs, func(a, b *config.ProviderConfig) int { return compareRanges(a.DeclRange, b.DeclRange) })
	for _, pc := range pcs {
		cons := c.parse(pc.Version, pc.VersionSet, pc.VersionRange)
		c.add(mod, m.ProviderForLocalName(pc.Name), Source{Kind: FromProviderBlock, Name: pc.Key(), Constraints: cons, Range: pc.DeclRange})
	}
}

// parse applies the second constraint parser to a constraint the loader
// has decoded. A string the loader rejected (and reported) counts as no
// constraint, as in OpenTofu.
func (c *collector) parse(s string, set bool, subject hcl.Range) versions.Constraints {
	if !set || versions.CheckConfigSyntax(s) != nil {
		return nil
	}
	cons, err := versions.ParseConstraints(s)
	if err != nil {
		c.diags = append(c.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid version constraint",
			Detail:   fmt.Sprintf("Incorrect version constraint syntax: %s.", constraintError(c.flavour, err)),
			Subject:  subject.Ptr(),
		})
		return nil
	}
	return cons
}

// moduleResources returns the managed, data and ephemeral resources of m,
// each kind in declaration order.
func moduleResources(m *config.Module) []*config.Resource {
	var out []*config.Resource
	for _, rs := range []map[string]*config.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		start := len(out)
		for _, r := range rs {
			out = append(out, r)
		}
		slices.SortFunc(out[start:], func(a, b *config.Resource) int { return compareRanges(a.DeclRange, b.DeclRange) })
	}
	return out
}

func absAddress(modPath, key string) string {
	if modPath == "" {
		return key
	}
	return modPath + "." + key
}

// compareRanges orders declarations by file name, then position.
func compareRanges(a, b hcl.Range) int {
	if c := cmp.Compare(a.Filename, b.Filename); c != 0 {
		return c
	}
	return cmp.Compare(a.Start.Byte, b.Start.Byte)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
