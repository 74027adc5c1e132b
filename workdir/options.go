package workdir

import (
	"net/http"
	"path/filepath"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/moduleinstall"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/registry"
)

// LockFileName is the dependency lock file of a working directory.
const LockFileName = ".terraform.lock.hcl"

// Options are the settings and effects of one initialisation.
//
// The working directory is Dir, or the process's current directory when
// Dir is "". Everything is read and written relative to it, and shown as
// from inside it: configuration paths in diagnostics ("main.tf"), module
// directories in modules.json and events (".terraform/modules/x"), the
// lock file, the data directory. So are the relative paths of these
// options and of BackendOptions — DataDir (TF_DATA_DIR), TestsDir,
// StatePath, PluginDirs (recorded in the data directory as given),
// -backend-config files, MemoDir, PackageLockDir, ModuleCacheDir, the CLI
// configuration's plugin cache directory — as they are for OpenTofu after
// -chdir=Dir. Variable values are read by the caller
// (config.CollectInputValues): give it VarSources{Dir: ".", FS:
// config.OSFileSystem{Root: Dir}} so that -var-file names and
// terraform.tfvars are found in Dir too. No current directory is changed,
// so initialisations of different directories may run at once in one
// process (each directory's own, by Lock, one at a time).
type Options struct {
	// Dir is the root module's directory ("" for the current directory).
	Dir string
	// Flavour is the product emulated (OpenTofu by default); Version its
	// version, which required_version constraints are checked against.
	Flavour flavour.Flavour
	Version string
	// DataDir is the data directory (TF_DATA_DIR; "" for .terraform).
	DataDir string
	// TestsDir is the directory of test files ("" for none).
	TestsDir string
	// Variables are the loader options carrying the root module's variable
	// values (-var, -var-file, tfvars files, TF_VAR_), and a prompt for
	// the missing ones where OpenTofu asks (config.WithVariables and
	// friends); they are passed to every load of the root module.
	Variables []config.Option
	// StatePath is the local state file whose resources' providers are
	// required too ("" for none).
	StatePath string
	// Upgrade ignores the lock file's selections and reinstalls every
	// module (init -upgrade, get -update); LockReadOnly refuses to change
	// the lock file (-lockfile=readonly); NoGet installs no module and
	// fails when one is missing (-get=false).
	Upgrade, LockReadOnly, NoGet bool

	// CLIConfig is the CLI configuration (nil: an empty one): plugin
	// cache, development overrides.
	CLIConfig *cliconfig.Config
	// Registry is the registry client (discovery, module and provider
	// registries, package downloads); its transport is shared by the
	// module getters unless HTTPClient is set.
	Registry *registry.Client
	// ModuleRegistry answers module registry sources (nil: Registry).
	ModuleRegistry moduleinstall.Registry
	// HTTPClient fetches http(s) and oci:// module packages (nil: one on
	// the registry client's transport).
	HTTPClient *http.Client
	// OCICredentials gives the credentials for oci:// module packages
	// (nil: those the CLI configuration's OCI credentials blocks and the
	// Docker-style auth files give, as OpenTofu finds them).
	OCICredentials moduleinstall.OCICredentials
	// PluginDirs are init's -plugin-dir values: the only places provider
	// packages come from (with Init, which records them in the data
	// directory, and builds Providers from them when it is nil).
	PluginDirs []string
	// Providers is the source of provider packages: registries, mirrors,
	// plugin directories (providersource.Build).
	Providers providerinstall.Source
	// Downloader fetches provider packages served over HTTP (nil: the
	// registry client), e.g. a providerinstall.SharedDownloader that
	// downloads each package once for many working directories.
	Downloader providerinstall.Downloader
	// Packages, when set, extracts each provider package once for many
	// working directories and links its files into each
	// (providerinstall.SharedPackages).
	Packages *providerinstall.SharedPackages
	// Platform is the target platform ("" for the running one).
	Platform string
	// Reattached are providers that are not installed (TF_REATTACH_PROVIDERS).
	Reattached map[addrs.Provider]bool
	// EnforceGPG records only signed hashes of registry.opentofu.org
	// providers (OPENTOFU_ENFORCE_GPG_VALIDATION, OpenTofu only).
	EnforceGPG bool
	// MemoDir and PackageLockDir are the installer's hash memo and
	// package-lock directories ("" for none).
	MemoDir, PackageLockDir string
	// ModuleCacheDir is the shared cache of module packages ("" for none);
	// ModuleParallelism bounds concurrent module fetches (0: the
	// installer's default; negative: one at a time).
	ModuleCacheDir    string
	ModuleParallelism int
}

// dataDir is the data directory, relative to the working directory
// unless absolute.
func (o *Options) dataDir() string {
	if o.DataDir != "" {
		return o.DataDir
	}
	return providerinstall.DefaultDataDir
}

// inDir is path p, relative to the working directory, as the operating
// system must be given it.
func (o *Options) inDir(p string) string {
	if o.Dir == "" || p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(o.Dir, p)
}

// fileSystem reads the configuration relative to the working directory.
func (o *Options) fileSystem() config.OSFileSystem { return config.OSFileSystem{Root: o.Dir} }

// ModulesDir is the data directory's modules directory.
func (o *Options) ModulesDir() string { return filepath.Join(o.dataDir(), "modules") }

// configOptions are the loader options every load passes: the flavour and
// its version, then extra.
func (o *Options) configOptions(extra ...config.Option) []config.Option {
	return append([]config.Option{config.WithFileSystem(o.fileSystem()), config.WithWorkingDir(o.Dir), config.WithTofuVersion(o.Version), config.WithFlavour(o.Flavour)}, extra...)
}

// lockReadOptions read the lock file as the flavour does.
func (o *Options) lockReadOptions() lockfile.ReadOptions {
	return lockfile.ReadOptions{Flavour: o.Flavour, TofuVersion: o.Version, Dir: o.Dir}
}

func (o *Options) cliConfig() *cliconfig.Config {
	if o.CLIConfig == nil {
		return &cliconfig.Config{}
	}
	return o.CLIConfig
}
