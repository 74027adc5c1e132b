package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/conformance"
	"github.com/tfdeps/tfdeps/moduleaddr"
)

func TestModuleCallSource(t *testing.T) {
	const regHint = ".\n\nOpenTofu assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules."
	tests := []struct {
		name, body string
		want       moduleaddr.Source
		diags      []string
	}{
		{name: "local", body: `source = "./modules//b/"`, want: moduleaddr.Local("./modules/b")},
		{name: "registry", body: `source = "hashicorp/consul/aws"`, want: moduleaddr.Registry{Host: "registry.opentofu.org", Namespace: "hashicorp", Name: "consul", System: "aws"}},
		{name: "remote", body: `source = "github.com/a/b//c?ref=v1"`, want: moduleaddr.Remote{Package: "git::https://github.com/a/b.git?ref=v1", Subdir: "c"}},
		{name: "from a variable", body: `source = "./${var.dir}"`, want: moduleaddr.Local("./mods")},
		{name: "relative without dot", body: `source = "modules/x"`, diags: []string{
			`error Invalid module source address @main.tf:3,12 | OpenTofu failed to determine your intended installation method for remote module package "modules/x".` +
				"\n\nIf you intended this as a path relative to the current module, use \"./modules/x\" instead. The \"./\" prefix indicates that the address is a relative filesystem path."}},
		{name: "forced getter hint", body: `source = "foo::bar"`, diags: []string{
			`error Invalid module source address @main.tf:3,12 | OpenTofu failed to determine your intended installation method for remote module package "bar".` +
				"\n\nIf you intended this as a path relative to the current module, use \"./bar\" instead. The \"./\" prefix indicates that the address is a relative filesystem path."}},
		{name: "escaping subdir", body: `source = "git::https://x/y.git//../z"`, diags: []string{
			`error Invalid module source address @main.tf:3,12 | Failed to parse module source address: subdirectory path "../z" leads outside of the module package.`}},
		{name: "local with version", body: "source = \"../boop\"\n  version = \"1.0.0\"", diags: []string{
			`error Invalid registry module source address @main.tf:3,12 | Failed to parse module registry address: can't use local directory "../boop" as a module registry address` + regHint}},
		{name: "git with version", body: "source = \"git::https://x/y.git\"\n  version = \"1.0.0\"", diags: []string{
			`error Invalid registry module source address @main.tf:3,12 | Failed to parse module registry address: invalid module registry hostname "git::https:"` + regHint}},
		{name: "registry with version", body: "source = \"acme/net/aws//sub\"\n  version = \"1.0.0\"", want: moduleaddr.Registry{Host: "registry.opentofu.org", Namespace: "acme", Name: "net", System: "aws", Subdir: "sub"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "variable \"dir\" { default = \"mods\" }\nmodule \"m\" {\n  " + tt.body + "\n}\n"
			mod, diags := LoadDir(".", WithFileSystem(FS(fstest.MapFS{"main.tf": {Data: []byte(src)}})))
			if diff := cmp.Diff(tt.diags, diagLines(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, mod.ModuleCalls["m"].Source); diff != "" {
				t.Errorf("source (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConformanceModuleSourceErrors loads the root module of the modules
// conformance case config-errors and checks each source diagnostic's
// summary, line and detail against what OpenTofu printed (details compared
// with the word wrapping undone).
func TestConformanceModuleSourceErrors(t *testing.T) {
	dir := conformance.Dir(t, "modules", "config-errors")
	recorded, err := os.ReadFile(filepath.Join(dir, "recorded-output.txt"))
	if err != nil {
		t.Fatal(err)
	}
	wantSummaries, err := os.ReadFile(filepath.Join(dir, "expected-errors.txt"))
	if err != nil {
		t.Fatal(err)
	}
	_, diags := LoadDir(".", WithFileSystem(OSFileSystem{Root: filepath.Join(dir, "in")}))
	var got []string
	flat := strings.Join(strings.Fields(string(recorded)), " ")
	for _, d := range diags {
		got = append(got, "Error: "+d.Summary)
		where := fmt.Sprintf("on main.tf line %d,", d.Subject.Start.Line)
		if !strings.Contains(flat, where) {
			t.Errorf("%s: OpenTofu reported nothing %s", d.Summary, where)
		}
		if detail := strings.Join(strings.Fields(d.Detail), " "); !strings.Contains(flat, detail) {
			t.Errorf("detail not in OpenTofu's output: %s", detail)
		}
	}
	sort.Strings(got)
	if diff := cmp.Diff(strings.Fields(strings.ReplaceAll(string(wantSummaries), "Error: ", "Error:_")), strings.Fields(strings.ReplaceAll(strings.Join(got, "\n"), "Error: ", "Error:_"))); diff != "" {
		t.Errorf("summaries (-want +got):\n%s", diff)
	}
}
