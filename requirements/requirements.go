package requirements

import (
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/versions"
)

// Result is the provider requirements of a module tree.
type Result struct {
	// Tree is the module tree the requirements were collected from.
	Tree *config.Tree
	// Providers maps every required provider to the intersection of all the
	// constraints on it, from configuration and state. A provider without
	// constraints maps to nil.
	Providers map[addrs.Provider]versions.Constraints
	// Root is the requirements of the root module, with its children.
	Root *Module
	// Explicit holds the providers some module lists in required_providers.
	Explicit map[addrs.Provider]bool
	// Implicit maps each provider that a resource required before any
	// required_providers entry named it (root module first) to those
	// resources, in walk order.
	Implicit map[addrs.Provider][]ResourceRef
	// State holds the providers used by resources in the state, sorted.
	State []addrs.Provider
	// Sources lists, per provider, every place that requires it, in walk
	// order.
	Sources map[addrs.Provider][]Source
}

// Module is the requirements of one module of the tree (not counting its
// children).
type Module struct {
	// Path is "" for the root, "module.a.module.b" otherwise; Name is the
	// last module call name ("" for the root).
	Path, Name string
	// Dir is the directory the module was loaded from.
	Dir string
	// Providers maps each provider this module requires to the constraints
	// this module puts on it.
	Providers map[addrs.Provider]versions.Constraints
	// Tests are the root module's test files, in file name order (empty
	// for other modules and when test files were not loaded).
	Tests []*TestFile
	// Children in module call name order.
	Children []*Module
}

// TestFile is what one test file requires: its provider blocks, and the
// modules its run blocks put under test.
type TestFile struct {
	// Name is the file's path relative to the module directory
	// ("tests/main.tftest.hcl").
	Name string
	// Providers maps each provider of the file's provider blocks to their
	// constraints.
	Providers map[addrs.Provider]versions.Constraints
	// Runs are the run blocks that test another module, in source order,
	// each with that module's requirements (Name is the run's name).
	Runs []*Module
}

// Sorted returns the providers of the test file's provider blocks by address.
func (t *TestFile) Sorted() []addrs.Provider {
	return sortedProviders(t.Providers)
}

// SourceKind says what kind of declaration requires a provider.
type SourceKind string

// The kinds of Source.
const (
	FromRequiredProviders SourceKind = "required_providers"
	FromProviderBlock     SourceKind = "provider"
	FromResource          SourceKind = "resource"
	// FromAction is a Terraform action block (action.TYPE.NAME).
	FromAction SourceKind = "action"
	FromImport SourceKind = "import"
	FromState  SourceKind = "state"
	// FromTestFile is a provider block in one of the root module's test files.
	FromTestFile SourceKind = "test file"
)

// Source is one place that requires a provider.
type Source struct {
	// Module is the module path ("" for the root); for the state, the
	// module part of the resource address.
	Module string
	Kind   SourceKind
	// Name is the local name (required_providers, provider blocks), the
	// resource address within its module (resources, e.g. data.aws_ami.x),
	// the import target, or the state resource address.
	Name string
	// Constraints are the constraints this place adds (nil for none).
	Constraints versions.Constraints
	// Range is the declaration's range; zero for the state.
	Range hcl.Range
}

// ResourceRef is a resource that implied a provider.
type ResourceRef struct {
	// Address is the absolute resource address, e.g. module.a.aws_instance.x.
	Address string
	Range   hcl.Range
	// HasProviderArg tells whether the resource named its provider with a
	// provider argument.
	HasProviderArg bool
}

// Sorted returns the required providers in address order (LessThan).
func (r *Result) Sorted() []addrs.Provider {
	return sortedProviders(r.Providers)
}

// Modules returns the modules in walk order: root first, then children
// depth first in name order.
func (r *Result) Modules() []*Module {
	var out []*Module
	var walk func(m *Module)
	walk = func(m *Module) {
		out = append(out, m)
		for _, c := range m.Children {
			walk(c)
		}
	}
	if r.Root != nil {
		walk(r.Root)
	}
	return out
}

func sortedProviders[V any](m map[addrs.Provider]V) []addrs.Provider {
	out := make([]addrs.Provider, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	slices.SortFunc(out, addrs.Provider.Compare)
	return out
}

// Sorted returns the providers this module requires in address order.
func (m *Module) Sorted() []addrs.Provider {
	return sortedProviders(m.Providers)
}
