package moduleinstall

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEvalSymlinksInDir: local sources are resolved link by link below
// the working directory, giving what filepath.EvalSymlinks gives from
// inside it: relative results stay relative, a link to an absolute path
// makes the result absolute, and links in the working directory's own
// path are not resolved.
func TestEvalSymlinksInDir(t *testing.T) {
	real := t.TempDir()
	outside := t.TempDir()
	for _, d := range []string{"modules/a", "modules/b", "shared"} {
		if err := os.MkdirAll(filepath.Join(real, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"rel":          "modules",
		"modules/up":   "../shared",
		"abs":          outside,
		"chain":        "rel/a",
		"modules/self": ".",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(real, name)); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
	}
	if err := os.WriteFile(filepath.Join(real, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// The working directory is reached through a link of its own.
	dir := filepath.Join(t.TempDir(), "wd")
	if err := os.Symlink(real, dir); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, want string
		err        bool
	}{
		{path: "modules/a", want: "modules/a"},
		{path: "./modules/a/../b", want: "modules/b"},
		{path: "rel/a", want: "modules/a"},
		{path: "modules/up", want: "shared"},
		{path: "chain", want: "modules/a"},
		{path: "modules/self/self/a", want: "modules/a"},
		{path: "abs", want: outside},
		{path: "../" + filepath.Base(real) + "/modules", want: "../" + filepath.Base(real) + "/modules"},
		{path: "../wd/modules", err: true}, // beside the real directory
		{path: ".", want: "."},
		{path: "nope", err: true},
		{path: "file/x", err: true},
	}
	o := &Options{Dir: dir}
	for _, tc := range tests {
		got, err := o.evalSymlinks(tc.path)
		if tc.err {
			if err == nil {
				t.Errorf("%s: %q, want an error", tc.path, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s = %q, %v; want %q", tc.path, got, err, tc.want)
		}
	}
	if _, err := o.evalSymlinks("nope"); err == nil || err.Error() != "lstat nope: no such file or directory" {
		t.Errorf("error = %v, want the path as given", err)
	}
}
