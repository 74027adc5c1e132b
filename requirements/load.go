package requirements

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
)

// Options says how Load reads the configuration and the state.
type Options struct {
	// Config are passed to the configuration loader (file system, emulated
	// OpenTofu version, ...).
	Config []config.Option
	// StateFile is the path of a state file whose resources' providers are
	// added unconstrained; "" reads no state. A missing file is no error.
	StateFile string
	// ReadFile reads the state file; nil means os.ReadFile.
	ReadFile func(name string) ([]byte, error)
	// LocalModulesFromDisk reads child modules with local sources from
	// their directories instead of through the module manifest
	// (config.LocalFromDisk), for configurations that were never
	// initialised such as conformance fixtures. OpenTofu has no such mode.
	LocalModulesFromDisk bool
}

// Load loads the module tree rooted at dir and collects its requirements.
// The diagnostics are, in order: those of loading the root module, of
// loading the child modules and checking provider names (Check), of
// collecting requirements (Collect), and of reading the state.
//
// Child modules are loaded only through .terraform/modules/modules.json,
// as OpenTofu does after init (config.ManifestWalker): a call without a
// record, local ones included, is OpenTofu's "Module not installed" error
// with the call's file and line, and so are changed sources or version
// constraints; module call cycles are errors too.
//
// When the root module has errors, the child modules are not loaded and the
// result holds the root's requirements only.
func Load(dir string, opts Options) (*Result, hcl.Diagnostics) {
	// Requirements and diagnostics need no resource arguments; dropping
	// them keeps a large tree's memory at about the size of its
	// declarations (config.WithoutResourceConfig).
	opts.Config = append(opts.Config[:len(opts.Config):len(opts.Config)], config.WithoutResourceConfig())
	// The root module's variable values are read as terraform reads them
	// while it loads the configuration (the Terraform flavour only).
	rootOpts := append(opts.Config[:len(opts.Config):len(opts.Config)], config.WithRootVariableValues())
	var tree *config.Tree
	var rootDiags, buildDiags hcl.Diagnostics
	if opts.LocalModulesFromDisk {
		w := config.LocalFromDisk(config.NewManifestWalker(nil, dir, opts.Config...), opts.Config...)
		tree, rootDiags, buildDiags = config.LoadTreeWith(dir, w, rootOpts...)
	} else {
		tree, rootDiags, buildDiags = config.LoadTree(dir, rootOpts...)
	}
	diags := append(hcl.Diagnostics{}, rootDiags...)
	diags = append(diags, buildDiags...)
	var childDiags hcl.Diagnostics
	if !rootDiags.HasErrors() {
		childDiags = CheckChildModules(tree)
		diags = append(diags, childDiags...)
	}
	if !rootDiags.HasErrors() && !buildDiags.HasErrors() && !childDiags.HasErrors() {
		// OpenTofu checks provider configurations only in a tree that
		// was built without errors.
		diags = append(diags, Check(tree)...)
	}
	res, reqDiags := Collect(tree)
	if !diags.HasErrors() {
		// OpenTofu reads provider requirements only from a configuration
		// that loaded and built without errors.
		diags = append(diags, reqDiags...)
	}
	// Terraform loads the modules of test runs only once the module tree
	// built without errors; OpenTofu loads them whenever the root did.
	testRuns := !rootDiags.HasErrors()
	if tree != nil && tree.Module != nil && tree.Module.Flavour() == flavour.Terraform {
		testRuns = testRuns && !buildDiags.HasErrors() && !childDiags.HasErrors()
	}
	if testRuns {
		diags = append(diags, collectTestRuns(res, dir, testRunOptions(opts.Config), opts.LocalModulesFromDisk)...)
	}
	if opts.StateFile != "" {
		st, stDiags := ReadStateFile(opts.StateFile, opts.ReadFile, config.FlavourOf(opts.Config...))
		diags = append(diags, stDiags...)
		res.AddState(st)
	}
	return res, diags
}
