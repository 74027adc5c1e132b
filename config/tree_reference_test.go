package config

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReferenceManifestWalker runs the reference OpenTofu's `providers` on
// configurations whose modules.json disagrees with them and checks that
// every diagnostic ManifestWalker gives appears in OpenTofu's output
// (summary, "on FILE line N", detail with the word wrapping undone), and
// that OpenTofu printed no other error. It needs TFDEPS_REFERENCE_TOFU.
func TestReferenceManifestWalker(t *testing.T) {
	tofu := os.Getenv("TFDEPS_REFERENCE_TOFU")
	if tofu == "" {
		t.Skip("TFDEPS_REFERENCE_TOFU is not set")
	}
	const local = "module \"a\" {\n  source = \"./a\"\n}\n"
	const versioned = "module \"a\" {\n  source  = \"acme/a/aws\"\n  version = \"~> 1.0\"\n}\n"
	tests := []struct{ name, main, manifest string }{
		{"local not installed", local, `{"Modules":[{"Key":"","Source":"","Dir":"."}]}`},
		{"source changed", local, `{"Modules":[{"Key":"a","Source":"./b","Dir":"a"}]}`},
		{"unreadable dir", local, `{"Modules":[{"Key":"a","Source":"./a","Dir":"nope"}]}`},
		{"version not acceptable", versioned, `{"Modules":[{"Key":"a","Source":"registry.opentofu.org/acme/a/aws","Version":"2.0.0","Dir":"a"}]}`},
		{"version recorded without one", versioned, `{"Modules":[{"Key":"a","Source":"registry.opentofu.org/acme/a/aws","Dir":"a"}]}`},
		{"both changed", versioned, `{"Modules":[{"Key":"a","Source":"registry.opentofu.org/acme/b/aws","Version":"0.1.0","Dir":"a"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"main.tf": tt.main, "a/main.tf": "", ".terraform/modules/modules.json": tt.manifest})
			_, rootDiags, diags := LoadTree(".", WithFileSystem(OSFileSystem{Root: dir}))
			if rootDiags.HasErrors() || len(diags) == 0 {
				t.Fatalf("root %v, build %v", rootDiags, diags)
			}
			rc := filepath.Join(t.TempDir(), "empty.tfrc")
			os.WriteFile(rc, nil, 0o644)
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, tofu, "providers", "-no-color")
			cmd.Dir = dir
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TF_CLI_CONFIG_FILE=" + rc}
			out, _ := cmd.CombinedOutput()
			flat := strings.Join(strings.Fields(string(out)), " ")
			for _, d := range diags {
				for _, part := range []string{"Error: " + d.Summary, fmt.Sprintf("on main.tf line %d", d.Subject.Start.Line), strings.Join(strings.Fields(d.Detail), " ")} {
					if !strings.Contains(flat, part) {
						t.Errorf("not in OpenTofu's output: %s\n%s", part, out)
					}
				}
			}
			if n := strings.Count(string(out), "Error: "); n != len(diags) {
				t.Errorf("OpenTofu printed %d errors, tfdeps has %d:\n%s", n, len(diags), out)
			}
		})
	}
}
