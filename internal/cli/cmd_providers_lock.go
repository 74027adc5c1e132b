package cli

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/providerlock"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/requirements"
	"github.com/tfdeps/tfdeps/versions"
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
	defer closeLockView(view)
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
	view      lockView
}

func newLockRun(m *Meta, o providersLockOptions, cfg *cliconfig.Config, view lockView) *lockRun {
	r := &lockRun{m: m, opts: o, view: view}
	r.platforms, r.diags = parsePlatformFlags(m, o.platforms)
	client := limitedRegistryClient(m, cfg, o.parallelism)
	src, d := lockSource(m, o, client)
	if d != nil {
		r.diags = append(r.diags, d)
	}
	if o.recursive && src != nil {
		src = providersource.NewMemoize(src)
	}
	r.locker = &providerlock.Locker{
		Source: src, Client: client, Parallelism: o.parallelism,
		DownloadAll: o.downloadAll, Getenv: m.Getenv, Flavour: m.Flavour,
		TrustMirrorHashes: o.netMirror != "" && trustsMirror(cfg, o.netMirror),
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

// lockSource is exactly one source: the named mirror, else the origin
// registries; provider_installation is ignored.
func lockSource(m *Meta, o providersLockOptions, client *registry.Client) (providersource.Source, *hcl.Diagnostic) {
	switch {
	case o.fsMirror != "":
		return providersource.NewFilesystemMirror(o.fsMirror), nil
	case o.netMirror != "":
		u, err := url.Parse(o.netMirror)
		if err != nil || u.Scheme != "https" {
			return nil, errorDiag("Invalid network mirror URL", "The -net-mirror option requires a valid https: URL as the mirror base URL.")
		}
		return providersource.NewNetworkMirror(u, providersource.NetworkMirrorOptions{Settings: client.Settings(), Credentials: client.Credentials()}), nil
	}
	return providersource.NewRegistry(client, m.Getenv, nil), nil
}

// trustsMirror reports whether the CLI configuration's provider_installation
// has a network_mirror block for the mirror at raw with trust_all_hashes =
// true: the user's statement that the mirror's hashes are true. (OpenTofu's
// providers lock ignores the block; tfdeps takes it as the permission to
// skip the downloads that would check the hashes.)
func trustsMirror(cfg *cliconfig.Config, raw string) bool {
	want, ok := mirrorKey(raw)
	if !ok {
		return false
	}
	inst := cfg.Installation()
	if inst == nil {
		return false
	}
	for _, method := range inst.Methods {
		if method.Kind != cliconfig.MethodNetworkMirror || !method.TrustAllHashes {
			continue
		}
		if got, ok := mirrorKey(method.Location); ok && got == want {
			return true
		}
	}
	return false
}

// mirrorKey is a network mirror base URL in a form in which two spellings of
// the same mirror are equal: https only, host in lower case without the
// default port, path with its trailing slash.
func mirrorKey(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil {
		return "", false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Host), ":443")
	p := u.EscapedPath()
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return host + p + "?" + u.RawQuery, true
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

// lockDir locks the root module in dir.
func (r *lockRun) lockDir(ctx context.Context, dir string) int {
	reqs, res, diags := r.requirements(dir)
	lockPath := filepath.Join(dir, lockFileName)
	var locks *lockfile.Locks
	if !diags.HasErrors() {
		var lockDiags hcl.Diagnostics
		locks, _, lockDiags = lockfile.ReadFile(lockPath, r.m.lockReadOptions())
		diags = append(diags, lockDiags...)
		if !lockDiags.HasErrors() {
			diags = append(diags, r.m.migrateLocks(locks)...)
		}
	}
	if diags.HasErrors() {
		r.printDiags(diags, res)
		return 1
	}
	result := r.locker.Collect(ctx, reqs, locks, r.platforms, r.events())
	if failed := result.Failed(); failed != nil {
		diags = append(diags, errorDiag("Could not retrieve providers for locking", fmt.Sprintf(
			"OpenTofu failed to fetch the requested providers for %s in order to calculate their checksums: %s.", failed.Platform, failed.Err)))
		r.printDiags(diags, res)
		return 1
	}
	newLocks, lines, changed := providerlock.Merge(locks, reqs, result)
	r.view.Obtained(lines)
	diags = append(diags, lockfile.WriteFile(lockPath, newLocks, r.m.Flavour)...)
	r.printDiags(diags, res)
	if diags.HasErrors() {
		return 1
	}
	r.view.Success(changed)
	return 0
}

// requirements loads dir's configuration (no test files, no state) and
// returns its lockable requirements, narrowed to the provider arguments.
func (r *lockRun) requirements(dir string) (providerlock.Requirements, *requirements.Result, hcl.Diagnostics) {
	fl := r.m.Flavour
	diags := append(hcl.Diagnostics{}, r.diags...)
	res, cfgDiags := requirements.Load(dir, requirements.Options{Config: r.m.configOptions(r.opts.configOpts...)})
	diags = append(diags, cfgDiags...)
	all := map[addrs.Provider]versions.Constraints{}
	if res != nil {
		all = res.Providers
	}
	reqs := providerlock.Requirements{}
	for p, c := range all {
		reqs[p] = c
	}
	if len(r.opts.providerArgs) > 0 {
		reqs = providerlock.Requirements{}
		for _, raw := range r.opts.providerArgs {
			p, d := addrs.ParseProviderSourceDiags(raw, nil)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			p, _ = addrs.ParseProviderSourceIn(r.m.Flavour, raw)
			c, ok := all[p]
			if !ok {
				diags = append(diags, errorDiag("Invalid provider argument", fmt.Sprintf("The provider %s is not required by the current configuration.", p)))
				continue
			}
			reqs[p] = c
		}
	}
	for p := range reqs {
		if p.IsBuiltIn() || p.IsLegacyIn(fl) {
			delete(reqs, p)
		}
	}
	return reqs, res, diags
}

// events passes the locker's progress to the view.
func (r *lockRun) events() *providerlock.Events {
	return lockLiveEvents(r.m, r.view)
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
