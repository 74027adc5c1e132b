package diagrender

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// The expected texts below are tofu v1.12.6's output for the same
// configuration and diagnostic ("tofu providers" and "tofu providers
// -no-color" on main.tf).
const blankLinesSrc = "terraform {\n  required_providers {\n    vprefix = {\n      source  = \"example/vprefix\"\n\n      version = \"v1.2.3\"\n    }\n  }\n}\n"

func blankLinesDiag() *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid version constraint",
		Detail:   "Incorrect version constraint syntax: invalid specification \"v1.2.3\": a \"v\" prefix should not be used when specifying versions.",
		Subject: &hcl.Range{Filename: "main.tf",
			Start: hcl.Pos{Line: 3, Column: 5, Byte: 39},
			End:   hcl.Pos{Line: 7, Column: 6, Byte: 116}},
	}
}

func TestDiagnosticRendering(t *testing.T) {
	file, diags := hclparse.NewParser().ParseHCL([]byte(blankLinesSrc), "main.tf")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	files := map[string]*hcl.File{"main.tf": file}
	tests := []struct {
		name  string
		color bool
		diag  *hcl.Diagnostic
		want  string
	}{
		{
			// Empty lines of the snippet are left out and the lines after
			// them numbered on from the previous one.
			name: "plain, snippet over an empty line",
			diag: blankLinesDiag(),
			want: "\nError: Invalid version constraint\n\n" +
				"  on main.tf line 3, in terraform:\n" +
				"   3:     vprefix = {\n" +
				"   4:       source  = \"example/vprefix\"\n" +
				"   5:       version = \"v1.2.3\"\n" +
				"   6:     }\n\n" +
				"Incorrect version constraint syntax: invalid specification \"v1.2.3\": a \"v\"\n" +
				"prefix should not be used when specifying versions.\n\n",
		},
		{
			name:  "coloured, left rule, underlined subject, wrapped at width-3",
			color: true,
			diag:  blankLinesDiag(),
			want: "\x1b[31m╷\x1b[0m\x1b[0m\n" +
				"\x1b[31m│\x1b[0m \x1b[0m\x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mInvalid version constraint\x1b[0m\n" +
				"\x1b[31m│\x1b[0m \x1b[0m\n" +
				"\x1b[31m│\x1b[0m \x1b[0m\x1b[0m  on main.tf line 3, in terraform:\n" +
				"\x1b[31m│\x1b[0m \x1b[0m   3:     \x1b[4mvprefix = {\n" +
				"\x1b[31m│\x1b[0m \x1b[0m   4:       source  = \"example/vprefix\"\n" +
				"\x1b[31m│\x1b[0m \x1b[0m   5:       version = \"v1.2.3\"\n" +
				"\x1b[31m│\x1b[0m \x1b[0m   6:     }\x1b[0m\x1b[0m\n" +
				"\x1b[31m│\x1b[0m \x1b[0m\n" +
				"\x1b[31m│\x1b[0m \x1b[0mIncorrect version constraint syntax: invalid specification \"v1.2.3\": a \"v\"\n" +
				"\x1b[31m│\x1b[0m \x1b[0mprefix should not be used when specifying versions.\n" +
				"\x1b[31m╵\x1b[0m\x1b[0m\n\n",
		},
		{
			// The header names the subject's line even when a context
			// range widens the snippet upwards.
			name: "plain, context before the subject",
			diag: &hcl.Diagnostic{
				Severity: hcl.DiagWarning, Summary: "W", Detail: "D",
				Subject: &hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 6, Column: 7, Byte: 92}, End: hcl.Pos{Line: 6, Column: 14, Byte: 99}},
				Context: &hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 3, Column: 5, Byte: 39}, End: hcl.Pos{Line: 7, Column: 6, Byte: 116}},
			},
			want: "\nWarning: W\n\n" +
				"  on main.tf line 6, in terraform:\n" +
				"   3:     vprefix = {\n" +
				"   4:       source  = \"example/vprefix\"\n" +
				"   5:       version = \"v1.2.3\"\n" +
				"   6:     }\n\nD\n\n",
		},
		{
			// The last line of a file is not followed by an empty one.
			name: "plain, last line of the file",
			diag: &hcl.Diagnostic{
				Severity: hcl.DiagError, Summary: "E",
				Subject: &hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 9, Column: 1, Byte: 121}, End: hcl.Pos{Line: 9, Column: 2, Byte: 122}},
			},
			want: "\nError: E\n\n  on main.tf line 9, in terraform:\n   9: }\n\n\n",
		},
		{
			name: "plain, source not available",
			diag: &hcl.Diagnostic{
				Severity: hcl.DiagWarning, Summary: "W", Detail: "D",
				Subject: &hcl.Range{Filename: ".terraform.lock.hcl", Start: hcl.Pos{Line: 2, Column: 1, Byte: 10}, End: hcl.Pos{Line: 2, Column: 2, Byte: 11}},
			},
			want: "\nWarning: W\n\n  on .terraform.lock.hcl line 2:\n  (source code not available)\n\nD\n\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			p := &Printer{Stdout: &stdout, Stderr: &stderr, Files: files, Width: 78, Color: tc.color, ExtraNewline: true}
			p.Print(hcl.Diagnostics{tc.diag})
			if diff := cmp.Diff(tc.want, stdout.String()+stderr.String()); diff != "" {
				t.Errorf("rendering (-want +got):\n%s", diff)
			}
		})
	}
}

func TestColorize(t *testing.T) {
	tests := []struct {
		name, in string
		on       bool
		want     string
	}{
		{"codes and a final reset", "[reset][bold]Hi[reset]", true, "\x1b[0m\x1b[1mHi\x1b[0m\x1b[0m"},
		{"off removes the markup", "[reset][bold]Hi[reset]", false, "Hi"},
		{"no markup, no reset", "plain", true, "plain"},
		{"unknown names stay", "[nope] x", true, "[nope] x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Colorize(tc.in, tc.on); got != tc.want {
				t.Errorf("Colorize(%q, %v) = %q, want %q", tc.in, tc.on, got, tc.want)
			}
		})
	}
}
