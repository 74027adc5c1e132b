package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
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
	root, diags := config.LoadDir(".", r.m.configOptions(config.WithTestsDir(""))...)
	if diags.HasErrors() || root == nil {
		// The configuration's errors are reported by the run itself.
		return nil
	}
	switch {
	case root.Cloud != nil && o.cloud:
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
	return checkBackendConfigArgs(o.configs, schema, keep)
}

// checkBackendConfigArgs checks each -backend-config value: a value
// with "=" is NAME=VALUE, one of the schema's attributes; any other is
// a file of arguments (HCL, or JSON when its name ends in .json) that
// must parse and fit the schema. A nil schema is unknown: only files
// are read and parsed. A single empty value clears the overrides. keep
// receives each file parsed, for the snippets of its diagnostics.
func checkBackendConfigArgs(values []string, schema *hcl.BodySchema, keep func(*hcl.File, string)) hcl.Diagnostics {
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
		src, err := os.ReadFile(v)
		if err != nil {
			diags = append(diags, errorDiag("Failed to read file", fmt.Sprintf("The file %q could not be read.", v)))
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
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Missing backend configuration", Detail: `-backend-config was used without a "backend" block in the configuration.

If you intended to override the default local backend configuration,
no action is required, but you may add an explicit backend block to your
configuration to clear this warning:

terraform {
  backend "local" {}
}

However, if you intended to override a defined backend, please verify that
the backend configuration is present and valid.
`}
}
