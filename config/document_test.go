package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func docHeader(b *Block) string {
	return strings.Join(append([]string{b.Type}, b.Labels...), " ")
}

func TestDocumentOrderAndOrigins(t *testing.T) {
	m, diags := loadMap(t, map[string]string{
		"a.tf": `variable "v" { default = 1 }
resource "aws_instance" "web" {
  ami  = "base"
  type = "t2"
  ebs { n = 1 }
  tag { k = "x" }
}
locals {
  l = 1
  k = 2
}
`,
		"b.tf": `terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
  backend "local" {}
}
output "o" { value = 1 }
`,
		"override.tf": `resource "aws_instance" "web" {
  ami = "over"
  ebs { n = 2 }
}
provider "google" {}
locals { k = 3 }
terraform {
  backend "s3" {}
}
`,
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	doc := m.Document()
	var got []string
	for _, b := range doc.Blocks {
		got = append(got, docHeader(b))
	}
	want := []string{"variable v", "resource aws_instance web", "locals", "terraform", "output o", "provider google"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("block order (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"override.tf"}, doc.OverrideFiles); diff != "" {
		t.Errorf("override files (-want +got):\n%s", diff)
	}

	res := doc.Blocks[1]
	ami := res.Body.Attribute("ami")
	if ami.Range.Filename != "override.tf" || ami.Replaced == nil || ami.Replaced.Filename != "a.tf" || ami.Replaced.Start.Line != 3 {
		t.Errorf("ami origin: range %v replaced %v", ami.Range, ami.Replaced)
	}
	if typ := res.Body.Attribute("type"); typ.Replaced != nil || typ.Range.Filename != "a.tf" {
		t.Errorf("type should be untouched: %v %v", typ.Range, typ.Replaced)
	}
	var blocks []string
	for _, b := range res.Body.Blocks {
		blocks = append(blocks, b.Type+"@"+b.FromOverride)
	}
	if diff := cmp.Diff([]string{"tag@", "ebs@override.tf"}, blocks); diff != "" {
		t.Errorf("nested blocks (-want +got):\n%s", diff)
	}
	if ebs := res.Body.Blocks[1]; ebs.Replaced == nil || ebs.Replaced.Start.Line != 5 {
		t.Errorf("ebs replaced = %v, want a.tf line 5", ebs.Replaced)
	}

	locals := doc.Blocks[2]
	if k := locals.Body.Attribute("k"); k.Range.Filename != "override.tf" || k.Replaced == nil {
		t.Errorf("local k: %v replaced %v", k.Range, k.Replaced)
	}

	tf := doc.Blocks[3]
	var tfBlocks []string
	for _, b := range tf.Body.Blocks {
		tfBlocks = append(tfBlocks, docHeader(b)+"@"+b.FromOverride)
	}
	if diff := cmp.Diff([]string{"required_providers@", "backend s3@override.tf"}, tfBlocks); diff != "" {
		t.Errorf("terraform blocks (-want +got):\n%s", diff)
	}
	if p := doc.Blocks[5]; p.FromOverride != "override.tf" {
		t.Errorf("provider google FromOverride = %q", p.FromOverride)
	}
}

func TestDocumentKeywordsFromJSON(t *testing.T) {
	m, diags := loadMap(t, map[string]string{
		"main.tf.json": `{
  "variable": {"v": {"type": "string"}},
  "resource": {"x": {"r": {"provider": "x.alt", "depends_on": ["x.q"], "lifecycle": {"ignore_changes": ["a"]}, "v": "y"}}}
}`,
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	doc := m.Document()
	for _, b := range doc.Blocks {
		switch b.Type {
		case "variable":
			if a := b.Body.Attribute("type"); a == nil || !a.Keyword {
				t.Errorf("variable type should be a keyword: %+v", a)
			}
		case "resource":
			for _, n := range []string{"provider", "depends_on"} {
				if a := b.Body.Attribute(n); a == nil || !a.Keyword {
					t.Errorf("%s should be a keyword: %+v", n, a)
				}
			}
			if a := b.Body.Attribute("v"); a == nil || a.Keyword {
				t.Errorf("v should be a value: %+v", a)
			}
			lc := b.Body.BlocksOfType("lifecycle")
			if len(lc) != 1 || lc[0].Body.Attribute("ignore_changes") == nil || !lc[0].Body.Attribute("ignore_changes").Keyword {
				t.Errorf("lifecycle ignore_changes should be a keyword block attribute: %+v", lc)
			}
		}
	}
	if m.ManagedResources["x.r"].ProviderConfigRef.String() != "x.alt" {
		t.Errorf("provider ref = %v", m.ManagedResources["x.r"].ProviderConfigRef)
	}
}
