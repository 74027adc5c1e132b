package cli

import (
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
)

// backendConfigDiags are the problems both reference tools find with
// -backend-config before they decode the backend block: refused with a
// cloud block; a warning when the root module has no backend block.
// (With a block, backend.Configure checks the values against the
// backend's schema.) Nothing is checked with -backend=false, where the
// tools read the saved backend instead.
func (r *initRun) backendConfigDiags() hcl.Diagnostics {
	o := r.opts
	if len(o.configs) == 0 || !o.backend {
		return nil
	}
	root := r.backendRoot()
	switch {
	case root == nil:
		// The configuration's errors are reported by the run itself.
		return nil
	case r.cloudRefusesBackendConfig():
		kind := "cloud backend-based"
		if r.m.Flavour == flavour.Terraform {
			kind = "HCP Terraform-based"
		}
		return hcl.Diagnostics{errorDiag("Invalid command-line option", "The -backend-config=... command line option is only for state backends, and is not applicable to "+kind+" configurations.\n\nTo change the set of workspaces associated with this configuration, edit the Cloud configuration block in the root module.")}
	case root.Backend == nil && root.Cloud == nil:
		return hcl.Diagnostics{missingBackendDiag()}
	}
	return nil
}

// backendSectionDiags are the backend section's problems, reported once
// the modules are installed.
func (r *initRun) backendSectionDiags() hcl.Diagnostics {
	if r.backend == nil {
		return r.backendConfigDiags()
	}
	return r.backend.diags
}

// requirementsStatePath is the state file whose providers init requires
// too: -state, else the selected workspace's state of the local backend
// in effect, else (with -backend-check) the remote state read, written
// to a temporary file that cleanup removes. With a remote backend not
// contacted, none.
func (r *initRun) requirementsStatePath() (path string, cleanup func()) {
	cleanup = func() {}
	switch {
	case r.opts.statePath != "":
		return r.opts.statePath, cleanup
	case r.backend == nil || r.backend.unconfigured:
		return defaultStatePath(r.m), cleanup
	case r.remoteState != nil:
		p, done, err := remoteStateFile(r.remoteState)
		if err != nil {
			done()
			return "", cleanup
		}
		return p, done
	}
	return r.statePath, cleanup
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

// afterBackendTerraform ends the backend's section as terraform init does
// when it stops on the backend's errors: with an empty line (and another
// after the modules' section, when modules were installed).
func (r *initRun) afterBackendTerraform() {
	if r.m.Flavour != flavour.Terraform {
		return
	}
	if !r.installedModules {
		r.view.Message("empty_line", "", false)
	}
	r.afterModulesTerraform()
}

// rootOnce is the root module, loaded at most once.
type rootOnce struct {
	loaded bool
	root   *config.Module
}

// backendRoot is the root module when -backend-config was given (nil
// without it, or when the root module has errors).
func (r *initRun) backendRoot() *config.Module {
	if len(r.opts.configs) == 0 || !r.opts.backend {
		return nil
	}
	return r.backendRootAlways()
}

// backendRootAlways is the root module as the backend reads it (nil when
// it has errors).
func (r *initRun) backendRootAlways() *config.Module {
	if r.rootForBackend == nil {
		r.rootForBackend = &rootOnce{}
	}
	if !r.rootForBackend.loaded {
		root, diags := config.LoadDir(".", r.m.configOptions(config.WithTestsDir(""))...)
		if !diags.HasErrors() {
			r.rootForBackend.root = root
		}
		r.rootForBackend.loaded = true
	}
	return r.rootForBackend.root
}

// cloudRefusesBackendConfig reports -backend-config given for a root
// module with a cloud block (and without -cloud=false), which both
// reference tools refuse in their cloud section, before any network.
func (r *initRun) cloudRefusesBackendConfig() bool {
	root := r.backendRoot()
	return root != nil && root.Cloud != nil && r.opts.cloud && r.opts.backend
}

// backendHeaderEvent prints the header of init's backend section: the
// cloud section's for a cloud block (OpenTofu: "Initializing cloud
// backend...", Terraform: "Initializing HCP Terraform..."), else the
// backend's.
func (r *initRun) backendHeaderEvent() {
	root := r.backendRootAlways()
	if root == nil || root.Cloud == nil || root.Backend != nil {
		r.view.Event("init_backend", "", "", initBackendText)
		return
	}
	text := "\n[reset][bold]Initializing cloud backend..."
	if r.m.Flavour == flavour.Terraform {
		text = "\n[reset][bold]Initializing HCP Terraform..."
	}
	r.view.Event("init_cloud", "", "", text)
}

// normalizePath makes path relative to the working directory, as both
// reference tools name the files given on their command line.
func normalizePath(getwd func() (string, error), path string) string {
	wd, err := getwd()
	if err != nil {
		return filepath.Clean(path)
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(wd, path)
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil {
		return filepath.Clean(path)
	}
	return rel
}
