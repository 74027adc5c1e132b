package workdir

import (
	"context"
	"errors"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleinstall"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/requirements"
)

// LoadRoot reads the module manifest (a broken one is an error) and the
// root module with its test files and the variable values.
func (r *Run) LoadRoot() (*config.Module, hcl.Diagnostics) {
	if _, err := manifest.Read(r.opts.inDir(r.manifestPath())); err != nil {
		return nil, hcl.Diagnostics{errorDiag("failed to read module manifest: "+r.opts.relErr(err).Error(), "")}
	}
	return config.LoadDir(".", r.rootOptions()...)
}

// rootOptions load the root module with its test files.
func (r *Run) rootOptions() []config.Option {
	return r.opts.configOptions(append([]config.Option{config.WithTestsDir(r.opts.TestsDir)}, r.opts.Variables...)...)
}

// loadOptions load modules without test files.
func (r *Run) loadOptions() []config.Option {
	return r.opts.configOptions(append([]config.Option{config.WithTestsDir("")}, r.opts.Variables...)...)
}

// InstallModules is the module step: it installs the modules root calls
// (and the run blocks of its test files) into the data directory and
// writes the manifest, reporting Events.Modules. rootDiags are the
// diagnostics of loading root, which Terraform's installer reports as its
// own (nil otherwise). An interrupt (ctx cancelled) is an error.
func (r *Run) InstallModules(ctx context.Context, root *config.Module, rootDiags hcl.Diagnostics) hcl.Diagnostics {
	r.modulesInstalled = true
	return r.installModules(ctx, root, rootDiags, false)
}

func (r *Run) installModules(ctx context.Context, root *config.Module, rootDiags hcl.Diagnostics, get bool) hcl.Diagnostics {
	diags := moduleinstall.Install(ctx, root, r.moduleOptions(rootDiags, get))
	if errors.Is(ctx.Err(), context.Canceled) {
		diags = append(diags, errorDiag("Module installation canceled", "Module installation was canceled by an interrupt signal."))
	}
	return diags
}

// moduleOptions are the module installer's options for this run; get
// selects tofu get's behaviour.
func (r *Run) moduleOptions(rootDiags hcl.Diagnostics, get bool) moduleinstall.Options {
	o := &r.opts
	var cache *moduleinstall.Cache
	if o.ModuleCacheDir != "" {
		cache = moduleinstall.OpenCache(o.inDir(o.ModuleCacheDir))
	}
	opts := moduleinstall.Options{
		ModsDir:     o.ModulesDir(),
		Dir:         o.Dir,
		Parallelism: o.ModuleParallelism,
		Upgrade:     o.Upgrade,
		Registry:    r.moduleRegistry(),
		Getters:     moduleinstall.GetterOptions{HTTPClient: r.httpClient(), OCICredentials: r.ociCredentials()},
		Cache:       cache,
		Config:      r.loadOptions(),
		// Observed with tofu 1.12.6: get writes no manifest after errors
		// of installation, and its tree checks' errors are warnings.
		InstallErrorsOnly: get,
		Events:            r.events.Modules,
		Fetches:           r.events.ModuleFetches,
		Flavour:           o.Flavour,
		RootDiags:         rootDiags,
		CoreVersion:       o.Version,
	}
	if get {
		opts.TreeChecks = getTreeChecks
	}
	if opts.Events == nil {
		opts.Events = noModuleEvents{}
	}
	return opts
}

// noModuleEvents hears nothing.
type noModuleEvents struct{}

func (noModuleEvents) Download(key, addr, version string) {}
func (noModuleEvents) Install(key, version, dir string)   {}

func (r *Run) moduleRegistry() moduleinstall.Registry {
	if r.opts.ModuleRegistry != nil {
		return r.opts.ModuleRegistry
	}
	if r.opts.Registry != nil {
		return r.opts.Registry
	}
	return nil // registry sources fail
}

// httpClient fetches every http(s) package of the run: by default on the
// registry client's connection pool, so connections are reused (OpenTofu
// also shares one client per installation).
func (r *Run) httpClient() *http.Client {
	if r.opts.HTTPClient != nil {
		return r.opts.HTTPClient
	}
	reg := r.moduleRegistry()
	if shared, ok := reg.(interface{ Underlying() moduleinstall.Registry }); ok {
		reg = shared.Underlying()
	}
	if c, ok := reg.(*registry.Client); ok && c != nil && c.Settings().Transport != nil {
		return &http.Client{Transport: c.Settings().Transport}
	}
	return &http.Client{Transport: registry.NewTransport()}
}

// getTreeChecks are the checks tofu get's installer makes while building
// the tree: those of child modules first; when they find no error, those
// of provider names and configurations.
func getTreeChecks(tree *config.Tree) hcl.Diagnostics {
	diags := requirements.CheckChildModules(tree)
	if diags.HasErrors() {
		return diags
	}
	return append(diags, requirements.Check(tree)...)
}

// CheckModulesInstalled is the module step of -get=false: the modules root
// calls (and its test files' run blocks) must be installed as the manifest
// records them, unchanged. A manifest that cannot be read stops init with
// ErrFailed and no diagnostic (its loader reported it already).
func (r *Run) CheckModulesInstalled(root *config.Module) (hcl.Diagnostics, error) {
	m, err := manifest.Read(r.opts.inDir(r.manifestPath()))
	if err != nil {
		return nil, ErrFailed
	}
	walker := config.NewManifestWalker(m, ".", r.loadOptions()...)
	tree, check := config.BuildTree(root, walker)
	check = append(check, testRunsInstalled(tree, walker, r.opts.Flavour)...)
	if check.HasErrors() {
		return check, ErrConfiguration
	}
	return nil, nil
}

// testRunsInstalled checks the modules of the root's test files' run
// blocks against the manifest, as OpenTofu does while building the tree:
// not installed, source or version changed.
func testRunsInstalled(tree *config.Tree, walker config.ModuleWalker, f flavour.Flavour) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range tree.Module.TestFileNames() {
		for _, run := range tree.Module.Tests[name].Runs {
			if run.ModuleSource == "" {
				continue
			}
			call, err := config.TestRunCall(run, f)
			if err != nil {
				continue
			}
			req := &config.ModuleRequest{Name: run.Name, Path: config.TestRunModulePath(name, run.Name), Call: call, Parent: tree}
			_, _, d := walker.LoadModule(req)
			diags = append(diags, d...)
		}
	}
	return diags
}

// MakeModulesDir makes the data directory's modules directory, as
// Terraform does before it asks for the const variables' values.
func (r *Run) MakeModulesDir() error {
	return r.opts.relErr(os.MkdirAll(r.opts.inDir(r.opts.ModulesDir()), 0o777))
}

// BackendLoadDiags are the diagnostics of terraform's backend loading the
// root module again (no test files): none unless that load has errors,
// and never the syntax errors, which Terraform's parser reports once.
func (r *Run) BackendLoadDiags() hcl.Diagnostics {
	_, diags := config.LoadDir(".", r.loadOptions()...)
	var out hcl.Diagnostics
	for _, d := range diags {
		if !config.IsSyntaxDiagnostic(d) {
			out = append(out, d)
		}
	}
	if !out.HasErrors() {
		return nil
	}
	return out
}

// HasModuleCalls reports whether the root module or a run block of its
// test files calls a module (otherwise the module step is skipped).
func HasModuleCalls(root *config.Module) bool {
	if len(root.ModuleCalls) > 0 {
		return true
	}
	for _, tf := range root.Tests {
		for _, run := range tf.Runs {
			if run.ModuleSource != "" {
				return true
			}
		}
	}
	return false
}

// EarlyLoadFailed reports whether diags has an error of reading the
// module's directory (or its test directory), where Terraform's loader
// returns no module at all.
func EarlyLoadFailed(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Severity == hcl.DiagError && (d.Summary == "Failed to read module directory" || d.Summary == "Failed to read test directory") {
			return true
		}
	}
	return false
}

// WithoutMockDataAfterErrors drops the diagnostics of reading mock data
// when diags has other errors: without modules to install, terraform init
// reads mock data only for a configuration without errors.
func WithoutMockDataAfterErrors(diags hcl.Diagnostics) hcl.Diagnostics {
	var others, out hcl.Diagnostics
	for _, d := range diags {
		if !config.IsMockDataDiagnostic(d) {
			others = append(others, d)
		}
	}
	if !others.HasErrors() {
		return diags
	}
	for _, d := range diags {
		if !config.IsMockDataDiagnostic(d) {
			out = append(out, d)
		}
	}
	return out
}

// onlyTestFileErrors reports whether every error of diags with a source
// is about a test file (or a Terraform mock data file).
func onlyTestFileErrors(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Subject != nil && !isTestFileName(d.Subject.Filename) {
			return false
		}
	}
	return true
}

// WithoutStaticDiags is diags without root's static evaluation's
// diagnostics (config.Module.StaticDiagnostics): what Terraform reports
// from loading the root module, before it evaluates module sources.
func WithoutStaticDiags(root *config.Module, diags hcl.Diagnostics) hcl.Diagnostics {
	static := root.StaticDiagnostics()
	if len(static) == 0 {
		return diags
	}
	out := make(hcl.Diagnostics, 0, len(diags))
	for _, d := range diags {
		if !slices.Contains(static, d) {
			out = append(out, d)
		}
	}
	return out
}

// withoutTestFileDiags drops the diagnostics about test files (and
// Terraform mock data files) from diags.
func withoutTestFileDiags(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Subject == nil || !isTestFileName(d.Subject.Filename) {
			out = append(out, d)
		}
	}
	return out
}

func isTestFileName(name string) bool {
	for _, suffix := range []string{".tftest.hcl", ".tftest.json", ".tfmock.hcl", ".tfmock.json"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}
