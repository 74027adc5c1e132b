package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// appendFile adds a primary file's declarations, reporting duplicates
// (config-loading.md §6).
func (m *Module) appendFile(f *File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	m.Languages = append(m.Languages, f.Languages...)
	for _, b := range f.Backends {
		if m.Backend != nil {
			diags = append(diags, duplicateBackend(m.flavour, m.Backend.DeclRange, b.DeclRange))
			continue
		}
		m.Backend = b
	}
	for _, c := range f.Clouds {
		if m.Cloud != nil {
			diags = append(diags, duplicateCloud(m.flavour, m.Cloud.DeclRange, c.DeclRange))
			continue
		}
		m.Cloud = c
	}
	if m.Backend != nil && m.Cloud != nil {
		diags = append(diags, backendAndCloud(m.flavour, m.Cloud.DeclRange, m.Backend.DeclRange))
	}
	for _, pc := range f.ProviderConfigs {
		existing, ok := m.ProviderConfigs[pc.Key()]
		if !ok {
			m.ProviderConfigs[pc.Key()] = pc
			continue
		}
		if existing.Alias == "" {
			diags = append(diags, errorDiag("Duplicate provider configuration", fmt.Sprintf("A default (non-aliased) provider configuration for %q was already given at %s. If multiple configurations are required, set the \"alias\" argument for alternative configurations.", existing.Name, existing.DeclRange), pc.DeclRange.Ptr()))
		} else {
			diags = append(diags, errorDiag("Duplicate provider configuration", fmt.Sprintf("A provider configuration for %q with alias %q was already given at %s. Each configuration for the same provider must have a distinct alias.", existing.Name, existing.Alias, existing.DeclRange), pc.DeclRange.Ptr()))
		}
	}
	for _, pm := range f.ProviderMetas {
		p := m.ProviderForLocalName(pm.Provider)
		if existing, ok := m.ProviderMetas[p]; ok {
			diags = append(diags, errorDiag("Duplicate provider_meta block", fmt.Sprintf("A provider_meta block for provider %q was already declared at %s. Providers may only have one provider_meta block per module.", existing.Provider, existing.DeclRange), pm.DeclRange.Ptr()))
		}
		m.ProviderMetas[p] = pm
	}
	for _, e := range f.Encryptions {
		if m.Encryption != nil {
			diags = append(diags, errorDiag("Duplicate encryption configuration", fmt.Sprintf("A module may have only one encryption configuration. Encryption was previously configured at %s.", m.Encryption.DeclRange), e.DeclRange.Ptr()))
			continue
		}
		m.Encryption = e
	}
	diags = append(diags, m.appendNamedValues(f)...)
	diags = append(diags, m.appendResources(f)...)
	diags = append(diags, m.appendActions(f)...)
	return diags
}

func (m *Module) appendNamedValues(f *File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, v := range f.Variables {
		if existing, ok := m.Variables[v.Name]; ok {
			diags = append(diags, errorDiag("Duplicate variable declaration", fmt.Sprintf("A variable named %q was already declared at %s. Variable names must be unique within a module.", existing.Name, existing.DeclRange), v.DeclRange.Ptr()))
		}
		m.Variables[v.Name] = v
	}
	for _, l := range f.Locals {
		if existing, ok := m.Locals[l.Name]; ok {
			diags = append(diags, errorDiag("Duplicate local value definition", fmt.Sprintf("A local value named %q was already defined at %s. Local value names must be unique within a module.", existing.Name, existing.DeclRange), l.DeclRange.Ptr()))
		}
		m.Locals[l.Name] = l
	}
	for _, o := range f.Outputs {
		if existing, ok := m.Outputs[o.Name]; ok {
			diags = append(diags, errorDiag("Duplicate output definition", fmt.Sprintf("An output named %q was already defined at %s. Output names must be unique within a module.", existing.Name, existing.DeclRange), o.DeclRange.Ptr()))
		}
		m.Outputs[o.Name] = o
	}
	for _, mc := range f.ModuleCalls {
		if existing, ok := m.ModuleCalls[mc.Name]; ok {
			diags = append(diags, errorDiag("Duplicate module call", fmt.Sprintf("A module call named %q was already defined at %s. Module calls must have unique names within a module.", existing.Name, existing.DeclRange), mc.DeclRange.Ptr()))
		}
		m.ModuleCalls[mc.Name] = mc
	}
	return diags
}

func duplicateResource(kind string, existing, r *Resource, extra string) *hcl.Diagnostic {
	summaryKind, detailKind := kind, kind
	switch kind {
	case "data":
		detailKind = "data resource"
	case "ephemeral":
		summaryKind, detailKind = "ephemeral resource", "ephemeral resource"
	}
	return errorDiag(fmt.Sprintf("Duplicate %s %q configuration", summaryKind, existing.Type), fmt.Sprintf("A %s %s named %q was already declared at %s. Resource names must be unique per type in each module%s.", existing.Type, detailKind, existing.Name, existing.DeclRange, extra), r.DeclRange.Ptr())
}

func (m *Module) appendResources(f *File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, r := range f.ManagedResources {
		if existing, ok := m.ManagedResources[r.Key()]; ok {
			diags = append(diags, duplicateResource("resource", existing, r, ""))
			continue
		}
		m.ManagedResources[r.Key()] = r
		m.resolveResourceProvider(r)
	}
	for _, r := range f.DataResources {
		if existing, ok := m.DataResources[r.Key()]; ok {
			diags = append(diags, duplicateResource("data", existing, r, ""))
			continue
		}
		m.DataResources[r.Key()] = r
		m.resolveResourceProvider(r)
	}
	for _, r := range f.EphemeralResources {
		if existing, ok := m.EphemeralResources[r.Key()]; ok {
			diags = append(diags, duplicateResource("ephemeral", existing, r, ""))
			continue
		}
		m.EphemeralResources[r.Key()] = r
		m.resolveResourceProvider(r)
	}
	for _, c := range f.Checks {
		if r := c.DataResource; r != nil {
			if existing, ok := m.DataResources[r.Key()]; ok {
				diags = append(diags, duplicateResource("data", existing, r, ", including within check blocks"))
				continue
			}
			m.DataResources[r.Key()] = r
			m.resolveResourceProvider(r)
		}
		if existing, ok := m.Checks[c.Name]; ok {
			diags = append(diags, errorDiag(fmt.Sprintf("Duplicate check %q configuration", existing.Name), fmt.Sprintf("A check block named %q was already declared at %s. Check blocks must be unique within each module.", existing.Name, existing.DeclRange), c.DeclRange.Ptr()))
			continue
		}
		m.Checks[c.Name] = c
	}
	m.Moved = append(m.Moved, f.Moved...)
	for _, imp := range f.Imports {
		for _, prev := range m.Imports {
			if imp.ResolvedTo != "" && imp.ResolvedTo == prev.ResolvedTo {
				diags = append(diags, duplicateImport(m.flavour, imp, prev))
			}
		}
		if imp.ProviderConfigRef != nil {
			imp.Provider = m.ProviderForLocalName(imp.ProviderConfigRef.Name)
		} else if p, ok := m.ImpliedProviderForResourceType(imp.ToType); ok && imp.ToType != "" {
			imp.Provider = p
		}
		m.Imports = append(m.Imports, imp)
	}
	m.Removed = append(m.Removed, f.Removed...)
	return diags
}

// duplicateImport is the error for an import block with the same static
// target as an earlier one, prev. Terraform names the target resource
// without instance keys and points at the "to" expression; OpenTofu names
// the target as written and points at the block.
func duplicateImport(f flavour.Flavour, imp, prev *Import) *hcl.Diagnostic {
	target, subject := imp.ResolvedTo, imp.DeclRange
	if f == flavour.Terraform && imp.To != nil {
		target, subject = imp.toResource, imp.To.Range()
	}
	return errorDiag(fmt.Sprintf("Duplicate import configuration for %q", target), fmt.Sprintf("An import block for the resource %q was already declared at %s. A resource can have only one import block.", target, prev.DeclRange), subject.Ptr())
}
