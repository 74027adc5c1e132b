package workdir

import (
	"context"
	"path/filepath"

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
	if _, err := manifest.Read(filepath.Join(r.opts.ModulesDir(), manifest.FileName)); err != nil {
		// tofu's configuration loader fails on it, reported twice.
		msg := "failed to read module manifest: " + err.Error()
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
// installer reports.
func (r *Run) terraformGet(ctx context.Context) (diags hcl.Diagnostics, failed bool) {
	root, diags := r.LoadRoot()
	if diags.HasErrors() && root != nil && onlyTestFileErrors(diags) && HasModuleCalls(root) {
		// terraform get loads the root module without its test files
		// before installing: its installer installs the modules and
		// reports the test files' errors with its own.
		return r.installModules(ctx, root, diags, true), true
	}
	if diags.HasErrors() {
		if !onlyTestFileErrors(diags) {
			// Errors in the root module's own files stop terraform get
			// before it reads the test files.
			diags = withoutTestFileDiags(diags)
		}
		return diags, true
	}
	if d := root.CheckTerraformCore(r.opts.Version, "", ""); d.HasErrors() {
		// terraform get checks the root module's required_version first.
		return d, true
	}
	// Without module calls, terraform get too writes the manifest of the
	// root module alone.
	return append(diags, r.installModules(ctx, root, nil, true)...), false
}
