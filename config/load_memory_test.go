package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcled"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// TestParsedFilesNavigation: a loaded module keeps only the bytes of its
// files, and the enclosing-block context a diagnostic shows ("in resource
// ...") is still the one the parsed file gives.
func TestParsedFilesNavigation(t *testing.T) {
	files := map[string]string{
		"main.tf":       "variable \"v\" {\n  default = 1\n}\n\nresource \"aws_instance\" \"a\" {\n  ami = \"x\"\n  lifecycle {\n    ignore_changes = [ami]\n  }\n}\n# between\nlocals {\n  l = 1\n}\nterraform {}\n",
		"extra.tf.json": `{"resource": {"aws_instance": {"b": {"ami": "y"}}}, "output": {"o": {"value": "z"}}}`,
	}
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, diags := LoadDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	parsed := m.ParsedFiles()
	p := hclparse.NewParser()
	for name, src := range files {
		path := filepath.Join(dir, name)
		kept := parsed[path]
		if kept == nil {
			t.Fatalf("ParsedFiles has no %s", path)
		}
		if string(kept.Bytes) != src {
			t.Errorf("%s: bytes differ", name)
		}
		var fresh *hcl.File
		if filepath.Ext(name) == ".json" {
			fresh, _ = p.ParseJSON([]byte(src), path)
		} else {
			fresh, _ = p.ParseHCL([]byte(src), path)
		}
		for offset := 0; offset < len(src); offset++ {
			if got, want := hcled.ContextString(kept, offset), hcled.ContextString(fresh, offset); got != want {
				t.Fatalf("%s: context at byte %d = %q, want %q", name, offset, got, want)
			}
			if got, want := hcled.ContextDefRange(kept, offset), hcled.ContextDefRange(fresh, offset); got != want {
				t.Fatalf("%s: definition range at byte %d = %v, want %v", name, offset, got, want)
			}
		}
	}
}

// TestWithoutResourceConfig: the option drops the resources' arguments
// and keeps their meta-arguments and what they decode to; the diagnostics
// are those of a full load.
func TestWithoutResourceConfig(t *testing.T) {
	src := `resource "aws_instance" "a" {
  count    = 2
  provider = aws.west
  ami      = "x"
  tags     = { Name = "a" }
  ebs_block_device {
    device_name = "/dev/sdh"
  }
  lifecycle {
    ignore_changes = [ami]
  }
  provisioner "local-exec" {
    command = "true"
  }
}

data "http" "d" {
  url = "https://example.com"
  lifecycle {
    postcondition {
      condition     = self.status_code == 200
      error_message = "bad"
    }
  }
}

provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

variable "unused" {
  type = "string"
}
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	full, fullDiags := LoadDir(dir)
	slim, slimDiags := LoadDir(dir, WithoutResourceConfig())
	if len(fullDiags) == 0 {
		t.Fatal("want the quoted type warning")
	}
	if diff := cmp.Diff(fullDiags.Error(), slimDiags.Error()); diff != "" {
		t.Errorf("diagnostics (-full +slim):\n%s", diff)
	}
	names := func(b *Body) (out []string) {
		for _, a := range b.Attributes {
			out = append(out, a.Name)
		}
		for _, blk := range b.Blocks {
			out = append(out, blk.Type+"{}")
		}
		return out
	}
	tests := []struct {
		key        string
		mods       func(*Module) map[string]*Resource
		full, slim []string
	}{
		{"aws_instance.a", func(m *Module) map[string]*Resource { return m.ManagedResources },
			[]string{"count", "provider", "ami", "tags", "ebs_block_device{}", "lifecycle{}", "provisioner{}"},
			[]string{"count", "provider", "lifecycle{}", "provisioner{}"}},
		{"data.http.d", func(m *Module) map[string]*Resource { return m.DataResources },
			[]string{"url", "lifecycle{}"}, []string{"lifecycle{}"}},
	}
	for _, tt := range tests {
		f, s := tt.mods(full)[tt.key], tt.mods(slim)[tt.key]
		if f == nil || s == nil {
			t.Fatalf("%s missing", tt.key)
		}
		if diff := cmp.Diff(tt.full, names(f.Syntax.Body)); diff != "" {
			t.Errorf("%s full body (-want +got):\n%s", tt.key, diff)
		}
		if diff := cmp.Diff(tt.slim, names(s.Syntax.Body)); diff != "" {
			t.Errorf("%s slim body (-want +got):\n%s", tt.key, diff)
		}
		if got := len(s.Config().Attributes) + len(s.Config().Blocks); got != 0 {
			t.Errorf("%s: Config() has %d items, want none", tt.key, got)
		}
		if f.Provider != s.Provider || (f.Count == nil) != (s.Count == nil) || len(f.Postconditions) != len(s.Postconditions) {
			t.Errorf("%s: decoded meta-arguments differ", tt.key)
		}
	}
	if got := slim.ManagedResources["aws_instance.a"].Managed; len(got.IgnoreChanges) != 1 || len(got.Provisioners) != 1 {
		t.Errorf("managed meta = %+v, want one ignore_changes and one provisioner", got)
	}
	if got := names(slim.ProviderConfigs["aws.west"].Config()); !cmp.Equal(got, []string{"region"}) {
		t.Errorf("provider configuration = %v, want it kept", got)
	}
}
