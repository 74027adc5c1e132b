package config

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hashicorp/hcl/v2"
)

// fuzzBase is a primary file the fuzzed override file can merge into.
const fuzzBase = `terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = ">= 1.0" }
  }
  backend "local" {}
}
variable "v" {
  type    = string
  default = "x"
}
locals { l = 1 }
output "o" { value = 1 }
module "m" { source = "./m" }
provider "aws" { region = "a" }
resource "aws_instance" "r" {
  ami = "a"
  lifecycle { ignore_changes = [tags] }
  ebs { n = 1 }
}
data "aws_ami" "d" {}
check "c" {
  data "http" "h" {}
  assert {
    condition     = true
    error_message = "x"
  }
}
`

// FuzzLoad loads random bytes and mutated configuration files as a primary
// or override file in native or JSON syntax. Loading must never panic, and
// every diagnostic subject must point into a loaded file.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(fuzzBase), false, false)
	f.Add([]byte(`{"resource": {"aws_instance": {"r": {"ami": "b"}}}}`), true, true)
	f.Fuzz(func(t *testing.T, data []byte, asJSON, asOverride bool) {
		name := "main"
		if asOverride {
			name = "main_override"
		}
		name += ".tf"
		if asJSON {
			name += ".json"
		}
		fsys := fstest.MapFS{
			"base.tf": {Data: []byte(fuzzBase)},
			name:      {Data: data},
		}
		m, diags := LoadDir(".", WithFileSystem(FS(fsys)))
		if m == nil {
			t.Fatal("nil module")
		}
		checkSubjects(t, diags, fsys)
		doc := m.Document()
		if doc == nil {
			t.Fatal("nil document")
		}
		walkBlocks(doc.Blocks, func(b *Block) {
			if b.Body == nil {
				t.Fatalf("block %s has no body", b.Type)
			}
		})
		// Loading is deterministic.
		_, again := LoadDir(".", WithFileSystem(FS(fsys)))
		if len(again) != len(diags) {
			t.Fatalf("second load gave %d diagnostics, first %d", len(again), len(diags))
		}
		for i := range diags {
			if again[i].Summary != diags[i].Summary || again[i].Detail != diags[i].Detail {
				t.Fatalf("diagnostic %d differs: %q %q vs %q %q", i, diags[i].Summary, diags[i].Detail, again[i].Summary, again[i].Detail)
			}
		}
	})
}

func checkSubjects(t *testing.T, diags hcl.Diagnostics, fsys fstest.MapFS) {
	t.Helper()
	for _, d := range diags {
		if d.Summary == "" {
			t.Errorf("diagnostic without summary: %+v", d)
		}
		if d.Subject == nil {
			continue
		}
		if _, ok := fsys[strings.TrimPrefix(d.Subject.Filename, "./")]; !ok {
			t.Errorf("subject in unknown file %q: %s", d.Subject.Filename, d.Summary)
		}
	}
}

func walkBlocks(blocks []*Block, fn func(*Block)) {
	for _, b := range blocks {
		fn(b)
		if b.Body != nil {
			walkBlocks(b.Body.Blocks, fn)
		}
	}
}
