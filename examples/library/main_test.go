package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/internal/cli"
)

// TestSameAsInit runs "tfdeps init -plugin-dir=DIR" and this program on
// the same directory (the basic example: a local module, a module archive,
// a provider from a filesystem mirror) and compares every file they write,
// byte for byte.
func TestSameAsInit(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "basic"))
	if err != nil {
		t.Fatal(err)
	}
	mirror := filepath.Join(src, "mirror")
	platform := addrs.CurrentPlatform().String()
	if _, err := os.Stat(filepath.Join(mirror, "registry.opentofu.org", "hashicorp", "random", "terraform-provider-random_3.6.0_"+platform+".zip")); err != nil {
		t.Skipf("the example's mirror has no package for %s", platform)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("TFDEPS_MODULE_CACHE_DIR", "off")
	t.Chdir(dir)

	var out, errOut bytes.Buffer
	env := cli.Env{Args: []string{"init", "-no-color", "-plugin-dir=" + mirror}, Stdout: &out, Stderr: &errOut, Getenv: os.Getenv, Environ: os.Environ, Getwd: os.Getwd, Chdir: os.Chdir}
	if code := cli.Main(env); code != 0 {
		t.Fatalf("tfdeps init: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	want := written(t, dir)
	// The same starting point: the example's lock file, no .terraform.
	if err := os.RemoveAll(".terraform"); err != nil {
		t.Fatal(err)
	}
	lock, err := os.ReadFile(filepath.Join(src, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(".terraform.lock.hcl", lock, 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run(context.Background(), []string{mirror}); code != 0 {
		t.Fatalf("library: exit %d", code)
	}
	got := written(t, dir)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files written (-init +library):\n%s", diff)
	}
	if _, ok := want[filepath.Join(".terraform", "modules", "modules.json")]; !ok {
		t.Errorf("init wrote no modules.json: %v", want)
	}
}

// written maps the lock file and every file and symbolic link under
// .terraform to its content (a link: its target).
func written(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	if b, err := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl")); err == nil {
		files[".terraform.lock.hcl"] = string(b)
	}
	err := filepath.WalkDir(filepath.Join(dir, ".terraform"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			files[rel] = "-> " + target
			return err
		case d.IsDir():
			files[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(path)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
