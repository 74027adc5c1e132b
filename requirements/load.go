package requirements

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
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
}

// Load loads the module tree rooted at dir and collects its requirements.
// The diagnostics are, in order: those of loading the root module, of
// loading the child modules and checking provider names (Check), of
// collecting requirements (Collect), and of reading the state.
//
// Module calls whose module is not installed (a remote source with no
// entry in .terraform/modules/modules.json) are warnings naming the module:
// its requirements are missing from the result. OpenTofu fails with
// "Module not installed" there; tfdeps reports what it can.
//
// When the root module has errors, the child modules are not loaded and the
// result holds the root's requirements only.
func Load(dir string, opts Options) (*Result, hcl.Diagnostics) {
	tree, rootDiags, buildDiags := config.LoadTree(dir, opts.Config...)
	diags := append(hcl.Diagnostics{}, rootDiags...)
	// Modules that are not installed are warnings for tfdeps: the checks
	// still run on the rest of the tree.
	buildDiags = notInstalledAsWarnings(tree, buildDiags)
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
	diags = append(diags, reqDiags...)
	if !rootDiags.HasErrors() {
		diags = append(diags, collectTestRuns(res, dir, testRunOptions(opts.Config))...)
	}
	if opts.StateFile != "" {
		st, stDiags := ReadStateFile(opts.StateFile, opts.ReadFile)
		diags = append(diags, stDiags...)
		res.AddState(st)
	}
	return res, diags
}

// notInstalledAsWarnings turns the loader's "Module not installed" errors
// into warnings that name the module call.
func notInstalledAsWarnings(tree *config.Tree, diags hcl.Diagnostics) hcl.Diagnostics {
	out := make(hcl.Diagnostics, 0, len(diags))
	for _, d := range diags {
		if d.Severity != hcl.DiagError || d.Summary != "Module not installed" || d.Subject == nil {
			out = append(out, d)
			continue
		}
		path, call := findMissingCall(tree, *d.Subject)
		if call == nil {
			out = append(out, d)
			continue
		}
		out = append(out, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Module not installed",
			Detail: fmt.Sprintf("The module %s (source %q) is not installed, so tfdeps cannot read the providers it requires and they are missing from the result. Run \"tofu init\" to install all modules required by this configuration.",
				path, call.SourceAddr),
			Subject: d.Subject,
		})
	}
	return out
}

// findMissingCall finds the module call declared at rng that has no child
// module in the tree.
func findMissingCall(tree *config.Tree, rng hcl.Range) (string, *config.ModuleCall) {
	var path string
	var found *config.ModuleCall
	if tree == nil {
		return "", nil
	}
	tree.Walk(func(t *config.Tree) {
		if found != nil || t.Module == nil {
			return
		}
		for name, call := range t.Module.ModuleCalls {
			if _, loaded := t.Children[name]; !loaded && call.DeclRange == rng {
				path, found = absAddress(t.PathString(), "module."+name), call
				return
			}
		}
	})
	return path, found
}
