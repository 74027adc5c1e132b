package backend

import (
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/flavour"
)

// TestPrepare checks remote backends' and cloud blocks' own settings in
// each flavour: each case's errors as "summary @line" (the subject's
// start line, "-" for none; the block is on line 2, its body from line
// 3).
func TestPrepare(t *testing.T) {
	remote := func(body string) string { return "backend \"remote\" {\n" + body + "\n  }" }
	cloud := func(body string) string { return "cloud {\n" + body + "\n  }" }
	const (
		org      = "Invalid organization value"
		ws       = "Invalid workspaces configuration"
		missing  = "Invalid or missing required argument"
		alias    = `failed to create backend alias to target "". The hostname is not in the correct format`
		hostname = "Hostname is required for the "
	)
	tests := []struct {
		name, block string
		env         map[string]string
		tofu, tf    []string
	}{
		{name: "remote by name", block: remote(`hostname = "h"
organization = "acme"
workspaces {
  name = "app"
}`)},
		{name: "remote by prefix", block: remote(`hostname = "h"
organization = "acme"
workspaces {
  prefix = "app-"
}`)},
		{name: "remote without organization", block: remote(`hostname = "h"
workspaces {
  name = "app"
}`), tofu: []string{org + " @2"}, tf: []string{org + " @2"}},
		{name: "remote with an empty organization", block: remote(`hostname = "h"
organization = ""
workspaces {
  name = "app"
}`), tofu: []string{org + " @4"}, tf: []string{org + " @4"}},
		{name: "remote without workspaces", block: remote(`hostname = "h"
organization = "acme"`), tofu: []string{ws + " @2"}, tf: []string{ws + " @2"}},
		{name: "remote with name and prefix", block: remote(`workspaces {
  name   = "app"
  prefix = "app-"
}`), tofu: []string{org + " @2", ws + " @2"}, tf: []string{org + " @2", ws + " @2"}},
		{name: "remote without hostname", block: remote(`organization = "acme"
workspaces {
  name = "app"
}`), tofu: []string{hostname + "remote backend @-", alias + " @-"}},
		{name: "cloud by name", block: cloud(`hostname = "h"
organization = "acme"
workspaces {
  name = "app"
}`)},
		{name: "cloud from the environment", block: cloud(`workspaces {
  tags = ["a"]
}`), env: map[string]string{"TF_CLOUD_HOSTNAME": "h", "TF_CLOUD_ORGANIZATION": "acme"}},
		{name: "cloud named by TF_WORKSPACE", block: cloud(`hostname = "h"
organization = "acme"`), env: map[string]string{"TF_WORKSPACE": "app"}},
		{name: "cloud without organization", block: cloud(`hostname = "h"
workspaces {
  name = "app"
}`), tofu: []string{missing + " @2"}, tf: []string{missing + " @2", alias + ". @-"}},
		{name: "cloud without workspaces", block: cloud(`hostname = "h"
organization = "acme"`), tofu: []string{ws + " @2"}, tf: []string{ws + " @2", alias + ". @-"}},
		{name: "cloud with name and tags", block: cloud(`hostname = "h"
workspaces {
  name = "app"
  tags = ["a"]
}`), tofu: []string{missing + " @2", ws + " @2"}, tf: []string{ws + " @2"}},
		{name: "cloud with empty tags", block: cloud(`hostname = "h"
organization = "acme"
workspaces {
  tags = [""]
}`), tf: []string{ws + " @2", alias + ". @-"}},
		{name: "cloud name contradicted", block: cloud(`hostname = "h"
organization = "acme"
workspaces {
  name = "app"
}`), env: map[string]string{"TF_WORKSPACE": "other"}, tofu: []string{ws + " @2"}, tf: []string{ws + " @2", alias + ". @-"}},
		{name: "cloud without hostname", block: cloud(`organization = "acme"
workspaces {
  name = "app"
}`), tofu: []string{hostname + "cloud backend @-", alias + ". @-"}},
	}
	for _, f := range []flavour.Flavour{flavour.OpenTofu, flavour.Terraform} {
		for _, tt := range tests {
			t.Run(f.String()+"/"+tt.name, func(t *testing.T) {
				src := "terraform {\n  " + tt.block + "\n}\n"
				file, diags := hclparse.NewParser().ParseHCL([]byte(src), "main.tf")
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				content, _, _ := file.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "terraform"}}})
				inner, _, _ := content.Blocks[0].Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
					{Type: "backend", LabelNames: []string{"type"}}, {Type: "cloud"}}})
				b := inner.Blocks[0]
				block := &Block{Type: "cloud", Cloud: true, Body: b.Body, TypeRange: b.DefRange, DeclRange: b.DefRange}
				if b.Type == "backend" {
					block = &Block{Type: "remote", Body: b.Body, TypeRange: b.LabelRanges[0], DeclRange: b.DefRange}
				}
				s, diags := Configure(f, block, Options{})
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				lookup := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
				var got []string
				for _, d := range Prepare(f, block, s, lookup) {
					line := "-"
					if d.Subject != nil {
						line = strconv.Itoa(d.Subject.Start.Line)
					}
					got = append(got, d.Summary+" @"+line)
				}
				want := tt.tofu
				if f == flavour.Terraform {
					want = tt.tf
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			})
		}
	}
	if d := Prepare(flavour.OpenTofu, nil, &Settings{Type: "s3", Config: cty.EmptyObjectVal}, nil); d != nil {
		t.Errorf("s3 checked: %v", d)
	}
}
