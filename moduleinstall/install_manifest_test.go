package moduleinstall

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
)

// A failed installation writes modules.json for init (as tofu init does)
// and leaves it alone for get (InstallErrorsOnly, as tofu get does); in the
// Terraform flavour never (terraform init and get alike), though the
// modules directory is created.
func TestManifestAfterFailedInstall(t *testing.T) {
	for _, tc := range []struct {
		name      string
		noOnError bool
		flavour   flavour.Flavour
		wantFile  bool
	}{
		{"init", false, flavour.OpenTofu, true},
		{"get", true, flavour.OpenTofu, false},
		{"terraform init", false, flavour.Terraform, false},
		{"terraform get", true, flavour.Terraform, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			root := writeRoot(t, dir, map[string]string{
				"main.tf": "module \"reg\" {\n  source = \"example.com/acme/net/aws\"\n}\n",
			})
			inDir(t, dir, func() {
				// No registry: the registry module fails (M10).
				diags := Install(context.Background(), root, Options{InstallErrorsOnly: tc.noOnError, Flavour: tc.flavour, Parallelism: -1})
				if !diags.HasErrors() {
					t.Fatalf("install succeeded without a registry")
				}
				_, err := os.Stat(filepath.Join(".terraform", "modules", "modules.json"))
				if got := err == nil; got != tc.wantFile {
					t.Errorf("modules.json written = %v, want %v", got, tc.wantFile)
				}
				if info, err := os.Stat(filepath.Join(".terraform", "modules")); tc.flavour == flavour.Terraform && (err != nil || !info.IsDir()) {
					t.Errorf("modules directory missing after a failed terraform install: %v", err)
				}
			})
		})
	}
}

// In get's mode (InstallErrorsOnly) the root module's errors do not keep
// modules.json from being written, and the tree checks' errors become
// warnings, as tofu get (1.12.6) reports them; when installing fails, the
// checks do not run.
func TestInstallErrorsOnly(t *testing.T) {
	check := func(*config.Tree) hcl.Diagnostics {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "tree check"}}
	}
	rootErr := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "root error"}}
	for _, tc := range []struct {
		name         string
		source       string
		wantFile     bool
		wantSeverity map[string]hcl.DiagnosticSeverity
	}{
		{"installed", "./a", true, map[string]hcl.DiagnosticSeverity{"root error": hcl.DiagError, "tree check": hcl.DiagWarning}},
		{"install failed", "./missing", false, map[string]hcl.DiagnosticSeverity{"root error": hcl.DiagError, "Unreadable module directory": hcl.DiagError}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			root := writeRoot(t, dir, map[string]string{
				"main.tf":   "module \"a\" {\n  source = \"" + tc.source + "\"\n}\n",
				"a/main.tf": "",
			})
			inDir(t, dir, func() {
				diags := Install(context.Background(), root, Options{InstallErrorsOnly: true, TreeChecks: check, RootDiags: rootErr, Parallelism: -1, Events: &recorder{}})
				got := map[string]hcl.DiagnosticSeverity{}
				for _, d := range diags {
					got[d.Summary] = d.Severity
				}
				if diff := cmp.Diff(tc.wantSeverity, got); diff != "" {
					t.Errorf("diagnostics (-want +got):\n%s", diff)
				}
				_, err := os.Stat(filepath.Join(".terraform", "modules", "modules.json"))
				if got := err == nil; got != tc.wantFile {
					t.Errorf("modules.json written = %v, want %v", got, tc.wantFile)
				}
			})
		})
	}
}
