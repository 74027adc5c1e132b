package providermirror

import (
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

// ModuleOptions say how ReadModule reads a root module.
type ModuleOptions struct {
	// Config are the options the configuration is read with (flavour,
	// emulated version, variable values).
	Config []config.Option
	// LockFile are the options the lock file is read with.
	LockFile lockfile.ReadOptions
	// Flavour is the product emulated: OpenTofu rewrites the lock file's
	// registry.terraform.io entries, Terraform keeps them; which providers
	// are legacy differs.
	Flavour flavour.Flavour
	// Platforms are the platforms to mirror.
	Platforms []addrs.Platform
	// Diagnostics are problems found before (with the arguments, say),
	// reported with the module's own.
	Diagnostics hcl.Diagnostics
}

// ReadModule reads what "providers mirror" mirrors for the root module in
// dir: the configuration's provider requirements (legacy providers left
// out) and the lock file's selections. It returns the configuration read
// (nil when unreadable; diagnostics quote its files) and every diagnostic.
// The Request is nil when errors stop the command before anything is
// mirrored; a lock file inconsistent with the configuration is an error
// that does not, as OpenTofu mirrors all the same.
func ReadModule(dir string, o ModuleOptions) (*Request, *requirements.Result, hcl.Diagnostics) {
	diags := append(hcl.Diagnostics{}, o.Diagnostics...)
	res, cfgDiags := requirements.Load(dir, requirements.Options{Config: o.Config})
	diags = append(diags, cfgDiags...)
	locks, _, lockDiags := lockfile.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"), o.LockFile)
	diags = append(diags, lockDiags...)
	if !lockDiags.HasErrors() && o.Flavour != flavour.Terraform {
		diags = append(diags, locks.MigrateTerraformRegistry()...)
	}
	if diags.HasErrors() {
		return nil, res, diags
	}
	req := &Request{Requirements: lockableRequirements(o.Flavour, res), Platforms: o.Platforms, Locked: map[addrs.Provider]versions.Version{}}
	diags = append(diags, consistency(o.Flavour, req.Requirements, locks)...)
	for _, l := range locks.Providers() {
		req.Locked[l.Provider()] = l.Version()
	}
	return req, res, diags
}

// Diagnostics are problems as error diagnostics.
func Diagnostics(problems []Problem) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, pr := range problems {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: pr.Summary, Detail: pr.Detail})
	}
	return diags
}

// lockableRequirements are the configuration's requirements without
// legacy providers (built-in ones are skipped with a message).
func lockableRequirements(fl flavour.Flavour, res *requirements.Result) map[addrs.Provider]versions.Constraints {
	out := map[addrs.Provider]versions.Constraints{}
	if res == nil {
		return out
	}
	for p, c := range res.Providers {
		if !p.IsLegacyIn(fl) {
			out[p] = c
		}
	}
	return out
}

// consistency is OpenTofu's check of the configuration against a
// non-empty lock file; processing continues after it.
func consistency(f flavour.Flavour, reqs map[addrs.Provider]versions.Constraints, locks *lockfile.Locks) hcl.Diagnostics {
	if locks.Len() == 0 {
		return nil
	}
	errs := lockfile.InconsistencyErrors(lockfile.Requirements(reqs), locks, lockfile.ConsistencyOptions{Flavour: f})
	if len(errs) == 0 {
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Inconsistent dependency lock file", Detail: fmt.Sprintf(
		"To update the locked dependency selections to match a changed configuration, run:\n  %s init -upgrade\n got:%v", f.Command(), errs)}}
}
