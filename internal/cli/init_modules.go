package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleinstall"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
	"github.com/tfdeps/tfdeps/registry"
)

// moduleEvents renders the module installer's progress through the init
// view, as OpenTofu's or Terraform's lines.
type moduleEvents struct {
	view    initView
	flavour flavour.Flavour
	// trim is set for terraform init, whose view trims each line (so
	// "- KEY in" for a missing directory); terraform get does not.
	trim bool
}

func (e moduleEvents) Download(key, addr, version string) {
	text := fmt.Sprintf("Downloading %s for %s...", addr, key)
	if version != "" {
		text = fmt.Sprintf("Downloading %s %s for %s...", addr, version, key)
	}
	e.view.Text("info", "module_download", text, text)
}

// Install prints "- KEY in DIR"; OpenTofu's JSON view logs "installing
// KEY in DIR" instead, Terraform's the human line.
func (e moduleEvents) Install(key, version, dir string) {
	text := fmt.Sprintf("- %s in %s", key, dir)
	if e.flavour == flavour.Terraform {
		if e.trim {
			text = strings.TrimSpace(text)
		}
		e.view.Text("info", "module_install", text, text)
		return
	}
	e.view.Text("info", "module_install", text, fmt.Sprintf("installing %s in %s", key, dir))
}

// modulesDir is TF_DATA_DIR/modules, default .terraform/modules.
func modulesDir(m *Meta) string { return filepath.Join(dataDir(m), "modules") }

// moduleCacheDir is the shared module package cache:
// TFDEPS_MODULE_CACHE_DIR, else tfdeps/modules in the user cache
// directory; "" (no cache) when neither can be found or the variable is
// "off".
func moduleCacheDir(m *Meta) string {
	switch d := m.Getenv("TFDEPS_MODULE_CACHE_DIR"); d {
	case "off":
		return ""
	case "":
	default:
		return d
	}
	if d := m.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "tfdeps", "modules")
	}
	if home := m.Getenv("HOME"); home != "" {
		return filepath.Join(home, ".cache", "tfdeps", "modules")
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "tfdeps", "modules")
	}
	return ""
}

// hasModuleCalls reports whether the root module or a run block of its
// test files calls a module (init.md: otherwise the phase is skipped).
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

// withoutMockDataAfterErrors drops the diagnostics of reading mock data
// when diags has other errors: without modules to install, terraform init
// reads mock data only for a configuration without errors.
func withoutMockDataAfterErrors(diags hcl.Diagnostics) hcl.Diagnostics {
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

func isTestFileName(name string) bool {
	for _, suffix := range []string{".tftest.hcl", ".tftest.json", ".tfmock.hcl", ".tfmock.json"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

func hasModuleCalls(root *config.Module) bool {
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

// moduleInstall is what init and get share: read the manifest, load the
// root module, install.
type moduleInstall struct {
	// get is set for tfdeps get: as tofu get, it leaves modules.json as it
	// was when installation fails (tofu init writes it even then).
	get      bool
	m        *Meta
	testsDir string
	upgrade  bool
	registry moduleinstall.Registry
	view     initView
	// vars are the loader options carrying the root module's variable
	// values (-var, -var-file, tfvars, TF_VAR_).
	vars []config.Option
}

// loadRoot reads the manifest (a broken one is an error, modules.md §6)
// and the root module with its test files.
func (mi *moduleInstall) loadRoot() (*config.Module, hcl.Diagnostics) {
	if _, err := manifest.Read(filepath.Join(modulesDir(mi.m), manifest.FileName)); err != nil {
		return nil, hcl.Diagnostics{errorDiag("failed to read module manifest: "+err.Error(), "")}
	}
	return config.LoadDir(".", mi.m.configOptions(append([]config.Option{config.WithTestsDir(mi.testsDir)}, mi.vars...)...)...)
}

// install runs the installer on root and returns its diagnostics, after
// rootDiags (those of loading root, which Terraform's installer reports
// as its own).
func (mi *moduleInstall) install(ctx context.Context, root *config.Module, rootDiags hcl.Diagnostics) hcl.Diagnostics {
	diags := moduleinstall.Install(ctx, root, mi.options(rootDiags))
	if errors.Is(ctx.Err(), context.Canceled) {
		diags = append(diags, errorDiag("Module installation canceled", "Module installation was canceled by an interrupt signal."))
	}
	return diags
}

// options are the installer's options for this run.
func (mi *moduleInstall) options(rootDiags hcl.Diagnostics) moduleinstall.Options {
	var cache *moduleinstall.Cache
	if d := moduleCacheDir(mi.m); d != "" {
		cache = moduleinstall.OpenCache(d)
	}
	return moduleinstall.Options{
		ModsDir:     modulesDir(mi.m),
		Parallelism: moduleParallelism(mi.m),
		Upgrade:     mi.upgrade,
		Registry:    mi.registry,
		// One client for every http(s) package of the run, on the registry
		// client's connection pool, so connections are reused (OpenTofu also
		// shares one per installation).
		Getters: moduleinstall.GetterOptions{HTTPClient: &http.Client{Transport: mi.transport()}},
		Cache:   cache,
		Config:  mi.loadOptions(),
		// Observed with tofu 1.12.6: get writes no manifest after errors
		// of installation, and its tree checks' errors are warnings.
		InstallErrorsOnly: mi.get,
		TreeChecks:        mi.treeChecks(),
		Events:            moduleEvents{view: mi.view, flavour: mi.m.Flavour, trim: !mi.get},
		Fetches:           liveModuleFetches(mi.view),
		Flavour:           mi.m.Flavour,
		RootDiags:         rootDiags,
		CoreVersion:       mi.m.Version(),
	}
}

// treeChecks are the tree checks of get (none for init, whose
// requirements step makes them).
func (mi *moduleInstall) treeChecks() func(*config.Tree) hcl.Diagnostics {
	if !mi.get {
		return nil
	}
	return getTreeChecks
}

// transport is the registry client's transport (one pool of connections
// for the registry's answers and the archives it points to), else a new
// one.
func (mi *moduleInstall) transport() http.RoundTripper {
	if c, ok := mi.registry.(*registry.Client); ok && c.Settings().Transport != nil {
		return c.Settings().Transport
	}
	return registry.NewTransport()
}

// initModules is init's module phase (modules.md §1 steps 1–6). It
// returns the warnings to show at the end and whether init must stop
// (everything already printed).
func (r *initRun) initModules(ctx context.Context, registry moduleinstall.Registry, vars []config.Option) (hcl.Diagnostics, bool) {
	mi := &moduleInstall{m: r.m, testsDir: r.opts.testsDir, upgrade: r.opts.upgrade, registry: registry, view: r.view, vars: vars}
	root, diags := mi.loadRoot()
	if r.m.Flavour == flavour.Terraform && root != nil && r.opts.get && hasModuleCalls(root) {
		// terraform init installs the modules the root module calls even
		// when it has errors: its installer reports them with its own.
		return r.initModulesTerraform(ctx, mi, root, diags)
	}
	if r.m.Flavour == flavour.Terraform {
		diags = withoutMockDataAfterErrors(diags)
		if root != nil && r.rootErrorsTerraform(mi, root, diags) {
			return nil, true
		}
	}
	if diags.HasErrors() {
		r.view.Diagnostics(r.withConfigErrorText(diags))
		return nil, true
	}
	// The root module loaded: tofu initialises the backend before modules.
	if r.backendSection(root, diags) {
		return nil, true
	}
	if r.m.Flavour == flavour.Terraform && !hasModuleCalls(root) {
		// Without module calls terraform finds a const variable without
		// a value when it loads the whole configuration, after the
		// backend: a configuration error.
		if d := root.MissingConstVariables(); d.HasErrors() {
			if r.opts.backend {
				r.view.Message("empty_line", "", false) // after the backend's section
			}
			r.view.Diagnostics(r.withConfigErrorText(d))
			return nil, true
		}
	}
	if !r.opts.get {
		m, err := manifest.Read(filepath.Join(modulesDir(r.m), manifest.FileName))
		if err != nil {
			return nil, true
		}
		walker := config.NewManifestWalker(m, ".", mi.loadOptions()...)
		tree, check := config.BuildTree(root, walker)
		check = append(check, testRunsInstalled(tree, walker, r.m.Flavour)...)
		if check.HasErrors() {
			if r.m.Flavour == flavour.Terraform && r.opts.backend {
				r.view.Message("empty_line", "", false) // after the backend's section
			}
			r.view.Diagnostics(r.withConfigErrorText(check))
			return nil, true
		}
		return nil, false
	}
	if !hasModuleCalls(root) {
		return nil, false
	}
	r.modulesHeader()
	// The installer loads the root module once more, so its warnings
	// count once more, as tofu reports them.
	r.installedModules = true
	diags = append(diags, mi.install(ctx, root, nil)...)
	if diags.HasErrors() {
		r.view.Diagnostics(diags)
		return nil, true
	}
	return diags, false
}

// rootErrorsTerraform is terraform init without module installation when
// the root module (diags: its early load's diagnostics) has errors or
// excludes this Terraform version; it reports whether init stopped
// (everything printed). Terraform stops before the backend only when its
// early load found no module (the directory could not be read); otherwise
// it initialises the backend, which (without a backend or cloud block)
// loads the root module once more without its test files and fails with
// that load's diagnostics when it has errors, syntax errors excepted (the
// parser answers a file it has parsed without them). It then checks the
// root's required_version, whose errors alone are shown, and else shows
// the early load's diagnostics, the backend's, and the configuration error
// text.
func (r *initRun) rootErrorsTerraform(mi *moduleInstall, root *config.Module, diags hcl.Diagnostics) bool {
	versionDiags := root.CheckTerraformCore(r.m.Version(), "", "")
	if !diags.HasErrors() && !versionDiags.HasErrors() {
		return false
	}
	if diags.HasErrors() && earlyLoadFailed(diags) {
		r.view.Diagnostics(r.withConfigErrorText(diags))
		return true
	}
	var backendDiags hcl.Diagnostics
	if r.opts.backend {
		// terraform's backend reads the early load's module, errors or not.
		r.rootForBackend = &rootOnce{loaded: true, root: root}
		if r.initBackend(root) {
			return true
		}
		backendDiags = r.backendSectionDiags()
		if !backendDiags.HasErrors() && root.Backend == nil && root.Cloud == nil {
			backendDiags = append(backendDiags, backendLoadDiags(mi)...)
		}
		r.view.Message("empty_line", "", false)
	}
	if versionDiags.HasErrors() {
		r.view.Diagnostics(versionDiags)
		return true
	}
	r.view.Diagnostics(r.withConfigErrorText(append(diags, backendDiags...)))
	return true
}

// backendLoadDiags are the diagnostics of terraform's backend loading the
// root module again (no test files): none unless that load has errors,
// and never the syntax errors, which Terraform's parser reports once.
func backendLoadDiags(mi *moduleInstall) hcl.Diagnostics {
	_, diags := config.LoadDir(".", mi.loadOptions()...)
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

// earlyLoadFailed reports whether diags has an error of reading the
// module's directory (or its test directory), where Terraform's loader
// returns no module at all.
func earlyLoadFailed(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Severity == hcl.DiagError && (d.Summary == "Failed to read module directory" || d.Summary == "Failed to read test directory") {
			return true
		}
	}
	return false
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

// modulesHeader prints the header of init's module phase.
func (r *initRun) modulesHeader() {
	header := "[reset][bold]Initializing modules..."
	if r.opts.upgrade {
		header = "[reset][bold]Upgrading modules..."
	}
	r.view.Event("init_modules", "", "", header)
}

// initModulesTerraform is terraform init's module phase: the backend
// header whatever the root module's errors, then the installer, which
// reports the root module's diagnostics (once, not again later) with its
// own; any error stops init there, printed without the configuration
// error text, and leaves modules.json as it was.
func (r *initRun) initModulesTerraform(ctx context.Context, mi *moduleInstall, root *config.Module, rootDiags hcl.Diagnostics) (hcl.Diagnostics, bool) {
	if r.initBackend(root) {
		return nil, true
	}
	r.modulesHeader()
	if d := root.MissingConstVariables(); d.HasErrors() {
		// Terraform needs the const variables' values to install; it has
		// made the modules directory already.
		_ = os.MkdirAll(modulesDir(r.m), 0o777)
		r.view.Diagnostics(d)
		return nil, true
	}
	if v := root.CheckTerraformCore(r.m.Version(), "", ""); v.HasErrors() {
		// Terraform's installer reports the root's required_version errors
		// instead of its other diagnostics (maybe a newer language's).
		rootDiags = v
	}
	r.installedModules = true
	diags := mi.install(ctx, root, rootDiags)
	if diags.HasErrors() {
		r.view.Diagnostics(diags)
		return nil, true
	}
	return diags, false
}

func (mi *moduleInstall) loadOptions() []config.Option {
	return mi.m.configOptions(append([]config.Option{config.WithTestsDir("")}, mi.vars...)...)
}

// newModuleRegistry adapts the registry client to the module installer.
func newModuleRegistry(m *Meta, cfg *cliconfig.Config) moduleinstall.Registry {
	return newRegistryClient(m, cfg)
}

// moduleParallelism is TFDEPS_MODULE_PARALLELISM: how many packages are
// fetched at once ahead of the walk (unset: the installer's default; 0 or
// less: none, one package at a time in walk order, as OpenTofu does).
func moduleParallelism(m *Meta) int {
	v := m.Getenv("TFDEPS_MODULE_PARALLELISM")
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return -1
	}
	return n
}
