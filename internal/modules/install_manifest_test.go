package modules

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tfdeps/tfdeps/flavour"
)

// A failed installation writes modules.json for init (as tofu init does)
// and leaves it alone for get (NoManifestOnError, as tofu get does); in the
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
				diags := Install(context.Background(), root, Options{NoManifestOnError: tc.noOnError, Flavour: tc.flavour, Parallelism: -1})
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
