package workdir

import (
	"context"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
)

// PrepareGet is what tofu get does before it reads the variable values:
// it makes the modules directory and reads the manifest, whatever the
// configuration.
func (r *Run) PrepareGet() hcl.Diagnostics {
	if err := r.MakeModulesDir(); err != nil {
		return hcl.Diagnostics{errorDiag("Failed to create local modules directory", err.Error())}
	}
	if _, err := manifest.Read(r.opts.inDir(r.manifestPath())); err != nil {
		// tofu's configuration loader fails on it, reported twice.
		msg := "failed to read module manifest: " + r.opts.relErr(err).Error()
		return hcl.Diagnostics{errorDiag("Failed to create the config loader", msg), errorDiag(msg, "")}
	}
	return nil
}

// Get installs the modules the configuration calls, as "tofu get" (or
// "terraform get", in the Terraform flavour) does, reporting
// Events.Modules; Options.Upgrade is get -update. OpenTofu installs the
// calls of the root module even when it has errors (they are reported,
// and get fails, but modules.json is written unless installing failed);
// without module calls it writes a manifest of the root module alone.
// Terraform stops on a root module with errors, and on its
// required_version. The error is nil or ErrFailed.
func (r *Run) Get(ctx context.Context) (hcl.Diagnostics, error) {
	var diags hcl.Diagnostics
	failed := false
	if r.opts.Flavour == flavour.Terraform {
		diags, failed = r.terraformGet(ctx)
	} else {
		diags = r.tofuGet(ctx)
	}
	if failed || diags.HasErrors() {
		return diags, ErrFailed
	}
	return diags, nil
}

func (r *Run) tofuGet(ctx context.Context) hcl.Diagnostics {
	root, diags := config.LoadDir(".", r.rootOptions()...)
	if root == nil {
		return diags
	}
	return r.installModules(ctx, root, diags, true)
}

// terraformGet is terraform get; failed is set where it fails whatever the
// installer reports. Terraform first loads the root module alone (its own
// files' errors stop it there), then its installer loads it with its test
// files, checks required_version, reads the const variables' values (one
// missing stops it before any module is installed, reported with the test
// files' diagnostics) and only then evaluates the module sources.
func (r *Run) terraformGet(ctx context.Context) (diags hcl.Diagnostics, failed bool) {
	if _, err := manifest.Read(r.opts.inDir(r.manifestPath())); err != nil {
		return hcl.Diagnostics{errorDiag("failed to read module manifest: "+r.opts.relErr(err).Error(), "")}, true
	}
	root, diags := config.LoadDir(".", r.rootOptions()...)
	if root == nil {
		return diags, true
	}
	static := root.StaticDiagnostics()
	diags = WithoutStaticDiags(root, diags)
	if diags.HasErrors() && !onlyTestFileErrors(diags) {
		// Errors in the root module's own files stop terraform get
		// before it reads the test files.
		return withoutTestFileDiags(diags), true
	}
	if d := root.CheckTerraformCore(r.opts.Version, "", ""); d.HasErrors() {
		// terraform get checks the root module's required_version first.
		return d, true
	}
	if d := root.MissingConstVariables(); d.HasErrors() {
		return append(diags, d...), true
	}
	diags = append(diags, static...)
	if diags.HasErrors() {
		if HasModuleCalls(root) {
			// terraform get's installer installs the modules it can
			// and reports these errors with its own.
			return r.installModules(ctx, root, diags, true), true
		}
		return diags, true
	}
	// Without module calls, terraform get too writes the manifest of the
	// root module alone.
	return append(diags, r.installModules(ctx, root, nil, true)...), false
}
