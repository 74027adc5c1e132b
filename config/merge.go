package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// mergeFile merges one override file into the module (config-loading.md §7-8).
func (m *Module) mergeFile(f *File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	switch len(f.Backends) {
	case 0:
	case 1:
		b := f.Backends[0]
		b.Syntax.FromOverride = f.Name
		b.Syntax.Replaced = m.backendOrCloudRange()
		m.Cloud, m.Backend = nil, b
	default:
		diags = append(diags, duplicateOverrideBackend(f.Backends[0].DeclRange, f.Backends[1].DeclRange))
	}
	switch len(f.Clouds) {
	case 0:
	case 1:
		c := f.Clouds[0]
		c.Syntax.FromOverride = f.Name
		c.Syntax.Replaced = m.backendOrCloudRange()
		m.Backend, m.Cloud = nil, c
	default:
		diags = append(diags, duplicateCloud(m.flavour, f.Clouds[0].DeclRange, f.Clouds[1].DeclRange))
	}
	for _, pc := range f.ProviderConfigs {
		existing, ok := m.ProviderConfigs[pc.Key()]
		switch {
		case ok:
			existing.merge(pc, f.Name)
		case pc.Alias == "":
			pc.Syntax.FromOverride = f.Name
			m.ProviderConfigs[pc.Key()] = pc
		default:
			diags = append(diags, errorDiag("Missing base provider configuration for override", fmt.Sprintf("There is no %s provider configuration with the alias %q. An override file can only override an aliased provider configuration that was already defined in a primary configuration file.", pc.Name, pc.Alias), pc.DeclRange.Ptr()))
		}
	}
	switch len(f.Encryptions) {
	case 0:
	case 1:
		m.mergeEncryption(f.Encryptions[0], f.Name)
	default:
		diags = append(diags, errorDiag("Duplicate encryption configuration", fmt.Sprintf("Each override file may have only one encryption configuration. Encryption was previously configured at %s.", f.Encryptions[0].DeclRange), f.Encryptions[1].DeclRange.Ptr()))
	}
	diags = append(diags, m.mergeNamedValues(f)...)
	diags = append(diags, m.mergeResources(f)...)
	for _, mv := range f.Moved {
		diags = append(diags, errorDiag("Cannot override 'moved' blocks", "Records of moved objects can appear only in normal files, not in override files.", mv.DeclRange.Ptr()))
	}
	for _, imp := range f.Imports {
		diags = append(diags, errorDiag("Cannot override 'import' blocks", "Import blocks can appear only in normal files, not in override files.", imp.DeclRange.Ptr()))
	}
	if m.flavour == flavour.Terraform {
		// Terraform drops an override file's removed blocks silently.
		return append(diags, m.mergeActions(f)...)
	}
	for _, r := range f.Removed {
		diags = append(diags, errorDiag("Cannot override 'Removed' blocks", "Removed blocks can appear only in normal files, not in override files.", r.DeclRange.Ptr()))
	}
	return diags
}

func (m *Module) backendOrCloudRange() *hcl.Range {
	switch {
	case m.Backend != nil:
		r := m.Backend.DeclRange
		return &r
	case m.Cloud != nil:
		r := m.Cloud.DeclRange
		return &r
	}
	return nil
}

func (m *Module) mergeNamedValues(f *File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, v := range f.Variables {
		existing, ok := m.Variables[v.Name]
		if !ok {
			diags = append(diags, errorDiag("Missing base variable declaration to override", fmt.Sprintf("There is no variable named %q. An override file can only override a variable that was already declared in a primary configuration file.", v.Name), v.DeclRange.Ptr()))
			continue
		}
		diags = append(diags, existing.merge(v, f.Name)...)
	}
	for _, l := range f.Locals {
		existing, ok := m.Locals[l.Name]
		if !ok {
			diags = append(diags, errorDiag("Missing base local value definition to override", fmt.Sprintf("There is no local value named %q. An override file can only override a local value that was already defined in a primary configuration file.", l.Name), l.DeclRange.Ptr()))
			continue
		}
		existing.merge(l)
	}
	for _, o := range f.Outputs {
		existing, ok := m.Outputs[o.Name]
		if !ok {
			diags = append(diags, errorDiag("Missing base output definition to override", fmt.Sprintf("There is no output named %q. An override file can only override an output that was already defined in a primary configuration file.", o.Name), o.DeclRange.Ptr()))
			continue
		}
		diags = append(diags, existing.merge(o, f.Name)...)
	}
	for _, mc := range f.ModuleCalls {
		existing, ok := m.ModuleCalls[mc.Name]
		if !ok {
			diags = append(diags, errorDiag("Missing module call to override", fmt.Sprintf("There is no module call named %q. An override file can only override a module call that was defined in a primary configuration file.", mc.Name), mc.DeclRange.Ptr()))
			continue
		}
		diags = append(diags, existing.merge(mc, f.Name)...)
	}
	return diags
}

func (m *Module) mergeResources(f *File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	kinds := []struct {
		list             []*Resource
		into             map[string]*Resource
		summary, article string
		block            string
	}{
		{f.ManagedResources, m.ManagedResources, "Missing resource to override", "resource", "a resource block"},
		{f.DataResources, m.DataResources, "Missing data resource to override", "data resource", "a data block"},
		{f.EphemeralResources, m.EphemeralResources, "Missing ephemeral resource to override", "ephemeral resource", "an ephemeral block"},
	}
	if m.flavour == flavour.Terraform {
		// Terraform ignores an override file's ephemeral resources: they
		// neither override one nor need one to override.
		kinds = kinds[:2]
	}
	for _, k := range kinds {
		for _, r := range k.list {
			existing, ok := k.into[r.Key()]
			if !ok {
				diags = append(diags, errorDiag(k.summary, fmt.Sprintf("There is no %s %s named %q. An override file can only override %s defined in a primary configuration file.", r.Type, k.article, r.Name, k.block), r.DeclRange.Ptr()))
				continue
			}
			diags = append(diags, m.mergeResource(existing, r, f.Name)...)
		}
	}
	return diags
}

func unsupportedDependsOn(deps []hcl.Traversal) hcl.Diagnostics {
	if len(deps) == 0 {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Unsupported override",
		Detail:   "The depends_on argument may not be overridden.",
		Subject:  deps[0].SourceRange().Ptr(),
	}}
}

func (m *Module) mergeEncryption(e *Encryption, file string) {
	if m.Encryption == nil {
		e.Syntax.FromOverride = file
		m.Encryption = e
		return
	}
	mergeEncryptionBody(m.Encryption.Syntax.Body, e.Syntax.Body, file)
}

// mergeEncryptionBody deep-merges an encryption block: key_provider and
// method blocks with the same labels merge their bodies, others are
// appended; state, plan and remote_state_data_sources merge their bodies.
func mergeEncryptionBody(base, over *Body, file string) {
	for _, a := range over.Attributes {
		base.setAttribute(a)
	}
	for _, ob := range over.Blocks {
		var target *Block
		for _, bb := range base.Blocks {
			if bb.Type == ob.Type && equalLabels(bb.Labels, ob.Labels) {
				target = bb
				break
			}
		}
		if target == nil {
			nb := *ob
			nb.FromOverride = file
			base.Blocks = append(base.Blocks, &nb)
			continue
		}
		if ob.Type == "remote_state_data_sources" {
			mergeEncryptionBody(target.Body, ob.Body, file)
			continue
		}
		mergeBody(target.Body, ob.Body, file)
	}
}

func equalLabels(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
