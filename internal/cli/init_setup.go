package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/diagrender"
	"github.com/tfdeps/tfdeps/internal/initrun"
	"github.com/tfdeps/tfdeps/internal/livedisplay"
	"github.com/tfdeps/tfdeps/moduleinstall"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/workdir"
)

// cliConfigOptions are the CLI configuration loader's effects taken from the
// command's environment: its variables, and the directory of the implied
// terraform.d/plugins mirror. OpenTofu 1.12.6 looks for it in the working
// directory after -chdir (its sources say the launch directory, but it
// resolves the path after changing directory); Terraform lists the launch
// directory's.
func (m *Meta) cliConfigOptions() cliconfig.Options {
	opts := cliconfig.OptionsFromOS()
	if env := m.Environ(); env != nil {
		opts.Environ = env
	}
	if m.LaunchDir != "" && m.Flavour == flavour.Terraform {
		opts.LaunchDir = m.LaunchDir
	}
	opts.Flavour = m.Flavour
	return opts
}

// loadCLIConfig loads the CLI configuration and prints its problems, then
// those of its provider_installation block, as OpenTofu does before running
// any command; it always returns a usable configuration.
func loadCLIConfig(m *Meta, opts cliconfig.Options) *cliconfig.Config {
	cfg, diags := cliconfig.Load(opts)
	printProblems(m, cliconfig.ProblemsHeader, cliconfig.ProblemsFooter(m.Flavour), diags)
	_, srcDiags := providersource.Build(providersource.BuildOptions{
		Config: cfg, CLI: opts, Registry: newRegistryClient(m, cfg), Getenv: m.Getenv,
	})
	printProblems(m, providersource.ProblemsHeader, providersource.ProblemsFooter(m.Flavour), srcDiags)
	return cfg
}

// printProblems writes the header to stderr, then the diagnostics without
// colour whatever the command's settings (errors to stderr, warnings to
// stdout), then, when there are errors, the footer to stderr. Terraform
// writes them all to stderr, framed (printFramedProblems).
func printProblems(m *Meta, header, footer string, diags hcl.Diagnostics) {
	if len(diags) == 0 {
		return
	}
	fmt.Fprintln(m.Stderr, header)
	if m.Flavour == flavour.Terraform {
		printFramedProblems(m, footer, diags)
		return
	}
	p := newDiagPrinter(m, nil)
	p.Color = false
	p.Print(diags)
	if diags.HasErrors() {
		fmt.Fprintln(m.Stderr, footer)
	}
}

// printFramedProblems is Terraform's rendering of the problems it finds
// before running any command: every diagnostic in its order, framed and
// without colour (-no-color is not known yet), 78 columns wide, followed by
// an empty line, all on stderr; then the footer and an empty line.
func printFramedProblems(m *Meta, footer string, diags hcl.Diagnostics) {
	for _, d := range diags {
		fmt.Fprintln(m.Stderr, diagrender.RenderFramed(diagrender.NewDiagnostic(d, nil), 78))
	}
	if diags.HasErrors() {
		fmt.Fprintln(m.Stderr, footer)
	}
}

// dataDir is TF_DATA_DIR, default .terraform.
func dataDir(m *Meta) string {
	if d := m.Getenv("TF_DATA_DIR"); d != "" {
		return d
	}
	return providerinstall.DefaultDataDir
}

// newRegistryClient is the process's registry client.
func newRegistryClient(m *Meta, cfg *cliconfig.Config) *registry.Client {
	return registry.New(providersource.RegistrySettings(cfg, m.registrySettings()))
}

// registrySettings are the registry client settings of the process before
// the CLI configuration is applied: the environment, the emulated version
// and User-Agent, and the flavour whose rules authenticate packages (with
// the test binary's stand-ins for HashiCorp's keys, if any).
func (m *Meta) registrySettings() registry.Settings {
	return registry.Settings{
		Getenv:          m.Getenv,
		EmulatedVersion: m.Version(),
		UserAgent:       m.userAgent(),
		Flavour:         m.Flavour,
		TerraformKeys:   m.terraformKeys,
	}
}

// workdirOptions are workdir's options for this process: the flavour and
// its version, TF_DATA_DIR, the CLI configuration, the registry client and
// the sources of provider packages, the caches, and the environment's
// switches.
func workdirOptions(m *Meta, cfg *cliconfig.Config, src providerinstall.Source, client *registry.Client) workdir.Options {
	return workdir.Options{
		Flavour:    m.Flavour,
		Version:    m.Version(),
		DataDir:    m.Getenv("TF_DATA_DIR"),
		CLIConfig:  cfg,
		Registry:   client,
		Providers:  src,
		Platform:   m.Platform,
		Reattached: reattachedProviders(m.Getenv("TF_REATTACH_PROVIDERS")),
		// Terraform has no such variable: it always requires a signature.
		EnforceGPG:        m.Flavour != flavour.Terraform && m.Getenv("OPENTOFU_ENFORCE_GPG_VALIDATION") == "true",
		MemoDir:           providerinstall.DefaultMemoDir(os.UserCacheDir),
		PackageLockDir:    providerinstall.DefaultLockDir(os.UserCacheDir),
		ModuleCacheDir:    moduleCacheDir(m),
		ModuleParallelism: moduleParallelism(m),
	}
}

// newInstaller builds the installer for the working directory.
func newInstaller(m *Meta, cfg *cliconfig.Config, src providerinstall.Source, client *registry.Client) (*providerinstall.Installer, error) {
	return workdir.NewInstaller(workdirOptions(m, cfg, src, client))
}

// reattachedProviders parses TF_REATTACH_PROVIDERS: a JSON object whose
// keys are provider addresses. Invalid content marks nothing.
func reattachedProviders(raw string) map[addrs.Provider]bool {
	if raw == "" {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &m) != nil {
		return nil
	}
	out := map[addrs.Provider]bool{}
	for k := range m {
		if p, err := addrs.ParseProviderSource(k); err == nil {
			out[p] = true
		}
	}
	return out
}

// withRootWarningsAgain returns diags with the root module's own loader
// warnings added once more (workdir.RootWarningsAgain); testsDir is "" for
// no test files.
func withRootWarningsAgain(m *Meta, testsDir string, diags hcl.Diagnostics) hcl.Diagnostics {
	return workdir.RootWarningsAgain(workdir.Options{Flavour: m.Flavour, Version: m.Version(), TestsDir: testsDir}, diags)
}

// hasConfigErrors reports errors other than requirements errors.
func hasConfigErrors(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Severity == hcl.DiagError && !workdir.IsRequirementsError(d) {
			return true
		}
	}
	return false
}

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

// runEnv is the environment of init's run (and get's views) in the
// process's working directory: m's streams, variables and settings, and
// the live display on stdout when liveDisplayWanted.
func (m *Meta) runEnv() *initrun.Env {
	env := &initrun.Env{
		Stdin: m.Stdin, Stdout: m.Stdout, Stderr: m.Stderr,
		Getenv: m.Getenv, Environ: m.Environ, Getwd: m.Getwd,
		Flavour: m.Flavour, TofuVersion: m.TofuVersion, TerraformVersion: m.TerraformVersion,
		Color: m.Color,
	}
	if liveDisplayWanted(m, false) {
		env.LiveDisplay = func() *livedisplay.Display { return livedisplay.OnTerminal(m.Stdout) }
	}
	return env
}
