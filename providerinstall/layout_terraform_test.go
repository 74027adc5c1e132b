package providerinstall

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/lockfile"
)

// tree lists the files and directories under root (slash paths, "/"
// after directories), for comparing layouts.
func tree(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && path == root {
				return fs.SkipAll
			}
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			rel += "/"
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func lockFilesIn(paths []string) []string {
	var out []string
	for _, p := range paths {
		if strings.HasSuffix(p, ".lock") {
			out = append(out, p)
		}
	}
	return out
}

// terraformEnv is an install environment of the Terraform flavour, with a
// plugin cache and the lock directory apart.
func terraformEnv(t *testing.T) (*installEnv, string, Dir) {
	e := newInstallEnv(t)
	locks := filepath.Join(t.TempDir(), "locks")
	cache := NewDir(t.TempDir())
	e.in.Flavour = flavour.Terraform
	e.in.LockDir = locks
	e.in.Cache = &cache
	return e, locks, cache
}

// TestInstallTerraformNoLockFiles: Terraform writes no OS_ARCH.lock, in the
// providers directory or in the plugin cache; tfdeps' locks go to LockDir.
// The OpenTofu flavour keeps them beside the packages.
func TestInstallTerraformNoLockFiles(t *testing.T) {
	e, locks, cache := terraformEnv(t)
	if _, _, err := e.install(t, Requirements{provBar: nil, provFoo: nil}, nil, NewProvidersOnly); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{e.in.Target.Base(), cache.Base()} {
		if got := lockFilesIn(tree(t, root)); len(got) != 0 {
			t.Errorf("lock files under %s: %q, want none", root, got)
		}
	}
	if got := len(lockFilesIn(tree(t, locks))); got == 0 {
		t.Errorf("no lock file in the lock directory %s", locks)
	}

	o := newInstallEnv(t)
	if _, _, err := o.install(t, Requirements{provBar: nil}, nil, NewProvidersOnly); err != nil {
		t.Fatal(err)
	}
	want := []string{"registry.opentofu.org/hashicorp/bar/0.3.0/linux_amd64.lock"}
	if diff := cmp.Diff(want, lockFilesIn(tree(t, o.in.Target.Base()))); diff != "" {
		t.Errorf("OpenTofu flavour lock files (-want +got):\n%s", diff)
	}
}

// TestInstallTerraformFailedInstallLeavesNoDirectory: a refused package
// leaves nothing, while a package installed beside it stays whole.
func TestInstallTerraformFailedInstallLeavesNoDirectory(t *testing.T) {
	for _, withCache := range []bool{false, true} {
		name := "no cache"
		if withCache {
			name = "plugin cache"
		}
		t.Run(name, func(t *testing.T) {
			e, _, cache := terraformEnv(t)
			if !withCache {
				e.in.Cache = nil
			}
			old := lockfile.New()
			old.SetProvider(provFoo, instVersion("1.1.0"), nil, []hashes.Hash{"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "zh:0000"})
			_, _, err := e.install(t, Requirements{provFoo: nil, provBar: nil}, old, NewProvidersOnly)
			if err == nil {
				t.Fatal("no error for a package not matching the lock")
			}
			bar := "registry.opentofu.org/hashicorp/bar/0.3.0/linux_amd64"
			want := []string{"registry.opentofu.org/", "registry.opentofu.org/hashicorp/", "registry.opentofu.org/hashicorp/bar/", "registry.opentofu.org/hashicorp/bar/0.3.0/", bar + "/", bar + "/terraform-provider-bar_v0.3.0"}
			root := e.in.Target.Base()
			if withCache {
				root = cache.Base()
			}
			if diff := cmp.Diff(want, tree(t, root)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", root, diff)
			}
			// Nothing at all is left of a run where every install failed.
			e2, _, _ := terraformEnv(t)
			e2.in.Cache = nil
			work := filepath.Dir(filepath.Dir(e2.in.Target.Base()))
			if _, _, err := e2.install(t, Requirements{provFoo: nil}, old, NewProvidersOnly); err == nil {
				t.Fatal("no error for a package not matching the lock")
			}
			if got := tree(t, work); len(got) != 0 {
				t.Errorf("working directory after a failed install: %q, want empty", got)
			}
		})
	}
}

// TestInstallTerraformOpenTofuKeepsDirectories: the OpenTofu flavour is
// unchanged: a failed install leaves its lock file and directories, as
// tofu does.
func TestInstallTerraformOpenTofuKeepsDirectories(t *testing.T) {
	e := newInstallEnv(t)
	old := lockfile.New()
	old.SetProvider(provFoo, instVersion("1.1.0"), nil, []hashes.Hash{"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "zh:0000"})
	if _, _, err := e.install(t, Requirements{provFoo: nil}, old, NewProvidersOnly); err == nil {
		t.Fatal("no error for a package not matching the lock")
	}
	want := []string{"example.com/", "example.com/acme/", "example.com/acme/foo/", "example.com/acme/foo/1.1.0/", "example.com/acme/foo/1.1.0/linux_amd64.lock"}
	if diff := cmp.Diff(want, tree(t, e.in.Target.Base())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestInstallTerraformCacheEvents: Terraform reports an install into the
// cache as an ordinary install, and a cache hit by its "Using" line only.
func TestInstallTerraformCacheEvents(t *testing.T) {
	e, _, _ := terraformEnv(t)
	reqs := Requirements{provBar: nil}
	lines, res, err := e.install(t, reqs, nil, NewProvidersOnly)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`finding hashicorp/bar ""`, "installing hashicorp/bar 0.3.0 cache=false", "installed hashicorp/bar 0.3.0 (unauthenticated)"}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("first run (-want +got):\n%s", diff)
	}
	e.in.Target = NewDir(filepath.Join(t.TempDir(), "providers"))
	lines, _, err = e.install(t, reqs, res.Locks, NewProvidersOnly)
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"reusing hashicorp/bar", "linked hashicorp/bar 0.3.0"}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("second run (-want +got):\n%s", diff)
	}
}

func TestMissingDirs(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	got := missingDirs(filepath.Join(root, "a", "b", "c"))
	want := []string{filepath.Join(root, "a", "b", "c"), filepath.Join(root, "a", "b")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := missingDirs(root); len(got) != 0 {
		t.Errorf("missingDirs of an existing directory = %q", got)
	}
}

func TestLockFileWithLocksIn(t *testing.T) {
	locks := t.TempDir()
	a := NewDir("a").WithLocksIn(locks)
	b := NewDir("b").WithLocksIn(locks)
	v := instVersion("1.0.0")
	la, lb := a.LockFile(provBar, v, testPlatform), b.LockFile(provBar, v, testPlatform)
	if filepath.Dir(la) != locks || filepath.Dir(lb) != locks {
		t.Errorf("lock files %s, %s not in %s", la, lb, locks)
	}
	if la == lb {
		t.Errorf("two package directories share the lock file %s", la)
	}
	if la2 := NewDir("./a/").WithLocksIn(locks).LockFile(provBar, v, testPlatform); la2 != la {
		t.Errorf("same package directory, lock files %s and %s", la, la2)
	}
}

// TestInstallTerraformUnwritableLockDir: when the lock directory cannot be
// made, the locks stay beside the packages rather than failing the install.
func TestInstallTerraformUnwritableLockDir(t *testing.T) {
	e, _, _ := terraformEnv(t)
	e.in.Cache = nil
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	e.in.LockDir = filepath.Join(blocker, "locks") // under a regular file
	if _, _, err := e.install(t, Requirements{provBar: nil}, nil, NewProvidersOnly); err != nil {
		t.Fatal(err)
	}
	want := []string{"registry.opentofu.org/hashicorp/bar/0.3.0/linux_amd64.lock"}
	if diff := cmp.Diff(want, lockFilesIn(tree(t, e.in.Target.Base()))); diff != "" {
		t.Errorf("lock files (-want +got):\n%s", diff)
	}
}

// TestEventsTerraform checks the Terraform adapter of the events alone,
// the cache lock notice included.
func TestEventsTerraform(t *testing.T) {
	var rec recorder
	ev := rec.events()
	ev.WaitingForCacheLock = func(dir string) { rec.lines = append(rec.lines, "waiting "+dir) }
	tf := ev.withDefaults().terraform()
	v := instVersion("1.0.0")
	tf.WaitingForCacheLock("/cache")
	tf.Installing(provBar, v, true)
	tf.LinkedFromCache(provBar, v)
	tf.DetectedInCache(provFoo, v)
	tf.LinkedFromCache(provFoo, v)
	want := []string{"installing hashicorp/bar 1.0.0 cache=false", "linked example.com/acme/foo 1.0.0"}
	if diff := cmp.Diff(want, rec.lines); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
