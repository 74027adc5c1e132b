package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// TestFileDiagnostics: the per-file diagnostics (what OpenTofu's second,
// encryption-only load of a root module reports again) leave out the
// module-level ones such as duplicates, and keep load order.
func TestFileDiagnostics(t *testing.T) {
	files := map[string]string{
		"a.tf":          "resource \"x\" \"a\" {\n  depends_on = [\"x.b\"]\n}\nvariable \"v\" {}\n",
		"b.tf":          "variable \"v\" {}\n",
		"c_override.tf": "provider \"x\" {\n  version = \"1.0\"\n}\n",
	}
	m, diags := loadMap(t, files)
	want := []expectedDiag{
		{"warning", "Quoted references are deprecated", quotedDetail("reference", flavour.OpenTofu), "a.tf:2,17-2,22"},
		{"warning", "Version constraints inside provider configuration blocks are deprecated", "OpenTofu 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of OpenTofu. To silence this warning, move the provider version constraint into the required_providers block.", "c_override.tf:2,13-2,18"},
	}
	if diff := cmp.Diff(want, diagsForCompare(m.FileDiagnostics())); diff != "" {
		t.Errorf("file diagnostics (-want +got):\n%s", diff)
	}
	if got := summaries(diags, hcl.DiagError); len(got) != 1 || got[0] != "Duplicate variable declaration" {
		t.Errorf("module errors = %q, want the duplicate variable only", got)
	}
}
