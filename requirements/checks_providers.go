package requirements

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/config"
)

// moduleProviders is what the provider configuration checks know about one
// module: its provider blocks, split into those that configure something
// and empty ("proxy") ones, its required_providers names and its
// configuration_aliases, each keyed by NAME or NAME.ALIAS.
type moduleProviders struct {
	configured map[string]hcl.Range
	empty      map[string]hcl.Range
	localNames map[string]addrs.Provider
	aliases    map[string]addrs.Provider
	// passedIn are the configurations the parent's module call passes,
	// keyed by the name in this module.
	passedIn map[string]config.PassedProviderConfig
}

func newModuleProviders(t *config.Tree, names []localName) moduleProviders {
	mp := moduleProviders{
		configured: map[string]hcl.Range{},
		empty:      map[string]hcl.Range{},
		localNames: map[string]addrs.Provider{},
		aliases:    map[string]addrs.Provider{},
		passedIn:   map[string]config.PassedProviderConfig{},
	}
	for _, pc := range t.Module.ProviderConfigs {
		if providerConfigIsEmpty(pc) {
			mp.empty[pc.Key()] = pc.DeclRange
		} else {
			mp.configured[pc.Key()] = pc.DeclRange
		}
	}
	for _, ln := range names {
		mp.localNames[ln.name] = ln.typ
		rp := t.Module.RequiredProviders.RequiredProviders[ln.name]
		for _, a := range rp.ConfigurationAliases {
			mp.aliases[a.String()] = ln.typ
		}
	}
	if t.Call != nil {
		for _, p := range t.Call.Providers {
			mp.passedIn[p.InChild.String()] = p
		}
	}
	return mp
}

// providerConfigIsEmpty reports whether a provider block sets nothing but
// alias and for_each: OpenTofu's empty ("proxy") configuration.
func providerConfigIsEmpty(pc *config.ProviderConfig) bool {
	if pc.VersionSet && pc.Version != "" {
		return false
	}
	if pc.Syntax == nil {
		return true
	}
	body := pc.Config()
	return len(body.Attributes) == 0 && len(body.Blocks) == 0
}

// moduleText names a module in messages: "the root module" or
// module.a.module.b.
func moduleText(t *config.Tree) string {
	if t == nil || len(t.Path) == 0 {
		return "the root module"
	}
	return t.PathString()
}

// expansionRange is the argument of a module call that forbids provider
// configurations in the called module: count, for_each, lifecycle
// enabled or the first depends_on entry.
func expansionRange(mc *config.ModuleCall) *hcl.Range {
	switch {
	case mc.Count != nil:
		return mc.Count.Range().Ptr()
	case mc.ForEach != nil:
		return mc.ForEach.Range().Ptr()
	}
	if mc.Syntax != nil {
		for _, lc := range mc.Syntax.Body.BlocksOfType("lifecycle") {
			if a := lc.Body.Attribute("enabled"); a != nil {
				return a.Expr.Range().Ptr()
			}
		}
	}
	if mc.DependsOn != nil {
		if len(mc.DependsOn) > 0 {
			return mc.DependsOn[0].SourceRange().Ptr()
		}
		return mc.DeclRange.Ptr()
	}
	return nil
}

// checkProviderConfigs checks the provider configurations of module t
// against its module calls and its parent's call, as OpenTofu does when it
// builds the module tree (texts and subjects are OpenTofu's; OpenTofu's
// order comes from map iteration, tfdeps uses declaration and name order).
func checkProviderConfigs(t *config.Tree, names []localName, noConfig *hcl.Range) hcl.Diagnostics {
	fl := t.Module.Flavour()
	mp := newModuleProviders(t, names)
	diags := checkCallsPassDeclared(t, mp)
	if len(t.Path) == 0 {
		return diags
	}
	if len(mp.configured) > 0 && noConfig != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Module is incompatible with count, for_each, enabled and depends_on",
			Detail: fmt.Sprintf("The module at %s is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, enabled or depends_on arguments.\n\nIf you also control the module %q, consider updating this module to instead expect provider configurations to be passed by its caller.",
				t.PathString(), t.SourceAddr),
			Subject: noConfig,
		})
	}
	for _, name := range sortedKeys(mp.configured) {
		if passed, ok := mp.passedIn[name]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Cannot override provider configuration",
				Detail: fmt.Sprintf("The configuration of %s has its own local configuration for %s, and so it cannot accept an overridden configuration provided by %s.",
					moduleText(t), name, moduleText(t.Parent)),
				Subject: passed.InChild.NameRange.Ptr(),
			})
		}
	}
	for _, name := range sortedKeys(mp.aliases) {
		if _, ok := mp.configured[name]; ok {
			continue
		}
		if _, ok := mp.passedIn[name]; ok {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing required provider configuration",
			Detail: fmt.Sprintf("The child module requires an additional configuration for provider %s, with the local name %q.\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for %s in the \"providers\" meta-argument in the module block to choose which provider configuration the module should use for that purpose.",
				mp.aliases[name].ForDisplayIn(fl), name, name),
			Subject: t.Call.DeclRange.Ptr(),
		})
	}
	for _, name := range sortedKeys(mp.passedIn) {
		diags = append(diags, checkPassedIn(t, mp, name)...)
	}
	return append(diags, redundantEmptyProviders(t, mp)...)
}

// checkCallsPassDeclared checks the non-aliased configurations t's module
// calls pass: each must be declared in t, and in a child module it must be
// configured in t or passed to t.
func checkCallsPassDeclared(t *config.Tree, mp moduleProviders) hcl.Diagnostics {
	fl := t.Module.Flavour()
	var diags hcl.Diagnostics
	for _, callName := range sortedKeys(t.Module.ModuleCalls) {
		for _, passed := range t.Module.ModuleCalls[callName].Providers {
			if passed.InParent.Alias != "" {
				continue
			}
			name := passed.InParent.String()
			_, confOK := mp.configured[name]
			_, localOK := mp.localNames[name]
			_, passedOK := mp.passedIn[name]
			def := addrs.NewDefaultProviderIn(fl, name)
			if !confOK && !localOK {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagWarning,
					Summary:  "Reference to undefined provider",
					Detail: fmt.Sprintf("There is no explicit declaration for local provider name %q in %s, so %s is assuming you mean to pass a configuration for provider %q.\n\nTo clarify your intent and silence this warning, add to %s a required_providers entry named %q with source = %q, or a different source address if appropriate.",
						name, moduleText(t), fl.Product(), def.ForDisplayIn(fl), parentText(t), name, def.ForDisplayIn(fl)),
					Subject: passed.InParent.NameRange.Ptr(),
				})
				continue
			}
			if len(t.Path) > 0 && !confOK && !passedOK {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagWarning,
					Summary:  "Missing required provider configuration",
					Detail: fmt.Sprintf("The configuration for %s expects to inherit a configuration for provider %s with local name %q, but %s doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for %q to the \"providers\" argument in the module %q block.",
						moduleText(t), def.ForDisplayIn(fl), name, parentText(t), name, t.Call.Name),
					Subject: t.Call.DeclRange.Ptr(),
				})
			}
		}
	}
	return diags
}

// parentText is OpenTofu's "parent module" text for module t: the root
// module for the root and its direct children, else the parent's path.
func parentText(t *config.Tree) string {
	if len(t.Path) <= 1 {
		return "the root module"
	}
	return moduleText(t.Parent)
}

// checkPassedIn checks one configuration passed to t under name: t must
// declare it, and its provider must be the one the parent passes.
func checkPassedIn(t *config.Tree, mp moduleProviders, name string) hcl.Diagnostics {
	fl := t.Module.Flavour()
	var diags hcl.Diagnostics
	passed := mp.passedIn[name]
	childTy := t.Module.ProviderForLocalName(passed.InChild.Name)
	if _, ok := t.Module.RequiredProviders.RequiredProviders[passed.InChild.Name]; !ok {
		childTy = addrs.NewDefaultProviderIn(fl, passed.InChild.Name)
	}
	localTy, isLocal := mp.localNames[name]
	if isLocal {
		childTy = localTy
	}
	aliasTy, isAlias := mp.aliases[name]
	if isAlias {
		childTy = aliasTy
	}
	_, isEmpty := mp.empty[name]
	if !isLocal && !isAlias && !isEmpty {
		if childTy.IsDefaultIn(fl) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Reference to undefined provider",
				Detail: fmt.Sprintf("There is no explicit declaration for local provider name %q in %s, so %s is assuming you mean to pass a configuration for %q.\n\nIf you also control the child module, add a required_providers entry named %q with the source address %q.",
					name, moduleText(t), fl.Product(), childTy.ForDisplayIn(fl), name, childTy.ForDisplayIn(fl)),
				Subject: passed.InChild.NameRange.Ptr(),
			})
		} else {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reference to undefined provider",
				Detail: fmt.Sprintf("The child module does not declare any provider requirement with the local name %q.\n\nIf you also control the child module, you can add a required_providers entry named %q with the source address %q to accept this provider configuration.",
					name, name, childTy.ForDisplayIn(fl)),
				Subject: passed.InChild.NameRange.Ptr(),
			})
		}
	}
	parentTy := parentProviderType(t.Parent.Module, passed.InParent.Name)
	// OpenTofu looks the parent's requirement up under the child's name.
	if rp, ok := t.Parent.Module.RequiredProviders.RequiredProviders[name]; ok {
		parentTy = rp.Type
	}
	if childTy == parentTy {
		return diags
	}
	return append(diags, typeMismatch(t, mp, passed, childTy, parentTy))
}

// parentProviderType is the provider a configuration name refers to in the
// calling module: its required_providers entry, else the default provider
// of that name.
func parentProviderType(m *config.Module, name string) addrs.Provider {
	fl := m.Flavour()
	if rp, ok := m.RequiredProviders.RequiredProviders[name]; ok {
		return rp.Type
	}
	return addrs.NewDefaultProviderIn(fl, name)
}

func typeMismatch(t *config.Tree, mp moduleProviders, passed config.PassedProviderConfig, childTy, parentTy addrs.Provider) *hcl.Diagnostic {
	fl := t.Module.Flavour()
	var other string
	for _, ln := range sortedKeys(mp.localNames) {
		if mp.localNames[ln] == parentTy {
			other = ln
			break
		}
	}
	if other != "" {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Provider type mismatch",
			Detail: fmt.Sprintf("The assigned configuration is for provider %q, but local name %q in %s represents %q.\n\nTo pass this configuration to the child module, use the local name %q instead.",
				childTy.ForDisplayIn(fl), passed.InChild.Name, parentText(t), parentTy.ForDisplayIn(fl), other),
			Subject: passed.InChild.NameRange.Ptr(),
		}
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Provider type mismatch",
		Detail: fmt.Sprintf("The local name %q in %s represents provider %q, but %q in %s represents %q.\n\nEach provider has its own distinct configuration schema and provider types, so this module's %q can be assigned only a configuration for %s, which is not required by %s.",
			passed.InParent.String(), parentText(t), parentTy.ForDisplayIn(fl),
			passed.InChild.String(), moduleText(t), childTy.ForDisplayIn(fl),
			passed.InChild.String(), childTy.ForDisplayIn(fl), moduleText(t)),
		Subject: passed.InParent.NameRange.Ptr(),
	}
}

// redundantEmptyProviders warns once per local name about empty provider
// blocks in a child module, suggesting the required_providers entry that
// replaces them.
func redundantEmptyProviders(t *config.Tree, mp moduleProviders) hcl.Diagnostics {
	fl := t.Module.Flavour()
	type suggestion struct {
		source  addrs.Provider
		ranges  []hcl.Range
		configs []string
		aliases int
	}
	byName := map[string]*suggestion{}
	for _, name := range sortedKeys(mp.empty) {
		local, _, aliased := strings.Cut(name, ".")
		src, ok := mp.localNames[name]
		if !ok {
			src = addrs.NewDefaultProviderIn(fl, local)
		}
		s := byName[local]
		if s == nil {
			s = &suggestion{source: src}
			byName[local] = s
		}
		if aliased {
			s.aliases++
		}
		s.configs = append(s.configs, name)
		s.ranges = append(s.ranges, mp.empty[name])
	}
	var diags hcl.Diagnostics
	for _, local := range sortedKeys(byName) {
		s := byName[local]
		var b strings.Builder
		fmt.Fprintf(&b, "Earlier versions of %s used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider %q blocks and then adding or updating an entry like the following to the required_providers block of %s:\n", fl.Product(), local, moduleText(t))
		fmt.Fprintf(&b, "    %s = {\n      source = %q\n", local, s.source.ForDisplayIn(fl))
		if s.aliases > 0 {
			sort.Strings(s.configs)
			b.WriteString("      configuration_aliases = [\n")
			for _, c := range s.configs {
				fmt.Fprintf(&b, "        %s,\n", c)
			}
			b.WriteString("      ]\n")
		}
		b.WriteString("    }")
		sort.Slice(s.ranges, func(i, j int) bool { return s.ranges[i].String() < s.ranges[j].String() })
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Redundant empty provider block",
			Detail:   b.String(),
			Subject:  s.ranges[0].Ptr(),
		})
	}
	return diags
}
