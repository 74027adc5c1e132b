package workdir

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/regfile"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
	"github.com/tfdeps/tfdeps/requirements"
)

// ErrConfiguration reports a step stopped by errors in the configuration
// (OpenTofu shows them after a preamble of its own).
var ErrConfiguration = errors.New("the configuration is invalid")

// Requirements is the requirements step: it loads the module tree (with
// the installed modules) and collects the provider requirements of the
// tree, its test files and the resources of the local state file at
// statePath ("" for none). before are the diagnostics of the earlier
// steps, returned first; diags those of the variable values, returned with
// the load's. The error is nil, ErrConfiguration (errors in the
// configuration), or ErrFailed (a module the emulated Terraform version
// does not satisfy — those diagnostics alone are returned — or the
// requirements' own errors).
func (r *Run) Requirements(statePath string, before, diags hcl.Diagnostics) (*requirements.Result, hcl.Diagnostics, error) {
	o := &r.opts
	reqs, loadDiags := requirements.Load(".", requirements.Options{
		Config:    o.configOptions(append([]config.Option{config.WithTestsDir(o.TestsDir), config.WithFileSystem(manifestFS{OSFileSystem: o.fileSystem(), manifest: r.manifestPath()})}, o.Variables...)...),
		StateFile: statePath,
		ReadFile:  func(name string) ([]byte, error) { return regfile.ReadFile(o.inDir(name)) },
	})
	diags = RootWarningsAgain(*o, append(diags, withoutOwnWarnings(loadDiags)...))
	diags = append(before, diags...)
	if d := r.terraformCoreDiags(reqs.Tree); d.HasErrors() {
		return reqs, d, ErrFailed
	}
	if r.modulesInstalled && !diags.HasErrors() {
		diags = append(diags, treeCheckWarnings(reqs)...)
	}
	if diags.HasErrors() {
		if hasConfigErrors(r.withoutInstallerErrors(diags, reqs)) {
			return reqs, diags, ErrConfiguration
		}
		return reqs, diags, ErrFailed
	}
	return reqs, diags, nil
}

// terraformCoreDiags checks every module of the tree against the emulated
// Terraform version, as terraform init does once the modules are
// installed (nothing for OpenTofu, whose loader checks per file).
func (r *Run) terraformCoreDiags(t *config.Tree) hcl.Diagnostics {
	if r.opts.Flavour != flavour.Terraform || t == nil {
		return nil
	}
	var diags hcl.Diagnostics
	t.Walk(func(n *config.Tree) {
		if n.Module != nil {
			diags = append(diags, n.Module.CheckTerraformCore(r.opts.Version, n.PathString(), n.SourceAddr)...)
		}
	})
	return diags
}

// withoutOwnWarnings drops tfdeps' own warnings, which OpenTofu does not
// print (a provider named only as a predecessor's successor).
func withoutOwnWarnings(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning && d.Summary == requirements.SummaryPredecessorProvider {
			continue
		}
		out = append(out, d)
	}
	return out
}

// RootWarningsAgain returns diags with the root module's own loader
// warnings added once more in front, as tofu init and tofu providers show
// them: both load the root module on its own before (init) or after
// (providers, for its encryption settings) the whole tree, and report the
// warnings of both loads. Nothing is added when diags has errors in root
// module files, where tofu stops after the first load.
func RootWarningsAgain(o Options, diags hcl.Diagnostics) hcl.Diagnostics {
	for _, d := range diags {
		if d.Severity == hcl.DiagError && !IsRequirementsError(d) && (d.Subject == nil || !strings.Contains(d.Subject.Filename, "/")) {
			return diags
		}
	}
	_, rootDiags := config.LoadDir(".", o.configOptions(config.WithTestsDir(o.TestsDir))...)
	var again hcl.Diagnostics
	for _, d := range rootDiags {
		if d.Severity == hcl.DiagWarning {
			again = append(again, d)
		}
	}
	return append(again, diags...)
}

// IsRequirementsError reports an error from collecting provider
// requirements (a constraint string that decodes but does not parse, an
// import block's provider argument that disagrees with its resource's):
// tofu init finds those after loading the configuration, and prints them
// without the configuration-error preamble.
func IsRequirementsError(d *hcl.Diagnostic) bool {
	if d.Severity != hcl.DiagError {
		return false
	}
	switch d.Summary {
	case "Invalid version constraint":
		return strings.HasPrefix(d.Detail, "Incorrect version constraint syntax: ")
	case "Invalid import provider argument":
		return strings.HasPrefix(d.Detail, "The provider argument in the target resource block must ")
	}
	return false
}

// withoutInstallerErrors returns diags without the errors of the checks
// tofu's module installer makes when it builds the module tree it has
// installed (provider configurations across modules, import blocks in
// child modules): tofu reports those as installation errors, without the
// configuration-error preamble. Without installed modules diags is
// returned as is.
func (r *Run) withoutInstallerErrors(diags hcl.Diagnostics, reqs *requirements.Result) hcl.Diagnostics {
	if !r.modulesInstalled || reqs == nil || reqs.Tree == nil {
		return diags
	}
	type key struct{ summary, detail, subject string }
	keyOf := func(d *hcl.Diagnostic) key {
		k := key{summary: d.Summary, detail: d.Detail}
		if d.Subject != nil {
			k.subject = d.Subject.String()
		}
		return k
	}
	tree := map[key]bool{}
	for _, d := range append(requirements.CheckChildModules(reqs.Tree), requirements.Check(reqs.Tree)...) {
		if d.Severity == hcl.DiagError {
			tree[keyOf(d)] = true
		}
	}
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagError && tree[keyOf(d)] {
			continue
		}
		out = append(out, d)
	}
	return out
}

// hasConfigErrors reports errors other than requirements errors.
func hasConfigErrors(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Severity == hcl.DiagError && !IsRequirementsError(d) {
			return true
		}
	}
	return false
}

// treeCheckWarnings are the warnings of the checks OpenTofu makes while
// building a module tree (provider configurations across modules), which
// it reports once more when init built the tree while installing.
func treeCheckWarnings(reqs *requirements.Result) hcl.Diagnostics {
	if reqs == nil || reqs.Tree == nil {
		return nil
	}
	var out hcl.Diagnostics
	for _, d := range append(requirements.CheckChildModules(reqs.Tree), requirements.Check(reqs.Tree)...) {
		if d.Severity == hcl.DiagWarning {
			out = append(out, d)
		}
	}
	return out
}

// manifestFS reads the configuration from the operating system (relative
// to the working directory), except
// that the module manifest the tree loader looks for at
// .terraform/modules/modules.json is read from the data directory's
// modules directory, so the requirements of installed modules are found
// there too when the data directory is elsewhere.
type manifestFS struct {
	config.OSFileSystem
	manifest string
}

func (f manifestFS) ReadFile(name string) ([]byte, error) {
	if filepath.Clean(name) == filepath.Join(".terraform", "modules", manifest.FileName) {
		name = f.manifest
	}
	return f.OSFileSystem.ReadFile(name)
}
