package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/regfile"
)

// localBackendSchema is the configuration schema of the local backend
// (path, workspace_dir: optional strings), in OpenTofu and Terraform
// alike: the only backend whose schema tfdeps knows.
var localBackendSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "path"}, {Name: "workspace_dir"}}}

// backendConfigDiags are the problems both reference tools find with
// -backend-config before they touch the backend: a warning when the root
// module has no backend block; with one, the files that cannot be read
// or parsed and, for the local backend, the arguments it does not have.
// (tfdeps knows no other backend's schema: for those it checks files
// only.) A cloud block refuses -backend-config. Nothing is checked
// with -backend=false, where the tools read the saved backend instead.
func (r *initRun) backendConfigDiags() hcl.Diagnostics {
	o := r.opts
	if len(o.configs) == 0 || !o.backend {
		return nil
	}
	root := r.backendRoot()
	if root == nil {
		// The configuration's errors are reported by the run itself.
		return nil
	}
	switch {
	case r.cloudRefusesBackendConfig():
		kind := "cloud backend-based"
		if r.m.Flavour == flavour.Terraform {
			kind = "HCP Terraform-based"
		}
		return hcl.Diagnostics{errorDiag("Invalid command-line option", "The -backend-config=... command line option is only for state backends, and is not applicable to "+kind+" configurations.\n\nTo change the set of workspaces associated with this configuration, edit the Cloud configuration block in the root module.")}
	case root.Backend == nil:
		return hcl.Diagnostics{missingBackendDiag()}
	}
	var schema *hcl.BodySchema
	if root.Backend.Type == "local" {
		schema = localBackendSchema
	}
	keep := func(*hcl.File, string) {}
	if k, ok := r.view.(interface{ keepSource(*hcl.File, string) }); ok {
		keep = k.keepSource
	}
	return checkBackendConfigArgs(r.m.Getwd, o.configs, schema, keep)
}

// checkBackendConfigArgs checks each -backend-config value: a value
// with "=" is NAME=VALUE, one of the schema's attributes; any other is
// a file of arguments (HCL, or JSON when its name ends in .json) that
// must parse and fit the schema. A nil schema is unknown: only files
// are read and parsed. A single empty value clears the overrides. keep
// receives each file parsed, for the snippets of its diagnostics; file
// names are made relative to the working directory (getwd).
func checkBackendConfigArgs(getwd func() (string, error), values []string, schema *hcl.BodySchema, keep func(*hcl.File, string)) hcl.Diagnostics {
	if len(values) == 1 && values[0] == "" {
		return nil
	}
	var diags hcl.Diagnostics
	parser := hclparse.NewParser()
	for _, v := range values {
		name, _, isArg := strings.Cut(v, "=")
		if isArg {
			if schema != nil && !hasAttribute(schema, name) {
				diags = append(diags, errorDiag("Invalid backend configuration argument",
					fmt.Sprintf("The backend configuration argument %q given on the command line is not expected for the selected backend type.", name)))
			}
			continue
		}
		v = normalizePath(getwd, v)
		src, err := regfile.ReadFile(v)
		if err != nil {
			detail := fmt.Sprintf("The file %q could not be read.", v)
			if notRegular := (*regfile.NotRegularError)(nil); errors.As(err, &notRegular) {
				detail = notRegular.Detail(fmt.Sprintf("The file %q", v))
			}
			diags = append(diags, errorDiag("Failed to read file", detail))
			continue
		}
		var f *hcl.File
		var fileDiags hcl.Diagnostics
		if strings.HasSuffix(v, ".json") {
			f, fileDiags = parser.ParseJSON(src, v)
		} else {
			f, fileDiags = parser.ParseHCL(src, v)
		}
		if f != nil {
			keep(f, v)
		}
		diags = append(diags, fileDiags...)
		if fileDiags.HasErrors() || f == nil || f.Body == nil || schema == nil {
			continue
		}
		_, contentDiags := f.Body.Content(schema)
		diags = append(diags, contentDiags...)
	}
	return diags
}

func hasAttribute(schema *hcl.BodySchema, name string) bool {
	for _, a := range schema.Attributes {
		if a.Name == name {
			return true
		}
	}
	return false
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

// backendHeaderEvent prints the header of init's backend section: for a
// cloud block whose -backend-config init refuses, the cloud section's
// (OpenTofu: "Initializing cloud backend...", Terraform: "Initializing
// HCP Terraform..."); tfdeps otherwise prints the backend's whatever the
// block, as it does not initialise backends.
func (r *initRun) backendHeaderEvent() {
	if !r.cloudRefusesBackendConfig() {
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
