package diagrender

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func TestDiagnosticSnippet(t *testing.T) {
	src := "module \"x\" {\n  source = 1\n}\n"
	file, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	at := func(sb, eb, line, sc, ec int) *hcl.Range {
		return &hcl.Range{Filename: "main.tf",
			Start: hcl.Pos{Line: line, Column: sc, Byte: sb},
			End:   hcl.Pos{Line: line, Column: ec, Byte: eb}}
	}
	tests := []struct {
		name    string
		subject *hcl.Range
		want    string
	}{
		{
			name:    "inside a block",
			subject: at(24, 25, 2, 12, 13),
			want:    "\nError: Bad\n\n  on main.tf line 2, in module \"x\":\n   2:   source = 1\n\nWhy.\n",
		},
		{
			name:    "at the start of the file",
			subject: at(0, 6, 1, 1, 7),
			want:    "\nError: Bad\n\n  on main.tf line 1:\n   1: module \"x\" {\n\nWhy.\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			p := &Printer{Stdout: &bytes.Buffer{}, Stderr: &stderr, Files: map[string]*hcl.File{"main.tf": file}, Width: 78}
			p.Print(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Bad", Detail: "Why.", Subject: tc.subject}})
			if diff := cmp.Diff(tc.want, stderr.String()); diff != "" {
				t.Errorf("rendering (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDiagnosticOrderAndConsolidation(t *testing.T) {
	rng := func(file string, b int) *hcl.Range {
		return &hcl.Range{Filename: file, Start: hcl.Pos{Line: 1, Column: 1, Byte: b}, End: hcl.Pos{Line: 1, Column: 2, Byte: b + 1}}
	}
	diags := hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "E1", Subject: rng("b.tf", 0)},
		{Severity: hcl.DiagWarning, Summary: "W", Detail: "d", Subject: rng("mod/a.tf", 0)},
		{Severity: hcl.DiagWarning, Summary: "W", Detail: "d", Subject: rng("a.tf", 5)},
		{Severity: hcl.DiagWarning, Summary: "W", Detail: "d", Subject: rng("a.tf", 1)},
		{Severity: hcl.DiagError, Summary: "E0"},
		{Severity: hcl.DiagWarning, Summary: "Unsited"},
	}
	var got []string
	for _, d := range consolidateWarnings(Sort(diags)) {
		where := "-"
		if d.Subject != nil {
			where = d.Subject.Filename
		}
		got = append(got, d.Summary+"@"+where+": "+d.Detail)
	}
	want := []string{
		"Unsited@-: ",
		"W@a.tf: d\n\n(and 2 more similar warnings elsewhere)",
		"E0@-: ",
		"E1@b.tf: ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}
