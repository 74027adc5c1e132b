package providerinstall

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/hashes"
)

// newMirrorPackage writes a small unpacked package and returns its path.
func newMirrorPackage(t *testing.T) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "mirror", "linux_amd64")
	mustWrite(t, filepath.Join(src, "terraform-provider-foo_v1.0.0"), "bin")
	if err := os.Chmod(filepath.Join(src, "terraform-provider-foo_v1.0.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(src, "docs", "README.md"), "doc")
	mustWrite(t, filepath.Join(src, ".hidden"), "skipped by copies")
	return src
}

func TestLinkSymlink(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, dst string)
	}{
		{name: "absent", prepare: func(*testing.T, string) {}},
		{name: "replaces a directory", prepare: func(t *testing.T, dst string) {
			mustWrite(t, filepath.Join(dst, "old"), "x")
		}},
		{name: "replaces a symlink", prepare: func(t *testing.T, dst string) {
			mustMkdir(t, filepath.Dir(dst))
			if err := os.Symlink(t.TempDir(), dst); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := newMirrorPackage(t)
			dst := filepath.Join(t.TempDir(), "providers", "h", "n", "t", "1.0.0", "linux_amd64")
			tt.prepare(t, dst)
			if err := Link(src, dst); err != nil {
				t.Fatal(err)
			}
			got, err := os.Readlink(dst)
			if err != nil || got != src {
				t.Errorf("Readlink(dst) = %q, %v; want %q", got, err, src)
			}
			checkNoStaging(t, filepath.Dir(dst))
		})
	}
}

func TestLinkRelativeSourceBecomesAbsolute(t *testing.T) {
	src := newMirrorPackage(t)
	t.Chdir(filepath.Dir(filepath.Dir(src)))
	dst := filepath.Join(t.TempDir(), "linux_amd64")
	if err := Link(filepath.Join("mirror", "linux_amd64"), dst); err != nil {
		t.Fatal(err)
	}
	got, _ := os.Readlink(dst)
	if !filepath.IsAbs(got) || filepath.Base(got) != "linux_amd64" {
		t.Errorf("link target %q is not the absolute source path", got)
	}
}

func TestLinkCopiesWhenSymlinksFail(t *testing.T) {
	src := newMirrorPackage(t)
	dst := filepath.Join(t.TempDir(), "1.0.0", "linux_amd64")
	noSymlinks := func(string, string) error { return errors.New("symlinks not supported") }
	if err := linkWith(noSymlinks, src, dst); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"docs drwxr-xr-x",
		"docs/README.md -rw-r--r--",
		"terraform-provider-foo_v1.0.0 -rwxr-xr-x",
	}
	if diff := cmp.Diff(want, treeListing(t, dst)); diff != "" {
		t.Errorf("copied tree (-want +got):\n%s", diff)
	}
	checkNoStaging(t, filepath.Dir(dst))
	srcH1, _ := hashes.HashDir(src)
	dstH1, _ := hashes.HashDir(dst)
	if srcH1 == dstH1 {
		t.Errorf("h1 of the copy equals the source's although .hidden was skipped")
	}
}

func TestLinkToItself(t *testing.T) {
	src := newMirrorPackage(t)
	err := Link(src, src)
	want := "cannot install existing provider directory " + src + " to itself"
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
	if _, err := os.Stat(filepath.Join(src, "terraform-provider-foo_v1.0.0")); err != nil {
		t.Errorf("source damaged: %v", err)
	}
}

func TestLinkRelinkSameTarget(t *testing.T) {
	// A target that is already a symlink to the source is not "the same
	// file": it is replaced by a fresh link, as OpenTofu does.
	src := newMirrorPackage(t)
	dst := filepath.Join(t.TempDir(), "linux_amd64")
	for i := 0; i < 2; i++ {
		if err := Link(src, dst); err != nil {
			t.Fatalf("link %d: %v", i, err)
		}
	}
	if got, _ := os.Readlink(dst); got != src {
		t.Errorf("Readlink = %q, want %q", got, src)
	}
}

func checkNoStaging(t *testing.T, parent string) {
	t.Helper()
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if strings.Contains(e.Name(), stagingMarker) {
			t.Errorf("staging entry %s left in %s", e.Name(), parent)
		}
	}
}
