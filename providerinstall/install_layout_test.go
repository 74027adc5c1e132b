package providerinstall

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestInstallLeavesTofuLayout: issue #11. After installs with a plugin
// cache, cold and warm, the working directory's providers directory and
// the cache hold exactly what OpenTofu's hold — package directories and
// their .lock sidecars in the cache, links alone in the providers
// directory — and the h1: memos live in MemoDir.
// An earlier tfdeps's memo beside a package is removed.
func TestInstallLeavesTofuLayout(t *testing.T) {
	e := newInstallEnv(t)
	cache := NewDir(t.TempDir())
	e.in.Cache = &cache
	e.in.MemoDir = t.TempDir()
	reqs := Requirements{provBar: nil, provFoo: nil}
	_, first, err := e.install(t, reqs, nil, NewProvidersOnly)
	if err != nil {
		t.Fatal(err)
	}
	legacy := cache.PackageDir(provFoo, instVersion("2.0.0"), testPlatform) + legacyMemoSuffix
	if err := os.WriteFile(legacy, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.install(t, reqs, first.Locks, NewProvidersOnly); err != nil {
		t.Fatal(err)
	}
	e.in.Target = NewDir(filepath.Join(t.TempDir(), "providers"))
	if _, _, err := e.install(t, reqs, nil, NewProvidersOnly); err != nil {
		t.Fatal(err)
	}
	wantCache := []string{
		"example.com/acme/foo/2.0.0/linux_amd64.lock",
		"example.com/acme/foo/2.0.0/linux_amd64/terraform-provider-foo_v2.0.0",
		"registry.opentofu.org/hashicorp/bar/0.3.0/linux_amd64.lock",
		"registry.opentofu.org/hashicorp/bar/0.3.0/linux_amd64/terraform-provider-bar_v0.3.0",
	}
	if diff := cmp.Diff(wantCache, walkNames(t, cache.Base())); diff != "" {
		t.Errorf("plugin cache (-want +got):\n%s", diff)
	}
	// No .lock sidecar beside the links: tofu 1.12.6 takes no lock to link
	// from the cache (observed cold and warm).
	wantTarget := []string{
		"example.com/acme/foo/2.0.0/linux_amd64 -> cache",
		"registry.opentofu.org/hashicorp/bar/0.3.0/linux_amd64 -> cache",
	}
	if diff := cmp.Diff(wantTarget, walkNames(t, e.in.Target.Base())); diff != "" {
		t.Errorf("providers directory (-want +got):\n%s", diff)
	}
	if memos, _ := filepath.Glob(filepath.Join(e.in.MemoDir, "*.json")); !memoSupported || len(memos) != 2 {
		if memoSupported {
			t.Errorf("memo directory holds %v, want the 2 packages' memos", memos)
		}
	}
}

// walkNames lists the files below root (slash-separated, sorted); a
// symlink is listed as "NAME -> cache" and not followed.
func walkNames(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || path == root || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if info.Mode()&os.ModeSymlink != 0 {
			rel += " -> cache"
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}
