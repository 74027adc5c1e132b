package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// treeLines lists "PATH DIR" for every module of a tree.
func treeLines(tree *Tree) []string {
	var got []string
	tree.Walk(func(n *Tree) { got = append(got, n.PathString()+" "+n.Dir) })
	return got
}

// diagLines lists "SEVERITY SUMMARY @FILE:LINE | DETAIL" for diagnostics.
func diagLines(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		pos := "-"
		if d.Subject != nil {
			pos = fmt.Sprintf("%s:%d,%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
		}
		out = append(out, sev+" "+d.Summary+" @"+pos+" | "+d.Detail)
	}
	return out
}

const notInstalled = `This module is not yet installed. Run "tofu init" to install all modules required by this configuration.`

func TestLoadTreeThroughManifest(t *testing.T) {
	fsys := fstest.MapFS{
		"main.tf":                         {Data: []byte("module \"net\" { source = \"./modules/net\" }\nmodule \"reg\" {\n  source  = \"hashicorp/consul/aws\"\n  version = \"1.0.0\"\n}\nmodule \"gone\" { source = \"git::https://example.com/x.git\" }\n")},
		"modules/net/main.tf":             {Data: []byte("module \"sub\" { source = \"../common\" }\nresource \"aws_vpc\" \"v\" {}\n")},
		"modules/common/main.tf":          {Data: []byte("variable \"x\" {}\n")},
		".terraform/modules/modules.json": {Data: []byte(`{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"net","Source":"./modules/net","Dir":"modules/net"},{"Key":"net.sub","Source":"../common","Dir":"modules/common"},{"Key":"reg","Source":"registry.opentofu.org/hashicorp/consul/aws","Version":"1.0.0","Dir":".terraform/modules/reg"}]}`)},
		".terraform/modules/reg/main.tf":  {Data: []byte("output \"o\" { value = 1 }\n")},
	}
	tree, rootDiags, buildDiags := LoadTree(".", WithFileSystem(FS(fsys)))
	if rootDiags.HasErrors() {
		t.Fatal(rootDiags)
	}
	want := []string{" .", "module.net modules/net", "module.net.module.sub modules/common", "module.reg .terraform/modules/reg"}
	if diff := cmp.Diff(want, treeLines(tree)); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"error Module not installed @main.tf:6,1 | " + notInstalled}, diagLines(buildDiags)); diff != "" {
		t.Errorf("build diagnostics (-want +got):\n%s", diff)
	}
	if r := tree.Children["net"].Module.ManagedResources["aws_vpc.v"]; r == nil || r.DeclRange.Filename != "modules/net/main.tf" {
		t.Errorf("child file names should be relative to the root: %+v", r)
	}
	if got := tree.Children["reg"].SourceAddr; got != "registry.opentofu.org/hashicorp/consul/aws" {
		t.Errorf("registry source = %q", got)
	}
}

func TestManifestWalkerErrors(t *testing.T) {
	const main = "module \"a\" {\n  source = \"./a\"\n}\n"
	const versioned = "module \"a\" {\n  source  = \"acme/a/aws\"\n  version = \"~> 1.0\"\n}\n"
	tests := []struct {
		name, main, manifest string
		want                 []string
	}{
		{"local not installed", main, `{"Modules":[{"Key":"","Source":"","Dir":"."}]}`,
			[]string{"error Module not installed @main.tf:1,1 | " + notInstalled}},
		{"no manifest", main, ``,
			[]string{"error Module not installed @main.tf:1,1 | " + notInstalled}},
		{"source changed", main, `{"Modules":[{"Key":"a","Source":"./b","Dir":"a"}]}`,
			[]string{`error Module source has changed @main.tf:2,12 | The source address was changed from "./b" to "./a" since this module was installed. Run "tofu init" to install all modules required by this configuration.`}},
		{"source renormalised on read", main, `{"Modules":[{"Key":"a","Source":"./x/../a/","Dir":"a"}]}`, nil},
		{"unreadable dir", main, `{"Modules":[{"Key":"a","Source":"./a","Dir":"nope"}]}`,
			[]string{`error Module not installed @main.tf:1,1 | This module's local cache directory nope could not be read. Run "tofu init" to install all modules required by this configuration.`}},
		{"version no longer acceptable", versioned, `{"Modules":[{"Key":"a","Source":"registry.opentofu.org/acme/a/aws","Version":"2.0.0","Dir":"a"}]}`,
			[]string{`error Module version requirements have changed @main.tf:2,13 | The version requirements have changed since this module was installed and the installed version (2.0.0) is no longer acceptable. Run "tofu init" to install all modules required by this configuration.`}},
		{"version still acceptable", versioned, `{"Modules":[{"Key":"a","Source":"registry.opentofu.org/acme/a/aws","Version":"1.3.0","Dir":"a"}]}`, nil},
		{"version recorded without one", versioned, `{"Modules":[{"Key":"a","Source":"registry.opentofu.org/acme/a/aws","Dir":"a"}]}`,
			[]string{`error Module version requirements have changed @main.tf:2,13 | The version requirements have changed since this module was installed and the installed version is no longer acceptable. Run "tofu init" to install all modules required by this configuration.`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"main.tf": {Data: []byte(tt.main)}, "a/main.tf": {Data: []byte("")}}
			if tt.manifest != "" {
				fsys[".terraform/modules/modules.json"] = &fstest.MapFile{Data: []byte(tt.manifest)}
			}
			_, rootDiags, buildDiags := LoadTree(".", WithFileSystem(FS(fsys)))
			if rootDiags.HasErrors() {
				t.Fatal(rootDiags)
			}
			if diff := cmp.Diff(tt.want, diagLines(buildDiags)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadTreeBrokenManifest(t *testing.T) {
	fsys := fstest.MapFS{"main.tf": {Data: []byte("")}, ".terraform/modules/modules.json": {Data: []byte(`{"Modules":[`)}}
	_, rootDiags, _ := LoadTree(".", WithFileSystem(FS(fsys)))
	want := []string{"error failed to read module manifest: error unmarshalling snapshot: unexpected end of JSON input @- | "}
	if diff := cmp.Diff(want, diagLines(rootDiags)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLocalFromDisk(t *testing.T) {
	fsys := fstest.MapFS{
		"main.tf":                {Data: []byte("module \"net\" { source = \"./modules/net\" }\nmodule \"gone\" { source = \"git::https://example.com/x.git\" }\n")},
		"modules/net/main.tf":    {Data: []byte("module \"sub\" { source = \"../common\" }\n")},
		"modules/common/main.tf": {Data: []byte("")},
	}
	opt := WithFileSystem(FS(fsys))
	tree, _, buildDiags := LoadTreeWith(".", LocalFromDisk(NewManifestWalker(nil, ".", opt), opt), opt)
	want := []string{" .", "module.net modules/net", "module.net.module.sub modules/common"}
	if diff := cmp.Diff(want, treeLines(tree)); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"error Module not installed @main.tf:2,1 | " + notInstalled}, diagLines(buildDiags)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// writeTree writes files (slash paths) under dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestModuleCycles(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"self call", map[string]string{
			"main.tf": "module \"self\" {\n  source = \"./\"\n}\n",
			"m.json":  `{"Modules":[{"Key":"self","Source":"./.","Dir":"."},{"Key":"self.self","Source":"./.","Dir":"."}]}`,
		}, []string{"error Module call cycle @main.tf:1,1 | The module call module.self loads the directory ., which the root module has already loaded on this path, so the module tree would never end: the root module → module.self (main.tf:1). A module must not call itself, directly or through other modules."}},
		{"a b a", map[string]string{
			"main.tf":   "module \"a\" {\n  source = \"./a\"\n}\n",
			"a/main.tf": "\nmodule \"b\" {\n  source = \"../b\"\n}\n",
			"b/main.tf": "\n\nmodule \"a\" {\n  source = \"../a\"\n}\n",
			"m.json":    `{"Modules":[{"Key":"a","Source":"./a","Dir":"a"},{"Key":"a.b","Source":"../b","Dir":"b"},{"Key":"a.b.a","Source":"../a","Dir":"a"}]}`,
		}, []string{"error Module call cycle @b/main.tf:3,1 | The module call module.a.module.b.module.a loads the directory a, which module.a has already loaded on this path, so the module tree would never end: module.a → module.a.module.b (a/main.tf:2) → module.a.module.b.module.a (b/main.tf:3). A module must not call itself, directly or through other modules."}},
		{"left right", map[string]string{
			"main.tf": "module \"left\" {\n  source = \"./\"\n}\nmodule \"right\" {\n  source = \"./\"\n}\n",
			"m.json":  `{"Modules":[{"Key":"left","Source":"./.","Dir":"."},{"Key":"right","Source":"./.","Dir":"."}]}`,
		}, []string{
			"error Module call cycle @main.tf:1,1 | The module call module.left loads the directory ., which the root module has already loaded on this path, so the module tree would never end: the root module → module.left (main.tf:1). A module must not call itself, directly or through other modules.",
			"error Module call cycle @main.tf:4,1 | The module call module.right loads the directory ., which the root module has already loaded on this path, so the module tree would never end: the root module → module.right (main.tf:4). A module must not call itself, directly or through other modules.",
		}},
		{"through a symlink", map[string]string{
			"main.tf":   "module \"a\" {\n  source = \"./a\"\n}\n",
			"a/main.tf": "module \"again\" {\n  source = \"../link\"\n}\n",
			"m.json":    `{"Modules":[{"Key":"a","Source":"./a","Dir":"a"},{"Key":"a.again","Source":"../link","Dir":"link"}]}`,
		}, []string{"error Module call cycle @a/main.tf:1,1 | The module call module.a.module.again loads the directory link, which module.a has already loaded on this path, so the module tree would never end: module.a → module.a.module.again (a/main.tf:1). A module must not call itself, directly or through other modules."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{}
			for k, v := range tt.files {
				files[k] = v
			}
			files[".terraform/modules/modules.json"] = files["m.json"]
			delete(files, "m.json")
			writeTree(t, dir, files)
			if err := os.Symlink("a", filepath.Join(dir, "link")); err != nil {
				t.Fatal(err)
			}
			_, rootDiags, buildDiags := LoadTree(".", WithFileSystem(OSFileSystem{Root: dir}))
			if rootDiags.HasErrors() {
				t.Fatal(rootDiags)
			}
			if diff := cmp.Diff(tt.want, diagLines(buildDiags)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// chain writes n nested local modules m1/m2/.../mn with their manifest.
func chain(t testing.TB, dir string, n int) {
	files := map[string]string{"main.tf": "module \"m\" {\n  source = \"./m\"\n}\n"}
	var records []string
	key, d := "", ""
	for i := 1; i <= n; i++ {
		key = strings.TrimPrefix(key+".m", ".")
		d = strings.TrimPrefix(d+"/m", "/")
		body := "module \"m\" {\n  source = \"./m\"\n}\n"
		if i == n {
			body = "terraform {\n  required_providers {\n    leaf = { source = \"acme/leaf\" }\n  }\n}\n"
		}
		files[d+"/main.tf"] = body
		records = append(records, fmt.Sprintf(`{"Key":%q,"Source":"./m","Dir":%q}`, key, d))
	}
	files[".terraform/modules/modules.json"] = `{"Modules":[` + strings.Join(records, ",") + `]}`
	writeTree(t, dir, files)
}

func TestDeepLegitimateChain(t *testing.T) {
	dir := t.TempDir()
	chain(t, dir, 150)
	tree, rootDiags, buildDiags := LoadTree(".", WithFileSystem(OSFileSystem{Root: dir}))
	if len(rootDiags)+len(buildDiags) > 0 {
		t.Fatal(rootDiags, buildDiags)
	}
	depth := 0
	var leaf *Tree
	tree.Walk(func(n *Tree) {
		if len(n.Path) > depth {
			depth, leaf = len(n.Path), n
		}
	})
	if depth != 150 {
		t.Fatalf("depth = %d, want 150", depth)
	}
	if _, ok := leaf.Module.RequiredProviders.RequiredProviders["leaf"]; !ok {
		t.Errorf("leaf module lacks its required provider: %+v", leaf.Module.RequiredProviders)
	}
}

func TestTreeDepthLimit(t *testing.T) {
	fsys := FS(fstest.MapFS{"main.tf": {Data: []byte("module \"m\" {\n  source = \"./m\"\n}\n")}})
	root, diags := LoadDir(".", WithFileSystem(fsys))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// Every level is a new directory, as remote packages are, so only the
	// depth limit stops the walk.
	w := ModuleWalkerFunc(func(req *ModuleRequest) (*Module, string, hcl.Diagnostics) {
		return root, fmt.Sprintf("d%d", len(req.Path)), nil
	})
	_, diags = BuildTree(root, w, WithFileSystem(fsys))
	if len(diags) != 1 {
		t.Fatalf("got %d diagnostics, want 1: %v", len(diags), diags)
	}
	d := diags[0]
	if d.Summary != "Module tree too deep" || !strings.Contains(d.Detail, "nested 1001 modules deep, more than tfdeps' limit of 1000") {
		t.Errorf("got %s: %s", d.Summary, d.Detail)
	}
}

func BenchmarkBuildTreeLeftRight(b *testing.B) {
	dir := b.TempDir()
	writeTree(b, dir, map[string]string{
		"main.tf":                         "module \"left\" {\n  source = \"./\"\n}\nmodule \"right\" {\n  source = \"./\"\n}\n",
		".terraform/modules/modules.json": `{"Modules":[{"Key":"left","Source":"./.","Dir":"."},{"Key":"right","Source":"./.","Dir":"."}]}`,
	})
	for b.Loop() {
		LoadTree(".", WithFileSystem(OSFileSystem{Root: dir}))
	}
}
