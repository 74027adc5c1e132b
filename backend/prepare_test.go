package backend

import (
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/tfdeps/tfdeps/flavour"
)

// TestPrepare checks the remote backend's own settings: each case's
// errors as "summary: detail @line" (the subject's start line; the
// block is on line 2, its body from line 3).
func TestPrepare(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{name: "valid by name", body: `organization = "acme"
workspaces {
  name = "app"
}`},
		{name: "valid by prefix", body: `organization = "acme"
workspaces {
  prefix = "app-"
}`},
		{name: "no organization", body: `workspaces {
  name = "app"
}`, want: []string{`Invalid organization value: The "organization" attribute value must not be empty. @2`}},
		{name: "empty organization", body: `hostname = "h"
organization = ""
workspaces {
  name = "app"
}`, want: []string{`Invalid organization value: The "organization" attribute value must not be empty. @4`}},
		{name: "no workspaces", body: `organization = "acme"`, want: []string{`Invalid workspaces configuration: Either workspace "name" or "prefix" is required. @2`}},
		{name: "empty name", body: `organization = "acme"
workspaces {
  name = ""
}`, want: []string{`Invalid workspaces configuration: Either workspace "name" or "prefix" is required. @2`}},
		{name: "name and prefix", body: `workspaces {
  name   = "app"
  prefix = "app-"
}`, want: []string{
			`Invalid organization value: The "organization" attribute value must not be empty. @2`,
			`Invalid workspaces configuration: Only one of workspace "name" or "prefix" is allowed. @2`,
		}},
	}
	for _, f := range []flavour.Flavour{flavour.OpenTofu, flavour.Terraform} {
		for _, tt := range tests {
			t.Run(f.String()+"/"+tt.name, func(t *testing.T) {
				src := "terraform {\n  backend \"remote\" {\n" + tt.body + "\n  }\n}\n"
				file, diags := hclparse.NewParser().ParseHCL([]byte(src), "main.tf")
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				content, _, _ := file.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "terraform"}}})
				inner, _, _ := content.Blocks[0].Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "backend", LabelNames: []string{"type"}}}})
				b := inner.Blocks[0]
				block := &Block{Type: "remote", Body: b.Body, TypeRange: b.LabelRanges[0], DeclRange: b.DefRange}
				s, diags := Configure(f, block, Options{})
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				var got []string
				for _, d := range Prepare(block, s) {
					got = append(got, d.Summary+": "+d.Detail+" @"+strconv.Itoa(d.Subject.Start.Line))
				}
				if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
					t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
				}
			})
		}
	}
	if d := Prepare(nil, &Settings{Type: "s3"}); d != nil {
		t.Errorf("s3 checked: %v", d)
	}
}
