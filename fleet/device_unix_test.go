//go:build unix

package fleet

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRunParentOnRootsFileSystem: the run's directory goes where its
// files can be hard-linked into the roots: the temporary directory when
// it is on the roots' file system, else the user cache directory.
func TestRunParentOnRootsFileSystem(t *testing.T) {
	base := t.TempDir()
	near := filepath.Join(base, "repo")
	if err := os.Mkdir(near, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := runParent(SharedOptions{TempDir: "/given", Near: near}); got != "/given" {
		t.Errorf("with TempDir: %q", got)
	}
	t.Setenv("TMPDIR", base)
	if got := runParent(SharedOptions{Near: near}); got != base {
		t.Errorf("temporary directory on the roots' file system: %q, want %q", got, base)
	}

	other := "/dev/shm"
	nearDev, _ := device(near)
	if d, ok := device(other); !ok || d == nearDev {
		t.Skipf("no second file system to put the temporary directory on (%s)", other)
	}
	t.Setenv("TMPDIR", other)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(base, "cache"))
	if got, want := runParent(SharedOptions{Near: near}), filepath.Join(base, "cache", "tfdeps"); got != want {
		t.Errorf("temporary directory elsewhere: %q, want %q", got, want)
	}
	t.Setenv("XDG_CACHE_HOME", filepath.Join(other, "cache-"+filepath.Base(base)))
	defer os.RemoveAll(filepath.Join(other, "cache-"+filepath.Base(base)))
	if got := runParent(SharedOptions{Near: near}); got != "" {
		t.Errorf("no candidate on the roots' file system: %q, want the default", got)
	}
}
