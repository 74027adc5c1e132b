package workdir

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
)

// Texts of the backend step's errors.
const (
	errBackendClearSaved = "\nError clearing the backend configuration: %v\n\n" +
		"OpenTofu removes the saved backend configuration when you're removing a\n" +
		"configured backend. This must be done so future OpenTofu runs know to not\n" +
		"use the backend configuration. Please look at the error above, resolve it,\n" +
		"and try again."

	errBackendWriteSaved = "\nError saving the backend configuration: %v\n\n" +
		"OpenTofu saves the complete backend configuration in a local file for\n" +
		"configuring the backend on future operations. This cannot be disabled. Errors\n" +
		"are usually due to simple file permission errors. Please look at the error\n" +
		"above, resolve it, and try again."

	errBackendSavedUnknown = "The backend %q could not be found.\n\n" +
		"This is the backend that this OpenTofu environment is configured to use\n" +
		"both in your configuration and saved locally as your last-used backend.\n" +
		"If it isn't found, it could mean an alternate version of OpenTofu was\n" +
		"used with this configuration. Please use the proper version of OpenTofu that\n" +
		"contains support for this backend.\n\n" +
		"If you'd like to force remove this backend, you must update your configuration\n" +
		"to not use the backend and run \"tofu init\" (or any other command) again."
)

// rootOnce is the root module, loaded at most once.
type rootOnce struct {
	loaded bool
	root   *config.Module
}

// SetBackendRoot makes root the module the backend step reads (terraform
// init's backend reads its early load's module, errors or not).
func (r *Run) SetBackendRoot(root *config.Module) {
	r.backendRoot = &rootOnce{loaded: true, root: root}
}

// BackendRoot is the root module as the backend reads it, without test
// files (nil when it has errors); it is loaded once.
func (r *Run) BackendRoot() *config.Module {
	if r.backendRoot == nil {
		r.backendRoot = &rootOnce{}
	}
	if !r.backendRoot.loaded {
		root, diags := config.LoadDir(".", r.opts.configOptions(config.WithTestsDir(""))...)
		if !diags.HasErrors() {
			r.backendRoot.root = root
		}
		r.backendRoot.loaded = true
	}
	return r.backendRoot.root
}

// BackendConfigDiags are the problems both reference tools find with
// -backend-config before they decode the backend block: refused with a
// cloud block; a warning when the root module has no backend block.
// (With a block, backend.Configure checks the values against the
// backend's schema.) Nothing is checked with -backend=false, where the
// tools read the saved backend instead.
func (r *Run) BackendConfigDiags(o BackendOptions) hcl.Diagnostics {
	if len(o.Configs) == 0 || o.Disabled {
		return nil
	}
	root := r.BackendRoot()
	switch {
	case root == nil:
		// The configuration's errors are reported by the run itself.
		return nil
	case root.Cloud != nil && o.Cloud:
		kind := "cloud backend-based"
		if r.opts.Flavour == flavour.Terraform {
			kind = "HCP Terraform-based"
		}
		return hcl.Diagnostics{errorDiag("Invalid command-line option", "The -backend-config=... command line option is only for state backends, and is not applicable to "+kind+" configurations.\n\nTo change the set of workspaces associated with this configuration, edit the Cloud configuration block in the root module.")}
	case root.Backend == nil && root.Cloud == nil:
		return hcl.Diagnostics{missingBackendDiag()}
	}
	return nil
}

// BackendSectionDiags are the backend step's problems, reported once the
// modules are installed (those of -backend-config alone when the step
// did not run).
func (r *Run) BackendSectionDiags(o BackendOptions) hcl.Diagnostics {
	if r.backend == nil {
		return r.BackendConfigDiags(o)
	}
	return r.backend.Diags
}

// missingBackendDiag is the warning for -backend-config without a
// backend block (the same words in OpenTofu and Terraform).
func missingBackendDiag() *hcl.Diagnostic {
	return warningDiag("Missing backend configuration", `-backend-config was used without a "backend" block in the configuration.

If you intended to override the default local backend configuration,
no action is required, but you may add an explicit backend block to your
configuration to clear this warning:

terraform {
  backend "local" {}
}

However, if you intended to override a defined backend, please verify that
the backend configuration is present and valid.
`)
}
