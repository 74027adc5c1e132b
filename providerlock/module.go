package providerlock

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/requirements"
	"github.com/tfdeps/tfdeps/versions"
)

// LockFileName is the dependency lock file's name in a root module.
const LockFileName = ".terraform.lock.hcl"

// ModuleOptions say how LockModule reads a root module and what it locks.
type ModuleOptions struct {
	// Config are the options the configuration is read with (flavour,
	// emulated version, variable values).
	Config []config.Option
	// LockFile are the options the lock file is read with.
	LockFile lockfile.ReadOptions
	// Providers, when not empty, are the provider source addresses to
	// lock, as the user gave them; the other entries are kept as they are.
	// Each must be required by the configuration.
	Providers []string
	// Platforms are the platforms whose hashes are collected.
	Platforms []addrs.Platform
	// Diagnostics are problems found before (with the arguments, say):
	// reported with the module's own, and an error among them stops the
	// module before anything is fetched.
	Diagnostics hcl.Diagnostics
}

// ModuleResult is what LockModule did in one root module.
type ModuleResult struct {
	// Config is the configuration read, whose files diagnostics quote
	// snippets from; nil when it could not be read.
	Config *requirements.Result
	// Merged is set when the hashes were collected and merged into the
	// locks: Obtained then holds the "Obtained … checksums" lines and
	// Changed whether the locks changed.
	Merged   bool
	Obtained []Obtained
	Changed  bool
	// Diagnostics are every problem, in the order found, the arguments'
	// first.
	Diagnostics hcl.Diagnostics
}

// Written reports whether the lock file was written.
func (r *ModuleResult) Written() bool { return r.Merged && !r.Diagnostics.HasErrors() }

// LockModule does "providers lock" in the root module in dir: it reads
// the configuration's provider requirements (narrowed to o.Providers) and
// the lock file, collects the hashes for o.Platforms (ev gets the
// progress, as from Collect), merges them into the locks and writes the
// lock file, atomically. It stops at the first step with errors; nothing
// is written then.
func (l *Locker) LockModule(ctx context.Context, dir string, o ModuleOptions, ev *Events) ModuleResult {
	var res ModuleResult
	reqs, cfg, diags := l.moduleRequirements(dir, o)
	res.Config = cfg
	lockPath := filepath.Join(dir, LockFileName)
	var locks *lockfile.Locks
	if !diags.HasErrors() {
		var lockDiags hcl.Diagnostics
		locks, _, lockDiags = lockfile.ReadFile(lockPath, o.LockFile)
		diags = append(diags, lockDiags...)
		if !lockDiags.HasErrors() && l.Flavour != flavour.Terraform {
			// OpenTofu rewrites registry.terraform.io entries to
			// registry.opentofu.org; Terraform keeps them.
			diags = append(diags, locks.MigrateTerraformRegistry()...)
		}
	}
	if diags.HasErrors() {
		res.Diagnostics = diags
		return res
	}
	collected := l.Collect(ctx, reqs, locks, o.Platforms, ev)
	if failed := collected.Failed(); failed != nil {
		res.Diagnostics = append(diags, errorDiag("Could not retrieve providers for locking", fmt.Sprintf(
			"%s failed to fetch the requested providers for %s in order to calculate their checksums: %s.", l.Flavour.Product(), failed.Platform, failed.Err)))
		return res
	}
	newLocks, lines, changed := Merge(locks, reqs, collected)
	res.Merged, res.Obtained, res.Changed = true, lines, changed
	res.Diagnostics = append(diags, lockfile.WriteFile(lockPath, newLocks, l.Flavour)...)
	return res
}

// moduleRequirements loads dir's configuration (no test files, no state)
// and returns its lockable requirements, narrowed to o.Providers.
func (l *Locker) moduleRequirements(dir string, o ModuleOptions) (Requirements, *requirements.Result, hcl.Diagnostics) {
	fl := l.Flavour
	diags := append(hcl.Diagnostics{}, o.Diagnostics...)
	res, cfgDiags := requirements.Load(dir, requirements.Options{Config: o.Config})
	diags = append(diags, cfgDiags...)
	all := map[addrs.Provider]versions.Constraints{}
	if res != nil {
		all = res.Providers
	}
	reqs := Requirements{}
	for p, c := range all {
		reqs[p] = c
	}
	if len(o.Providers) > 0 {
		reqs = Requirements{}
		for _, raw := range o.Providers {
			p, d := addrs.ParseProviderSourceDiags(raw, nil)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			p, _ = addrs.ParseProviderSourceIn(fl, raw)
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

func errorDiag(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
}
