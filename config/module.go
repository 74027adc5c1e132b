package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
)

// Module is one loaded module directory: every declaration that survived
// duplicate checks, with override files merged in.
type Module struct {
	// SourceDir is the directory as given to the loader ("." for a root
	// loaded from the working directory).
	SourceDir string
	// Files are the files that were loaded.
	Files Files

	Backend           *Backend
	Cloud             *Cloud
	ProviderConfigs   map[string]*ProviderConfig
	RequiredProviders *RequiredProviders
	// ProviderLocalNames maps each required provider to its local name.
	ProviderLocalNames map[addrs.Provider]string
	ProviderMetas      map[addrs.Provider]*ProviderMeta
	Encryption         *Encryption

	Variables map[string]*Variable
	Locals    map[string]*Local
	Outputs   map[string]*Output

	ModuleCalls map[string]*ModuleCall

	ManagedResources   map[string]*Resource
	DataResources      map[string]*Resource
	EphemeralResources map[string]*Resource

	Moved   []*Moved
	Imports []*Import
	Removed []*Removed

	Checks map[string]*Check
	// Actions are the action blocks, by Action.Key (Terraform flavour
	// only; nil when there are none).
	Actions map[string]*Action

	// Languages are the language blocks of the primary files.
	Languages []*Block

	// Tests are the test files, keyed by path relative to the module
	// directory; empty unless WithTestsDir was given.
	Tests map[string]*TestFile
	// droppedTests are the parsed test files Terraform drops (for source
	// snippets only).
	droppedTests map[string]*hcl.File

	primary, overrides []*File
	document           *Document
	static             *staticEvaluator
	flavour            flavour.Flavour
	// deferInit keeps the static evaluation's diagnostics (module sources
	// and versions, const variables) in initDiags for the tree builder
	// instead of returning them with the module's: terraform evaluates
	// them while it builds the tree, after its checks of the root
	// variables' values (WithRootVariableValues) or of the call's
	// arguments (a child module). Terraform flavour only.
	deferInit       bool
	initDiags       hcl.Diagnostics
	staticDiags     hcl.Diagnostics
	coreConstraints []*hcl.Attribute
}

// StaticDiagnostics are the diagnostics of the module's static evaluation
// (module sources and versions, const variables). LoadDir returns them
// among the module's own, except where the Terraform flavour defers them
// to the tree builder (a child module, or a root module loaded
// WithRootVariableValues).
func (m *Module) StaticDiagnostics() hcl.Diagnostics { return m.staticDiags }

// Flavour is the product the module was loaded as (WithFlavour).
func (m *Module) Flavour() flavour.Flavour { return m.flavour }

func newModule(dir string) *Module {
	return &Module{
		SourceDir:          dir,
		ProviderConfigs:    map[string]*ProviderConfig{},
		ProviderLocalNames: map[addrs.Provider]string{},
		ProviderMetas:      map[addrs.Provider]*ProviderMeta{},
		Variables:          map[string]*Variable{},
		Locals:             map[string]*Local{},
		Outputs:            map[string]*Output{},
		ModuleCalls:        map[string]*ModuleCall{},
		ManagedResources:   map[string]*Resource{},
		DataResources:      map[string]*Resource{},
		EphemeralResources: map[string]*Resource{},
		Checks:             map[string]*Check{},
		RequiredProviders:  &RequiredProviders{RequiredProviders: map[string]*RequiredProvider{}},
		Tests:              map[string]*TestFile{},
	}
}

// Document returns the effective configuration as a syntax tree.
func (m *Module) Document() *Document {
	if m.document == nil {
		m.document = m.buildDocument()
	}
	return m.document
}

// ParsedFiles maps the name of each primary and override file that parsed (as
// in ranges) to its parsed form, for source snippets in diagnostics.
func (m *Module) ParsedFiles() map[string]*hcl.File {
	files := map[string]*hcl.File{}
	for _, f := range append(append([]*File{}, m.primary...), m.overrides...) {
		if f.HCL != nil {
			files[f.Name] = f.HCL
		}
	}
	m.addValueFiles(files)
	return files
}

// ProviderForLocalName returns the provider a local name refers to in this
// module: its required_providers entry, otherwise the implied provider
// (terraform → terraform.io/builtin/terraform, NAME →
// DEFAULT_HOST/hashicorp/NAME, the flavour's default host).
func (m *Module) ProviderForLocalName(name string) addrs.Provider {
	if rp, ok := m.RequiredProviders.RequiredProviders[name]; ok {
		return rp.Type
	}
	return addrs.ImpliedProviderIn(m.flavour, name)
}

// LocalNameForProvider returns the local name a provider has in this
// module, defaulting to its type.
func (m *Module) LocalNameForProvider(p addrs.Provider) string {
	if n, ok := m.ProviderLocalNames[p]; ok {
		return n
	}
	return p.Type
}

// ImpliedProviderForResourceType returns the provider a resource type
// implies: its prefix before the first underscore, resolved as a local name.
// ok is false when the prefix is not a valid provider name.
func (m *Module) ImpliedProviderForResourceType(typ string) (addrs.Provider, bool) {
	part, err := parseProviderPart(impliedLocalName(typ))
	if err != nil {
		return addrs.Provider{}, false
	}
	return m.ProviderForLocalName(part), true
}

func (m *Module) resolveResourceProvider(r *Resource) {
	if r.ProviderConfigRef != nil {
		r.Provider = m.ProviderForLocalName(r.ProviderConfigRef.Name)
		return
	}
	if p, ok := m.ImpliedProviderForResourceType(r.Type); ok {
		r.Provider = p
	}
}

// assemble builds the module from decoded files (config-loading.md §5).
func (m *Module) assemble(primary, overrides []*File) hcl.Diagnostics {
	m.primary, m.overrides = primary, overrides
	var diags hcl.Diagnostics
	var first *requiredProvidersBlock
	for _, f := range primary {
		for _, rp := range f.RequiredProviders {
			if first != nil {
				diags = append(diags, errorDiag("Duplicate required providers configuration", fmt.Sprintf("A module may have only one required providers configuration. The required providers were previously configured at %s.", first.DeclRange), rp.DeclRange.Ptr()))
				continue
			}
			first = rp
			m.RequiredProviders.DeclRange = rp.DeclRange
			m.RequiredProviders.Syntax = rp.Syntax
			for _, e := range rp.Entries {
				m.setRequiredProvider(e, "")
			}
		}
	}
	for _, f := range overrides {
		for _, rp := range f.RequiredProviders {
			if m.RequiredProviders.Syntax == nil {
				m.RequiredProviders.DeclRange = rp.DeclRange
				m.RequiredProviders.Syntax = rp.Syntax
			}
			for _, e := range rp.Entries {
				m.setRequiredProvider(e, f.Name)
			}
		}
	}
	for _, f := range primary {
		diags = append(diags, m.appendFile(f)...)
	}
	for _, f := range overrides {
		diags = append(diags, m.mergeFile(f)...)
	}
	sd := m.staticEval()
	m.staticDiags = sd
	if m.deferInit {
		m.initDiags = sd
	} else {
		diags = append(diags, sd...)
	}
	for _, name := range m.RequiredProviders.Order {
		rp := m.RequiredProviders.RequiredProviders[name]
		if _, ok := m.ProviderLocalNames[rp.Type]; !ok && !rp.Type.IsZero() {
			m.ProviderLocalNames[rp.Type] = name
		}
	}
	return diags
}

func (m *Module) setRequiredProvider(e *RequiredProvider, overrideFile string) {
	rps := m.RequiredProviders
	if old, ok := rps.RequiredProviders[e.Name]; ok {
		na := *e.Syntax
		r := old.Syntax.Range
		na.Replaced = &r
		e.Syntax = &na
	} else {
		rps.Order = append(rps.Order, e.Name)
	}
	rps.RequiredProviders[e.Name] = e
}

// FileDiagnostics returns the parse and decode diagnostics of the module's
// primary and override files, in load order, without the module-level ones
// (duplicates, overrides, static evaluation).
//
// OpenTofu's commands load the root module a second time when they look for
// its encryption configuration, and report that load's diagnostics too.
// After a load without errors, that second load reports exactly these: its
// module-level checks (variables, locals and encryption only) can only
// produce errors.
func (m *Module) FileDiagnostics() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, f := range m.primary {
		diags = append(diags, f.Diagnostics...)
	}
	for _, f := range m.overrides {
		diags = append(diags, f.Diagnostics...)
	}
	return diags
}

// dropResourceConfig keeps only the meta-arguments and meta-blocks of
// every resource's syntax (WithoutResourceConfig). The body is changed in
// place: a check block holding a nested data block shares it.
func (m *Module) dropResourceConfig() {
	for _, rs := range []map[string]*Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for _, r := range rs {
			if r.Syntax == nil || r.Syntax.Body == nil {
				continue
			}
			metaBlocks := resourceMetaBlocks
			if r.Mode != ManagedResourceMode {
				metaBlocks = dataMetaBlocks
			}
			r.Syntax.Body.keepOnly(resourceMetaArgs, metaBlocks)
		}
	}
}
