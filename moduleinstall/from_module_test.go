package moduleinstall

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
)

func TestCheckEmptyTarget(t *testing.T) {
	tests := []struct {
		name    string
		entries []string // a trailing "/" makes a directory
		want    string   // summary; "" for none
	}{
		{"empty", nil, ""},
		{"data directory only", []string{".terraform/"}, ""},
		{"data directory with files", []string{".terraform/", ".terraform/x"}, ""},
		{"configuration file", []string{"main.tf"}, "Can't populate non-empty directory"},
		{"other file", []string{"README.md"}, "Can't populate non-empty directory"},
		{"dot-file", []string{".gitignore"}, "Can't populate non-empty directory"},
		{"dot-directory", []string{".git/"}, "Can't populate non-empty directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, e := range tc.entries {
				p := filepath.Join(dir, e)
				var err error
				if e[len(e)-1] == '/' {
					err = os.MkdirAll(p, 0o777)
				} else {
					err = os.WriteFile(p, nil, 0o666)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			got := ""
			if d := checkEmptyTarget(&Options{}, dir); d != nil {
				got = d.Summary
			}
			if got != tc.want {
				t.Errorf("checkEmptyTarget = %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("missing", func(t *testing.T) {
		d := checkEmptyTarget(&Options{}, filepath.Join(t.TempDir(), "nope"))
		if d == nil || d.Summary != "Target directory does not exist" {
			t.Errorf("checkEmptyTarget = %v, want Target directory does not exist", d)
		}
	})
}

func TestParentReference(t *testing.T) {
	tests := []struct {
		source, raw string
		want        string // the suggested address; "" for no error
	}{
		{"git::https://example.com/x.git", "./child", ""},
		{"git::https://example.com/x.git", "../other", ""}, // would leave the package
		{"git::https://example.com/x.git//modules/a", "../b", "git::https://example.com/x.git//modules/b"},
		// As OpenTofu writes them: "//." for the package's root, the query
		// before the subdirectory.
		{"git::https://example.com/x.git//modules/a", "../..", "git::https://example.com/x.git//."},
		{"git::https://example.com/x.git//a/b?ref=v1", "../c", "git::https://example.com/x.git?ref=v1//a/c"},
		{"acme/net/aws//modules/a", "../b/c", "acme/net/aws//modules/b/c"},
		{"/abs/pkg//a", "./../b", ""}, // not written with a leading "../"
	}
	for _, tc := range tests {
		t.Run(tc.source+" "+tc.raw, func(t *testing.T) {
			d := parentReference(tc.source, tc.raw)
			got := ""
			if d != nil {
				got = d.Detail
			}
			want := ""
			if tc.want != "" {
				want = "The requested module \"" + tc.source + "\" refers to a module via its parent directory. To use this as a new root module this source string must be rewritten as a remote source address, such as \"" + tc.want + "\"."
			}
			if got != want {
				t.Errorf("parentReference(%q, %q) detail:\n got %q\nwant %q", tc.source, tc.raw, got, want)
			}
		})
	}
}

// TestInstallFromModuleLocal copies a local module with a local and an
// absolute-path child: dot entries are left out, the module's calls are
// placed under their new keys and the staging directory is gone.
func TestInstallFromModuleLocal(t *testing.T) {
	base := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("src/main.tf", "module \"local\" {\n  source = \"./local\"\n}\nmodule \"abs\" {\n  source = \""+filepath.Join(base, "other")+"\"\n}\n")
	write("src/local/main.tf", "")
	write("src/.hidden/x", "")
	write("src/.terraform.lock.hcl", "")
	write("src/notes.txt", "n")
	write("other/main.tf", "")
	write("other/.git/HEAD", "")
	write("w/.terraform/keep", "")
	t.Chdir(filepath.Join(base, "w"))

	rec := &recorder{}
	diags := InstallFromModule(context.Background(), "../src", Options{ModsDir: filepath.Join(".terraform", "modules"), Events: rec, Parallelism: -1})
	if diags.HasErrors() {
		t.Fatalf("InstallFromModule: %v", diags)
	}
	var got []string
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			got = append(got, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	want := []string{".terraform/keep", ".terraform/modules/abs/main.tf", ".terraform/modules/modules.json", "local/main.tf", "main.tf", "notes.txt"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	// A local call of the module is recorded, as OpenTofu records it,
	// relative to the working directory at its original place: the module
	// was fetched as a link to it.
	wantEvents := []string{"Downloading file://" + filepath.ToSlash(filepath.Join(base, "other")) + " for abs...", "- abs in .terraform/modules/abs", "- local in ../src/local"}
	if diff := cmp.Diff(wantEvents, rec.lines); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	m, err := manifest.Read(filepath.Join(".terraform", "modules", manifest.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m["local"].Dir, filepath.Join("..", "src", "local"); got != want {
		t.Errorf("local module's Dir = %q, want %q", got, want)
	}
	if got, want := m[""].Dir, "."; got != want {
		t.Errorf("root's Dir = %q, want %q", got, want)
	}
}
