package config

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestBuildTree(t *testing.T) {
	fsys := fstest.MapFS{
		"main.tf":                         {Data: []byte("module \"net\" { source = \"./modules/net\" }\nmodule \"reg\" {\n  source  = \"hashicorp/consul/aws\"\n  version = \"1.0.0\"\n}\nmodule \"gone\" { source = \"git::https://example.com/x.git\" }\n")},
		"modules/net/main.tf":             {Data: []byte("module \"sub\" { source = \"../common\" }\nresource \"aws_vpc\" \"v\" {}\n")},
		"modules/common/main.tf":          {Data: []byte("variable \"x\" {}\n")},
		".terraform/modules/modules.json": {Data: []byte(`{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"reg","Source":"registry.opentofu.org/hashicorp/consul/aws","Dir":".terraform/modules/reg"}]}`)},
		".terraform/modules/reg/main.tf":  {Data: []byte("output \"o\" { value = 1 }\n")},
	}
	tree, rootDiags, buildDiags := LoadTree(".", WithFileSystem(FS(fsys)))
	if rootDiags.HasErrors() {
		t.Fatal(rootDiags)
	}
	var got []string
	tree.Walk(func(n *Tree) { got = append(got, n.PathString()+" "+n.Dir) })
	want := []string{
		" .",
		"module.net modules/net",
		"module.net.module.sub modules/common",
		"module.reg .terraform/modules/reg",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
	if len(buildDiags) != 1 || buildDiags[0].Summary != "Module not installed" || buildDiags[0].Subject.Start.Line != 6 {
		t.Errorf("build diagnostics = %v, want one Module not installed at line 6", buildDiags)
	}
	net := tree.Children["net"].Module
	if r := net.ManagedResources["aws_vpc.v"]; r == nil || r.DeclRange.Filename != "modules/net/main.tf" {
		t.Errorf("child file names should be relative to the root: %+v", r)
	}
	if got := tree.Children["reg"].SourceAddr; got != "registry.opentofu.org/hashicorp/consul/aws" {
		t.Errorf("registry source = %q", got)
	}
}

func TestDiscoverFiles(t *testing.T) {
	fsys := fstest.MapFS{
		"a.tf":                 {Data: []byte("")},
		"a.tofu":               {Data: []byte("")},
		"b.tf.json":            {Data: []byte("{}")},
		"b.tofu":               {Data: []byte("")},
		"override.tf":          {Data: []byte("")},
		"x_override.tf.json":   {Data: []byte("{}")},
		"x_override.tofu.json": {Data: []byte("{}")},
		".hidden.tf":           {Data: []byte("")},
		"#lock.tf#":            {Data: []byte("")},
		"backup.tf~":           {Data: []byte("")},
		"t.tftest.hcl":         {Data: []byte("")},
		"tests/u.tftest.hcl":   {Data: []byte("")},
		"tests/u.tofutest.hcl": {Data: []byte("")},
		"dir.tf/x":             {Data: []byte("")},
	}
	files, diags := DiscoverFiles(FS(fsys), ".", "tests")
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	want := Files{
		Primary:  []string{"a.tofu", "b.tf.json", "b.tofu"},
		Override: []string{"override.tf", "x_override.tofu.json"},
		Tests:    []string{"tests/u.tofutest.hcl", "t.tftest.hcl"},
		TestKeys: []string{"tests/u.tofutest.hcl", "t.tftest.hcl"},
	}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}

	_, diags = DiscoverFiles(FS(fsys), ".", "spec")
	if len(diags) != 1 || diags[0].Summary != "Test directory does not exist" || diags[0].Detail != "Requested test directory spec does not exist." {
		t.Errorf("missing non-default test dir: %v", diags)
	}
	_, diags = DiscoverFiles(FS(fsys), "nope", "")
	if len(diags) != 1 || diags[0].Detail != "Module directory nope does not exist or cannot be read." {
		t.Errorf("missing module dir: %v", diags)
	}
}

func TestTestFiles(t *testing.T) {
	fsys := fstest.MapFS{
		"main.tf":            {Data: []byte("resource \"aws_instance\" \"x\" {}\n")},
		"tests/a.tftest.hcl": {Data: []byte("provider \"aws\" {\n  region = \"x\"\n}\nrun \"one\" {\n  module {\n    source = \"./setup\"\n  }\n}\nrun \"two\" {}\n")},
		"b.tofutest.json":    {Data: []byte(`{"run": {"three": {}}}`)},
	}
	m, diags := LoadDir(".", WithFileSystem(FS(fsys)), WithTestsDir("tests"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if diff := cmp.Diff([]string{"b.tofutest.json", "tests/a.tftest.hcl"}, m.TestFileNames()); diff != "" {
		t.Fatalf("test files (-want +got):\n%s", diff)
	}
	a := m.Tests["tests/a.tftest.hcl"]
	if len(a.Providers) != 1 || a.Providers[0].Name != "aws" {
		t.Errorf("providers = %+v", a.Providers)
	}
	if len(a.Runs) != 2 || a.Runs[0].ModuleSource != "./setup" || a.Runs[1].ModuleSource != "" {
		t.Errorf("runs = %+v %+v", a.Runs[0], a.Runs[1])
	}
	if len(m.Tests["b.tofutest.json"].Runs) != 1 {
		t.Errorf("JSON runs = %+v", m.Tests["b.tofutest.json"].Runs)
	}
}
