package config

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestDiagnosticCatalogue checks loader diagnostics of config-loading.md §10
// that the conformance fixtures do not cover.
func TestDiagnosticCatalogue(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []expectedDiag
	}{
		{
			name: "C38 duplicate provider_meta, last wins",
			files: map[string]string{
				"a.tf": "terraform {\n  provider_meta \"aws\" {}\n}\n",
				"b.tf": "terraform {\n  provider_meta \"aws\" {}\n}\n",
			},
			want: []expectedDiag{{"error", "Duplicate provider_meta block", `A provider_meta block for provider "aws" was already declared at a.tf:2,3-22. Providers may only have one provider_meta block per module.`, "b.tf:2,3-2,22"}},
		},
		{
			name: "C39 and C39b duplicate encryption",
			files: map[string]string{
				"a.tf":          "terraform {\n  encryption {}\n}\n",
				"b.tf":          "terraform {\n  encryption {}\n}\n",
				"x_override.tf": "terraform {\n  encryption {}\n  encryption {}\n}\n",
			},
			want: []expectedDiag{
				{"error", "Duplicate encryption configuration", "A module may have only one encryption configuration. Encryption was previously configured at a.tf:2,3-13.", "b.tf:2,3-2,13"},
				{"error", "Duplicate encryption configuration", "Each override file may have only one encryption configuration. Encryption was previously configured at x_override.tf:2,3-13.", "x_override.tf:3,3-3,13"},
			},
		},
		{
			name: "C47 check-nested data duplicate drops the check, C48 duplicate check",
			files: map[string]string{
				"a.tf": "data \"http\" \"h\" {}\ncheck \"c\" {\n  data \"http\" \"h\" {}\n  assert {\n    condition = var.ok\n    error_message = \"x\"\n  }\n}\ncheck \"d\" {\n  assert {\n    condition = var.ok\n    error_message = \"x\"\n  }\n}\n",
				"b.tf": "check \"d\" {\n  assert {\n    condition = var.ok\n    error_message = \"y\"\n  }\n}\n",
			},
			want: []expectedDiag{
				{"error", `Duplicate data "http" configuration`, `A http data resource named "h" was already declared at a.tf:1,1-16. Resource names must be unique per type in each module, including within check blocks.`, "a.tf:3,3-3,18"},
				{"error", `Duplicate check "d" configuration`, `A check block named "d" was already declared at a.tf:9,1-10. Check blocks must be unique within each module.`, "b.tf:1,1-1,10"},
			},
		},
		{
			name:  "C14 all three",
			files: map[string]string{"a.tf": "resource \"x\" \"r\" {\n  count = 1\n  for_each = {}\n  lifecycle {\n    enabled = true\n  }\n}\n"},
			want: []expectedDiag{{"error", `Invalid combination of "count", "enabled", and "for_each"`,
				`The "count", "enabled", and "for_each" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of resources to be created.`, "a.tf:2,3-5,12"}},
		},
		{
			name:  "C12 C13 duplicate lifecycle and connection",
			files: map[string]string{"a.tf": "resource \"x\" \"r\" {\n  lifecycle {}\n  lifecycle {}\n  connection {}\n  connection {}\n}\nephemeral \"x\" \"e\" {\n  lifecycle {}\n  lifecycle {}\n}\n"},
			want: []expectedDiag{
				{"error", "Duplicate lifecycle block", "This resource already has a lifecycle block at a.tf:2,3-12.", "a.tf:3,3-3,12"},
				{"error", "Duplicate connection block", "This resource already has a connection block at a.tf:4,3-13.", "a.tf:5,3-5,13"},
				{"error", "Duplicate lifecycle block", "This ephemeral resource already has a lifecycle block at a.tf:8,3-12.", "a.tf:9,3-9,12"},
			},
		},
		{
			name:  "C10 C11 escaping and reserved blocks",
			files: map[string]string{"a.tf": "data \"x\" \"d\" {\n  _ {}\n  _ {}\n  locals {}\n}\n"},
			want: []expectedDiag{
				{"error", "Duplicate escaping block", `The special block type "_" can be used to force particular arguments to be interpreted as resource-type-specific rather than as meta-arguments, but each data block can have only one such block. The first escaping block was at a.tf:2,3-4.`, "a.tf:3,3-3,4"},
				{"error", "Reserved block type name in data block", `The block type name "locals" is reserved for use by OpenTofu in a future version.`, "a.tf:4,3-4,9"},
			},
		},
		{
			name: "C15 module depends_on, module count and for_each after merge",
			files: map[string]string{
				"a.tf":          "module \"m\" {\n  source = \"./m\"\n  count = 1\n}\n",
				"a_override.tf": "module \"m\" {\n  for_each = {}\n  depends_on = [x.y]\n}\n",
			},
			want: []expectedDiag{{"error", "Unsupported override", "The depends_on argument may not be overridden.", "a_override.tf:3,17-3,20"}},
		},
		{
			name:  "R-series: invalid required_providers entries in source order",
			files: map[string]string{"a.tf": "terraform {\n  required_providers {\n    ok = { source = \"a/ok\" }\n    bad = { source = 1 }\n    late = { source = \"a/late\" }\n  }\n}\n"},
			want:  []expectedDiag{{"error", "Invalid source", "Source must be specified as a string.", "a.tf:4,22-4,23"}},
		},
		{
			name:  "provider source error with subject",
			files: map[string]string{"a.tf": "terraform {\n  required_providers {\n    x = { source = \"a/b/c/d\" }\n  }\n}\n"},
			want:  []expectedDiag{{"error", "Invalid provider source string", `The "source" attribute must be in the format "[hostname/][namespace/]name"`, "a.tf:3,20-3,29"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, diags := loadMap(t, tt.files)
			if diff := cmp.Diff(tt.want, diagsForCompare(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if m == nil {
				t.Fatal("nil module")
			}
		})
	}
}

type failingFS struct {
	FileSystem
	fail string
}

func (f failingFS) ReadFile(name string) ([]byte, error) {
	if name == f.fail {
		return nil, fs.ErrPermission
	}
	return f.FileSystem.ReadFile(name)
}

func TestFailedToReadFile(t *testing.T) {
	fsys := fstest.MapFS{
		"a.tf": {Data: []byte("variable \"x\" {}\n")},
		"b.tf": {Data: []byte("variable \"y\" {}\n")},
	}
	m, diags := LoadDir(".", WithFileSystem(failingFS{FS(fsys), "b.tf"}))
	want := []expectedDiag{{Severity: "error", Summary: "Failed to read file", Detail: `The file "b.tf" could not be read.`}}
	if diff := cmp.Diff(want, diagsForCompare(diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if m.Variables["x"] == nil || m.Variables["y"] != nil {
		t.Errorf("variables = %v, want only x", names(m, "variable"))
	}
}
