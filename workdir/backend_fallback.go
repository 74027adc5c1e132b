package workdir

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/tfdeps/tfdeps/flavour"
)

// builtinBackendTypes are the backend types each flavour builds in. A
// type here whose schema the backend package does not know yet is not
// configured by tfdeps: init prints the section's header, checks the
// -backend-config files and records nothing, as before tfdeps configured
// backends (the reference tool's first plan then asks for init).
var builtinBackendTypes = map[flavour.Flavour][]string{
	flavour.OpenTofu:  {"azurerm", "consul", "cos", "gcs", "http", "inmem", "kubernetes", "local", "oss", "pg", "remote", "s3"},
	flavour.Terraform: {"azurerm", "consul", "cos", "gcs", "http", "inmem", "kubernetes", "local", "oci", "oss", "pg", "remote", "s3"},
}

// schemaUnknown reports a built-in backend type whose schema tfdeps does
// not know.
func schemaUnknown(f flavour.Flavour, typ string) bool {
	for _, t := range builtinBackendTypes[f] {
		if t == typ {
			return true
		}
	}
	return false
}

// checkBackendConfigFiles checks the -backend-config values for a backend
// whose schema tfdeps does not know: each value without "=" is a file of
// arguments (HCL, or JSON when its name ends in .json) that must be
// readable and parse; NAME=VALUE pairs cannot be checked. A single empty
// value clears the overrides. keep receives each file parsed, for the
// snippets of its diagnostics; file names are made relative to the
// working directory (getwd).
func checkBackendConfigFiles(getwd func() (string, error), values []string, keep func(*hcl.File, string)) hcl.Diagnostics {
	if len(values) == 1 && values[0] == "" {
		return nil
	}
	var diags hcl.Diagnostics
	parser := hclparse.NewParser()
	for _, v := range values {
		if strings.Contains(v, "=") {
			continue
		}
		v = normalizePath(getwd, v)
		src, err := readBounded(v, 16<<20)
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
	}
	return diags
}

// normalizePath makes path relative to the working directory, as both
// reference tools name the files given on their command line.
func normalizePath(getwd func() (string, error), path string) string {
	if getwd == nil {
		return filepath.Clean(path)
	}
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
