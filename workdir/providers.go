package workdir

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/requirements"
	"github.com/tfdeps/tfdeps/versions"
)

// ErrFailed reports a step that failed: its diagnostics say why.
var ErrFailed = errors.New("initialisation failed")

// ErrUpgradeReadOnly reports -upgrade with a read-only lock file, which
// cannot both hold: nothing was installed.
var ErrUpgradeReadOnly = errors.New("the lock file is read-only and cannot be upgraded")

// ProvidersResult is what the provider step did.
type ProvidersResult struct {
	// Locks are the selections after installing.
	Locks *lockfile.Locks
	// LockFile is what became of the lock file.
	LockFile LockFileChange
}

// InstallProviders is the provider step: it reads the lock file, checks
// the required providers' addresses, installs the providers reqs requires
// (from the lock file's selections unless Options.Upgrade), and writes the
// lock file when the selections changed (unless it is read-only). diags
// are the diagnostics so far, returned first. The error is nil when init
// succeeded (the diagnostics may still hold warnings), ctx's error when
// it was interrupted, ErrUpgradeReadOnly, or ErrFailed.
func (r *Run) InstallProviders(ctx context.Context, reqs *requirements.Result, diags hcl.Diagnostics) (*ProvidersResult, hcl.Diagnostics, error) {
	o := &r.opts
	// tofu's local backend reads the lock file before provider
	// installation and fails with one error; the lock file's warnings
	// are shown as they are.
	locks, _, lockDiags := lockfile.ReadFile(LockFileName, o.lockReadOptions())
	if lockDiags.HasErrors() {
		return nil, append(diags, LockReadFailure(lockDiags)), ErrFailed
	}
	want := providerinstall.Requirements(reqs.Providers)
	if d := devOverridesDiag(o.Flavour, o.cliConfig().DevOverrides()); d != nil {
		diags = append(diags, d)
	}
	diags = append(diags, providerAddressDiags(o.Flavour, want)...)
	diags = append(diags, lockDiags...)
	if o.Flavour != flavour.Terraform {
		// OpenTofu rewrites registry.terraform.io entries it reads.
		diags = append(diags, locks.MigrateTerraformRegistry()...)
	}
	if diags.HasErrors() {
		return nil, diags, ErrFailed
	}
	if o.Upgrade && o.LockReadOnly {
		return nil, diags, ErrUpgradeReadOnly
	}
	in, err := NewInstaller(*o)
	if err != nil {
		return nil, append(diags, errorDiag("Invalid target platform", err.Error())), ErrFailed
	}
	mode := providerinstall.NewProvidersOnly
	if o.Upgrade {
		mode = providerinstall.Upgrade
	}
	var failures diagCollector
	suggest := &suggester{ctx: ctx, reqs: reqs, client: o.Registry, flavour: o.Flavour}
	res, err := in.Install(ctx, want, locks, mode, r.providerEvents(&failures, want, suggest))
	diags = append(diags, failures.all()...)
	if ctx.Err() != nil {
		return nil, diags, ctx.Err()
	}
	if err != nil {
		if !diags.HasErrors() {
			diags = append(diags, errorDiag(err.Error(), ""))
		}
		return nil, diags, ErrFailed
	}
	upd := lockUpdate{old: locks, new: res.Locks, readOnly: o.LockReadOnly, flavour: o.Flavour, events: r.events.LockFile, dir: o.Dir}
	if len(res.Incomplete) > 0 {
		upd.incomplete = incompleteLockDiag(o.Flavour, res.Incomplete, in.Platform.String())
	}
	change, updDiags, failed := upd.apply()
	diags = append(diags, updDiags...)
	if failed {
		return nil, diags, ErrFailed
	}
	return &ProvidersResult{Locks: res.Locks, LockFile: change}, diags, nil
}

// providerEvents are the caller's provider events with the failures
// turned into diagnostics (collected into failures).
func (r *Run) providerEvents(failures *diagCollector, want providerinstall.Requirements, s *suggester) *providerinstall.Events {
	var ev providerinstall.Events
	if r.events.Providers != nil {
		ev = *r.events.Providers
	}
	fl := r.opts.Flavour
	ev.BuiltInFailure = func(p addrs.Provider, err error) { failures.add(builtInDiag(fl, p, err)) }
	ev.QueryWarnings = func(p addrs.Provider, w []string) { failures.add(registryWarningsDiag(p, w)) }
	ev.QueryFailure = func(p addrs.Provider, err error) {
		if isCanceled(err) {
			return
		}
		// OpenTofu adds the inferred-provider warning before the error;
		// Terraform has no such warning.
		var unknown *registry.ProviderUnknownError
		if errors.As(err, &unknown) && fl != flavour.Terraform {
			failures.add(s.inferredDiag(p))
		}
		failures.add(queryFailureDiags(fl, p, err, s.suggestion)...)
	}
	ev.FetchFailure = func(p addrs.Provider, v versions.Version, err error) {
		if !isCanceled(err) {
			failures.add(FetchFailure(fl, p, v, err, want, r.opts.Version))
		}
	}
	ev.CacheLinkFailure = func(p addrs.Provider, v versions.Version, err error) {
		if !isCanceled(err) {
			failures.add(cacheLinkDiag(fl, p, v, err))
		}
	}
	return &ev
}

// NewInstaller is the provider installer of the working directory that o
// describes: its providers directory, its target platform, the plugin
// cache of the CLI configuration (relative paths relative to o.Dir).
func NewInstaller(o Options) (*providerinstall.Installer, error) {
	platform := addrs.CurrentPlatform()
	if o.Platform != "" {
		p, err := addrs.ParsePlatform(o.Platform)
		if err != nil {
			return nil, err
		}
		platform = p
	}
	cfg := o.cliConfig()
	in := &providerinstall.Installer{
		Source:                o.Providers,
		Target:                providerinstall.ProvidersDir(o.inDir(o.dataDir())),
		CacheMayBreakLockFile: cfg.PluginCacheMayBreakDependencyLockFile,
		Platform:              platform,
		Unmanaged:             o.Reattached,
		EnforceGPG:            o.EnforceGPG,
		MemoDir:               o.inDir(o.MemoDir),
		Flavour:               o.Flavour,
		LockDir:               o.inDir(o.PackageLockDir),
		Packages:              o.Packages,
	}
	if o.Downloader != nil {
		in.Downloader = o.Downloader
	} else if o.Registry != nil {
		in.Downloader = o.Registry
	}
	if cacheDir := o.inDir(cfg.PluginCacheDir); cacheDir != "" && !sameDir(cacheDir, in.Target.Base()) {
		cache := providerinstall.NewDir(cacheDir)
		in.Cache = &cache
	}
	return in, nil
}

func sameDir(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}
