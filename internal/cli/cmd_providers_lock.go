package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/internal/lockview"
	"github.com/tfdeps/tfdeps/providerlock"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/requirements"
)

const providersLockUsage = `
Usage: tfdeps [global options] providers lock [options] [providers...]

  Records in .terraform.lock.hcl the checksums of the providers this
  configuration requires, for every platform named with -platform, so that
  "tfdeps init" or "tofu init" on any of those platforms can verify what it
  installs. "init" records only the checksums it can prove for the machine
  it runs on; this command fills in the rest.

  Packages come from each provider's origin registry, whatever the CLI
  configuration's installation methods say, or from the one mirror named
  with -fs-mirror or -net-mirror. Checksums that the registry publishes and
  signs are taken without downloading; others are computed once and kept
  in a hash cache shared by every root module on this machine.

  Without arguments every provider of the configuration is locked; name
  provider source addresses to lock only those.

Options:

  -fs-mirror=dir      Consult the given filesystem mirror directory instead
                      of the origin registry for each of the given providers.

  -net-mirror=url     Consult the given network mirror (given as a base URL)
                      instead of the origin registry for each of the given
                      providers. -fs-mirror and -net-mirror are mutually
                      exclusive. Each package is downloaded to check the
                      mirror's checksums, unless the CLI configuration has
                      a network_mirror block with this url and
                      trust_all_hashes = true: then the checksums the
                      mirror lists for each platform are taken as they are.

  -oci-mirror         Lock from the CLI configuration's oci_mirror methods
                      (OpenTofu ignores them here): every platform's zh:
                      from the manifests, h1: by downloading this
                      platform's package (or from the hash cache).

  -platform=os_arch   Choose a target platform to request package checksums
                      for. May be repeated; default: the current platform.

  -parallelism=N      At most N concurrent requests per host, and N packages
                      handled at once (default 4).

  -recursive          Lock every root module at or below the current
                      directory, sharing downloads and hashes between them.

  -no-hash-cache      Neither read nor write the persistent hash cache
                      (TFDEPS_HASH_CACHE_DIR, default: the user cache
                      directory).

  -download-all       Download and hash every package, as OpenTofu does,
                      instead of using the hash cache or registry-reported
                      hashes.

  -json               Print OpenTofu's machine-readable output: one JSON
                      object per line, as "tofu providers lock -json".
                      Not in the Terraform flavour (terraform has no -json
                      here and refuses it).

  -json-into=FILE     Print the usual lines, and write the lines -json
                      would print into FILE. Not in the Terraform flavour.
`

// providersLockOptions are the flags of "tfdeps providers lock".
type providersLockOptions struct {
	platforms    []string
	fsMirror     string
	netMirror    string
	ociMirror    bool
	parallelism  int
	recursive    bool
	noHashCache  bool
	downloadAll  bool
	providerArgs []string
	// json selects OpenTofu's machine-readable UI on stdout (-json).
	json bool
	// configOpts carry the root module's variable values (vars.go).
	configOpts []config.Option
}

// runProvidersLock implements "tfdeps providers lock".
func runProvidersLock(m *Meta, args []string) int {
	var o providersLockOptions
	fs := newFlagSet(m, "providers lock", providersLockUsage)
	fs.Var((*stringList)(&o.platforms), "platform", "")
	fs.StringVar(&o.fsMirror, "fs-mirror", "", "")
	fs.StringVar(&o.netMirror, "net-mirror", "", "")
	fs.BoolVar(&o.ociMirror, "oci-mirror", false, "")
	fs.IntVar(&o.parallelism, "parallelism", providerlock.DefaultParallelism, "")
	fs.BoolVar(&o.recursive, "recursive", false, "")
	fs.BoolVar(&o.noHashCache, "no-hash-cache", false, "")
	fs.BoolVar(&o.downloadAll, "download-all", false, "")
	vars := addVarFlags(m, fs)
	jf := addJSONFlags(m, fs)
	if code, ok := jf.parse(m, fs, args); !ok {
		return code
	}
	o.json = jf.json
	// As tofu, the CLI configuration's problems come first, before the
	// JSON view's version line.
	cfg := loadCLIConfig(m, m.cliConfigOptions())
	if code, ok := jf.open(m, fs); !ok {
		return code
	}
	defer jf.close()
	view := newLockView(m, jf)
	defer lockview.Close(view)
	var varDiags hcl.Diagnostics
	if o.configOpts, varDiags = vars.configOptions(m); varDiags.HasErrors() {
		view.Diagnostics(varDiags, vars.files)
		return 1
	}
	o.providerArgs = fs.Args()
	o.parallelism = max(o.parallelism, 1)
	if o.fsMirror != "" && o.netMirror != "" {
		view.Diagnostics(hcl.Diagnostics{errorDiag("Invalid installation method options",
			"The -fs-mirror and -net-mirror command line options are mutually-exclusive.")}, nil)
		if !o.json {
			// In JSON mode tofu leaves out the pointer to the help text.
			fmt.Fprintf(m.Stderr, "For more help on using this command, run:\n  tfdeps %s -help\n", fs.Name())
		}
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return newLockRun(m, o, cfg, view).run(ctx)
}

// lockRun is one execution of providers lock.
type lockRun struct {
	m         *Meta
	opts      providersLockOptions
	platforms []addrs.Platform
	diags     hcl.Diagnostics // argument problems, reported with the others
	locker    *providerlock.Locker
	view      lockview.View
}

func newLockRun(m *Meta, o providersLockOptions, cfg *cliconfig.Config, view lockview.View) *lockRun {
	r := &lockRun{m: m, opts: o, view: view}
	r.platforms, r.diags = parsePlatformFlags(m, o.platforms)
	client := limitedRegistryClient(m, cfg, o.parallelism)
	src, d := providerlock.NewSource(providerlock.SourceOptions{FSMirror: o.fsMirror, NetMirror: o.netMirror, Getenv: m.Getenv, OCIMirror: o.ociMirror, Config: cfg}, client)
	if d != nil {
		r.diags = append(r.diags, d)
	}
	if o.recursive && src != nil {
		src = providersource.NewMemoize(src)
	}
	r.locker = &providerlock.Locker{
		Source: src, Client: client, Parallelism: o.parallelism,
		DownloadAll: o.downloadAll, Getenv: m.Getenv, Flavour: m.Flavour,
		TrustMirrorHashes: o.netMirror != "" && providerlock.TrustsMirror(cfg, o.netMirror),
	}
	if dir := providerlock.DefaultHashCacheDir(m.Getenv, os.UserCacheDir); dir != "" && !o.noHashCache {
		r.locker.Cache = providerlock.NewHashCache(dir)
	}
	return r
}

// parsePlatformFlags parses -platform values; none means this platform.
func parsePlatformFlags(m *Meta, values []string) ([]addrs.Platform, hcl.Diagnostics) {
	if len(values) == 0 {
		values = []string{m.Platform}
	}
	var out []addrs.Platform
	var diags hcl.Diagnostics
	for _, s := range values {
		p, err := addrs.ParsePlatform(s)
		if err != nil {
			diags = append(diags, errorDiag("Invalid target platform", fmt.Sprintf(
				"The string %q given in the -platform option is not a valid target platform: %s.", s, err)))
			continue
		}
		out = append(out, p)
	}
	return out, diags
}

// limitedRegistryClient is the registry client with at most n concurrent
// requests per host.
func limitedRegistryClient(m *Meta, cfg *cliconfig.Config, n int) *registry.Client {
	base := m.registrySettings()
	base.Transport = providerlock.LimitHosts(registry.NewTransport(), n)
	return registry.New(providersource.RegistrySettings(cfg, base))
}

func (r *lockRun) run(ctx context.Context) int {
	if !r.opts.recursive {
		return r.lockDir(ctx, ".")
	}
	roots, err := providerlock.FindRootModules(".")
	if err == nil && len(roots) == 0 {
		err = fmt.Errorf("no directory at or below the current one holds configuration files with a lock file or a required_providers block")
	}
	if err != nil {
		r.printDiags(hcl.Diagnostics{errorDiag("No root modules found", err.Error()+".")}, nil)
		return 1
	}
	code := 0
	for _, dir := range roots {
		r.view.RootModule(dir)
		if c := r.lockDir(ctx, dir); c != 0 {
			code = c
		}
	}
	return code
}

// lockDir locks the root module in dir and shows what it did.
func (r *lockRun) lockDir(ctx context.Context, dir string) int {
	res := r.locker.LockModule(ctx, dir, providerlock.ModuleOptions{
		Config:      r.m.configOptions(r.opts.configOpts...),
		LockFile:    r.m.lockReadOptions(),
		Providers:   r.opts.providerArgs,
		Platforms:   r.platforms,
		Diagnostics: r.diags,
	}, lockview.Events(r.view, r.m.Flavour))
	if res.Merged {
		r.view.Obtained(res.Obtained)
	}
	r.printDiags(res.Diagnostics, res.Config)
	if !res.Written() {
		return 1
	}
	r.view.Success(res.Changed)
	return 0
}

// printDiags prints diagnostics with source snippets from the module tree
// and the lock file, one extra newline after each.
func (r *lockRun) printDiags(diags hcl.Diagnostics, res *requirements.Result) {
	if len(diags) == 0 {
		return
	}
	var tree *config.Tree
	if res != nil {
		tree = res.Tree
	}
	r.view.Diagnostics(diags, treeFiles(tree))
}
