package config

import (
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tfdeps/tfdeps/flavour"
)

// FuzzTestFile loads random bytes as a test file (native or JSON syntax)
// in either flavour. The decoder must not panic (a recovered panic is the
// "internal error" diagnostic), every diagnostic must point into a file
// the loader read, and loading must be deterministic.
func FuzzTestFile(f *testing.F) {
	f.Add([]byte("test {\n  parallel = true\n}\nvariable \"v\" {}\nmock_provider \"aws\" {\n  source = \"./m\"\n  override_resource {\n    target = module.a[0].aws_instance.x[\"k\"]\n  }\n}\nrun \"a\" {\n  state_key = \"k\"\n  backend \"local\" {}\n  module {\n    source  = \"acme/net/aws\"\n    version = \"1.0\"\n  }\n}\n"), false, true)
	f.Add([]byte(`{"run": {"a": {"module": {"source": "./m"}, "override_data": {"target": "data.x.y"}}}, "test": {"skip_cleanup": true}}`), true, true)
	f.Add([]byte("override_module {\n  target = module.\n}\n"), false, false)
	f.Fuzz(func(t *testing.T, data []byte, asJSON, terraform bool) {
		name := "a.tftest.hcl"
		if asJSON {
			name = "a.tftest.json"
		}
		fl := flavour.OpenTofu
		if terraform {
			fl = flavour.Terraform
		}
		fsys := fstest.MapFS{
			"main.tf":                {Data: []byte("module \"m\" {\n  source = \"./m\"\n}\n")},
			name:                     {Data: data},
			"m/x.tfmock.hcl":         {Data: data},
			"m/main.tf":              {Data: []byte("")},
			"tests/b.tftest.hcl":     {Data: data},
			"tests/sub/c.tftest.hcl": {Data: data},
		}
		load := func() []string {
			_, diags := LoadDir(".", WithFileSystem(FS(fsys)), WithTestsDir("tests"), WithFlavour(fl))
			var out []string
			for _, d := range diags {
				if strings.Contains(d.Detail, "internal error") {
					t.Fatalf("decoder panicked: %s", d.Detail)
				}
				if d.Subject != nil && d.Subject.Filename != "" {
					// A mock_provider source may be absolute ("/m"): the
					// test's file system holds it without the slash.
					if _, ok := fsys[strings.TrimPrefix(path.Clean(d.Subject.Filename), "/")]; !ok {
						t.Fatalf("diagnostic %q points into %q, not a loaded file", d.Summary, d.Subject.Filename)
					}
				}
				out = append(out, d.Summary+": "+d.Detail)
			}
			return out
		}
		first, again := load(), load()
		if strings.Join(first, "\n") != strings.Join(again, "\n") {
			t.Fatalf("loading is not deterministic:\n%s\n---\n%s", strings.Join(first, "\n"), strings.Join(again, "\n"))
		}
	})
}
