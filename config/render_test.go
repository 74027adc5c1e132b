package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

func TestRenderNative(t *testing.T) {
	tests := []struct {
		name string
		file string // main.tf or main.tf.json
		src  string
		want string
	}{
		{
			name: "native verbatim",
			file: "main.tf",
			src: `resource "aws_instance" "web" {
  ami = var.ami # trailing comment goes
  tags = {
    # inner comment stays
    Name = "web-${var.env}"
  }
  count = length(var.x)>0?1:0
  lifecycle {
    ignore_changes = [tags]
  }
}
`,
			want: `resource "aws_instance" "web" {
  ami = var.ami
  tags = {
    # inner comment stays
    Name = "web-${var.env}"
  }
  count = length(var.x) > 0 ? 1 : 0

  lifecycle {
    ignore_changes = [tags]
  }
}
`,
		},
		{
			name: "heredocs",
			file: "main.tf",
			src:  "locals {\n  a = <<EOT\nhello ${var.x}\n  EOTX\nEOT\n  b = <<-EOT\n    indented\n    EOT\n  c = 1\n}\n",
			want: "locals {\n  a = <<EOT\nhello ${var.x}\n  EOTX\nEOT\n  b = <<-EOT\n    indented\n    EOT\n  c = 1\n}\n",
		},
		{
			name: "labels escaped",
			file: "main.tf.json",
			src:  `{"resource": {"t": {"a\"b${c}\\d": {"x": 1}}}}`,
			want: "resource \"t\" \"a\\\"b$${c}\\\\d\" {\n  x = 1\n}\n",
		},
		{
			name: "json scalars",
			file: "main.tf.json",
			src:  `{"locals": {"n": -1.5e3, "b": true, "z": null, "s": "plain", "i": 42}}`,
			want: "locals {\n  n = -1.5e3\n  b = true\n  z = null\n  s = \"plain\"\n  i = 42\n}\n",
		},
		{
			name: "json templates",
			file: "main.tf.json",
			src: `{"locals": {"a": "${var.x}", "b": "x-${upper(\"q\\\"\")}-y", "c": "line1\nline2\t\"q\" \\ end",
			  "d": "$${not} %%{not}", "e": "%{ if var.x }yes%{ endif }", "f": "${ {\"k\" = 1} }"}}`,
			want: `locals {
  a = var.x
  b = "x-${upper("q\"")}-y"
  c = "line1\nline2\t\"q\" \\ end"
  d = "$${not} %%{not}"
  e = "%{if var.x}yes%{endif}"
  f = { "k" = 1 }
}
`,
		},
		{
			name: "json invalid template is literal",
			file: "main.tf.json",
			src:  `{"locals": {"a": "${"}}`,
			want: "locals {\n  a = \"$${\"\n}\n",
		},
		{
			name: "json objects and arrays",
			file: "main.tf.json",
			src: `{"resource": {"t": {"r": {"tags": {"Name": "x", "for": 1, "a b": 2, "${var.k}": 3, "//": "kept"},
			  "list": [1, "two", [3]], "empty": [], "eo": {}}}}}`,
			want: `resource "t" "r" {
  tags = {
    Name       = "x"
    "for"      = 1
    "a b"      = 2
    "${var.k}" = 3
    "//"       = "kept"
  }
  list = [
    1,
    "two",
    [3],
  ]
  empty = []
  eo    = {}
}
`,
		},
		{
			name: "json keywords",
			file: "main.tf.json",
			src: `{"variable": {"v": {"type": "list(string)", "default": ["${x}"], "description": "costs $${x} or ${y}"}},
			  "resource": {"t": {"r": {"provider": "aws.west", "depends_on": ["t.a", "module.m"],
			    "lifecycle": {"ignore_changes": "all", "create_before_destroy": true}}}},
			  "module": {"m": {"source": "./m", "providers": {"aws": "aws.west"}}}}`,
			want: `variable "v" {
  type        = list(string)
  default     = ["$${x}"]
  description = "costs $$${x} or $${y}"
}

resource "t" "r" {
  provider   = aws.west
  depends_on = [t.a, module.m]

  lifecycle {
    ignore_changes        = all
    create_before_destroy = true
  }
}

module "m" {
  source = "./m"
  providers = {
    aws = aws.west
  }
}
`,
		},
		{
			name: "json required_providers",
			file: "main.tf.json",
			src: `{"terraform": {"required_version": ">= 1.0", "required_providers": {
			  "aws": {"source": "hashicorp/aws", "version": "~> 5.0", "configuration_aliases": ["aws.west"]},
			  "old": "1.0"}}}`,
			want: `terraform {
  required_version = ">= 1.0"

  required_providers {
    aws = {
      source                = "hashicorp/aws"
      version               = "~> 5.0"
      configuration_aliases = [aws.west]
    }
    old = "1.0"
  }
}
`,
		},
		{
			name: "unrepresentable argument name",
			file: "main.tf.json",
			src:  `{"resource": {"t": {"r": {"a b": 1}}}}`,
			want: "resource \"t\" \"r\" {\n  # argument \"a b\" omitted: native syntax cannot name it\n}\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := parseTestDocument(t, []string{tt.file}, map[string]string{tt.file: tt.src})
			got := string(doc.Render(RenderOptions{}))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Render() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRenderExplain(t *testing.T) {
	files := map[string]string{
		"main.tf": `resource "aws_instance" "web" {
  ami = "base"
  instance_type = "t2"
  ebs_block_device {
    device_name = "a"
  }
}
`,
		"override.tf": `resource "aws_instance" "web" {
  ami = "override"
  ebs_block_device {
    device_name = "b"
  }
  tags = {}
}
provider "aws" {
  region = "x"
}
`,
	}
	doc := parseTestDocument(t, []string{"main.tf", "override.tf"}, files)
	// Merge by hand as the loader would.
	base, over, prov := doc.Blocks[0], doc.Blocks[1], doc.Blocks[2]
	baseAMI := base.Body.Attributes[0].Range
	ami := over.Body.Attributes[0]
	ami.Replaced = &baseAMI
	ebsBase := base.Body.Blocks[0].DefRange
	ebs := over.Body.Blocks[0]
	ebs.FromOverride, ebs.Replaced = "override.tf", &ebsBase
	base.Body.Attributes = []*Attribute{ami, base.Body.Attributes[1], over.Body.Attributes[1]}
	base.Body.Blocks = []*Block{ebs}
	prov.FromOverride = "override.tf"
	doc.Blocks = []*Block{base, prov}
	doc.OverrideFiles = []string{"override.tf"}

	want := `# Override files applied, in order:
#   1. override.tf

resource "aws_instance" "web" {
  # ami: from override.tf:2, replaces main.tf:2
  ami           = "override"
  instance_type = "t2"
  # tags: from override.tf:6
  tags = {}

  # ebs_block_device: from override.tf:3, replaces main.tf:4
  ebs_block_device {
    device_name = "b"
  }
}

# provider "aws": from override.tf:8
provider "aws" {
  region = "x"
}
`
	if diff := cmp.Diff(want, string(doc.Render(RenderOptions{Explain: true}))); diff != "" {
		t.Errorf("Render(Explain) mismatch (-want +got):\n%s", diff)
	}
	doc.OverrideFiles = nil
	doc.Blocks = doc.Blocks[:0]
	if got := string(doc.Render(RenderOptions{Explain: true})); got != "# No override files applied.\n" {
		t.Errorf("Render(Explain) of empty document = %q", got)
	}
}

func TestRenderFallbackWithoutSource(t *testing.T) {
	doc := parseTestDocument(t, []string{"main.tf"}, map[string]string{"main.tf": "locals {\n  a = [1, \"x\"]\n  b = var.y\n  c = f(1)\n}\n"})
	doc.Files = map[string]*hcl.File{}
	want := "locals {\n  a = [1, \"x\"]\n  b = var.y\n  c = null\n}\n"
	if diff := cmp.Diff(want, string(doc.Render(RenderOptions{}))); diff != "" {
		t.Errorf("Render() mismatch (-want +got):\n%s", diff)
	}
}
