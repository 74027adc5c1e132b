package providersource

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/registry"
)

// ProblemsHeader is the text the CLI prints (to stderr) before the
// diagnostics of Build.
const ProblemsHeader = "There are some problems with the provider_installation configuration:"

// ProblemsFooter is the text the CLI prints (to stderr) after the
// diagnostics of Build when there are errors; it names the flavour's
// product.
func ProblemsFooter(f flavour.Flavour) string {
	return "As a result of the above problems, " + f.Product() + "'s provider installer may not behave as intended.\n\n"
}

// BuildOptions are the inputs of Build.
type BuildOptions struct {
	// Config is the loaded CLI configuration (nil: none).
	Config *cliconfig.Config
	// CLI locates the implied local plugin directories (environment, home,
	// launch directory).
	CLI cliconfig.Options
	// Registry is the process's registry client, shared by every direct
	// method and network mirror.
	Registry *registry.Client
	// Getenv reads OPENTOFU_ENFORCE_GPG_VALIDATION and
	// OPENTOFU_ENFORCE_GPG_EXPIRATION when packages are authenticated.
	Getenv func(string) string
	// PluginDirs, when not empty (init -plugin-dir), replaces every
	// installation method with filesystem mirrors at these directories.
	PluginDirs []string
}

// Build returns the source the installer uses: filesystem mirrors for
// -plugin-dir; else the explicit provider_installation methods in order;
// else the implied local directories followed by direct installation
// excluding every provider found locally. Invalid methods are left out and
// reported (summaries and details are OpenTofu's).
func Build(opts BuildOptions) (Source, hcl.Diagnostics) {
	if len(opts.PluginDirs) > 0 {
		return pluginDirSource(opts.PluginDirs), nil
	}
	if pi := opts.Config.Installation(); pi != nil {
		return explicitSource(pi, opts)
	}
	return impliedSource(opts), nil
}

func pluginDirSource(dirs []string) Multi {
	m := make(Multi, 0, len(dirs))
	for _, d := range dirs {
		m = append(m, Selector{Source: NewFilesystemMirror(d)})
	}
	return m
}

func impliedSource(opts BuildOptions) Multi {
	var m Multi
	local := map[addrs.Provider]bool{}
	for _, dir := range opts.CLI.ImpliedPluginDirs() {
		fs := NewFilesystemMirrorAt(dir.Name, dir.Path)
		// A directory that cannot be scanned excludes nothing; using it
		// will report the error.
		if all, err := fs.AllPackages(); err == nil {
			for p := range all {
				local[p] = true
			}
		}
		m = append(m, Selector{Source: fs})
	}
	found := make([]addrs.Provider, 0, len(local))
	for p := range local {
		found = append(found, p)
	}
	slices.SortFunc(found, addrs.Provider.Compare)
	direct := NewMemoize(NewRegistry(opts.Registry, opts.Getenv, nil))
	return append(m, Selector{Source: direct, Exclude: ExactPatterns(found)})
}

func explicitSource(pi *cliconfig.ProviderInstallation, opts BuildOptions) (Multi, hcl.Diagnostics) {
	var m Multi
	var diags hcl.Diagnostics
	for _, method := range pi.Methods {
		src, diag := methodSource(method, opts)
		if diag != nil {
			diags = append(diags, diag)
		}
		if src == nil {
			continue
		}
		include, err := ParsePatterns(method.Include)
		if err != nil {
			diags = append(diags, errorDiag("Invalid provider source inclusion patterns",
				fmt.Sprintf("CLI config specifies invalid provider inclusion patterns: %s.", err)))
			continue
		}
		exclude, err := ParsePatterns(method.Exclude)
		if err != nil {
			diags = append(diags, errorDiag("Invalid provider source exclusion patterns",
				fmt.Sprintf("CLI config specifies invalid provider exclusion patterns: %s.", err)))
			continue
		}
		m = append(m, Selector{Source: src, Include: include, Exclude: exclude})
	}
	return m, diags
}

// methodSource returns the source of one method, or nil (with a diagnostic
// when the method is invalid).
func methodSource(method *cliconfig.InstallationMethod, opts BuildOptions) (Source, *hcl.Diagnostic) {
	switch method.Kind {
	case cliconfig.MethodDirect:
		return NewMemoize(NewRegistry(opts.Registry, opts.Getenv, method.DownloadRetryCount)), nil
	case cliconfig.MethodFilesystemMirror:
		return NewFilesystemMirror(method.Location), nil
	case cliconfig.MethodNetworkMirror:
		u, err := ParseNetworkMirrorURL(method.Location)
		if err != nil {
			return nil, errorDiag("Invalid URL for provider installation source", err.Error())
		}
		mo := NetworkMirrorOptions{TrustAllHashes: method.TrustAllHashes, DownloadRetries: method.DownloadRetryCount}
		if opts.Registry != nil {
			mo.Settings, mo.Credentials = opts.Registry.Settings(), opts.Registry.Credentials()
		}
		return NewNetworkMirror(u, mo), nil
	case cliconfig.MethodOCIMirror:
		m := NewOCIMirror(method.OCIRepository, ociClients(opts))
		if opts.Registry != nil {
			m.Idle = opts.Registry.Settings().DownloadIdleTimeout()
		}
		return m, nil
	}
	return nil, nil
}

// RegistrySettings fills the parts of registry settings that come from the
// CLI configuration: host blocks, credentials blocks, a credentials helper
// and the registry_protocols values.
func RegistrySettings(cfg *cliconfig.Config, base registry.Settings) registry.Settings {
	if cfg == nil {
		return base
	}
	retries := cfg.RegistryProtocols.RetryCount
	base.RetryCount = &retries
	base.RequestTimeout = cfg.RegistryProtocols.RequestTimeout
	base.HostServices = cfg.HostServices()
	base.Credentials = cfg.Tokens()
	base.CredentialsHelper = cfg.CredentialsHelperName()
	return base
}

func errorDiag(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
}
