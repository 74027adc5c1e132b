package modules

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A failed installation writes modules.json for init (as tofu init does)
// and leaves it alone for get (NoManifestOnError, as tofu get does).
func TestManifestAfterFailedInstall(t *testing.T) {
	for _, tc := range []struct {
		name      string
		noOnError bool
		wantFile  bool
	}{
		{"init", false, true},
		{"get", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			root := writeRoot(t, dir, map[string]string{
				"main.tf": "module \"reg\" {\n  source = \"example.com/acme/net/aws\"\n}\n",
			})
			inDir(t, dir, func() {
				// No registry: the registry module fails (M10).
				diags := Install(context.Background(), root, Options{NoManifestOnError: tc.noOnError, Parallelism: -1})
				if !diags.HasErrors() {
					t.Fatalf("install succeeded without a registry")
				}
				_, err := os.Stat(filepath.Join(".terraform", "modules", "modules.json"))
				if got := err == nil; got != tc.wantFile {
					t.Errorf("modules.json written = %v, want %v", got, tc.wantFile)
				}
			})
		})
	}
}
