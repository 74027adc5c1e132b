package serve_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// Whether a client takes the server's hashes without downloading is the
// client's decision: without trust_all_hashes on the server's
// network_mirror block, providers lock downloads every archive (which the
// server then fetches from upstream) and records the same lock.
func TestLockThroughUntrustedServeDownloads(t *testing.T) {
	url, _ := startServe(t)
	trusted, env := trustingWorkDir(t, url)
	tfdeps(t, trusted, env, append(lockArgs(url), "-no-hash-cache")...)

	shared.upstream.ResetRequests()
	dir, env := workDir(t, url)
	tfdeps(t, dir, env, append(lockArgs(url), "-no-hash-cache")...)
	if n := shared.upstream.Count(registrytest.Archive); n != 4 {
		t.Errorf("the server downloaded %d archives from upstream, want 4 (one per platform)", n)
	}
	if diff := cmp.Diff(readLock(t, trusted), readLock(t, dir)); diff != "" {
		t.Errorf("lock without trust differs from the trusted one (-trusted +untrusted):\n%s", diff)
	}
}

// init through a network_mirror with trust_all_hashes = true records, for
// a provider of registry.opentofu.org, every preferred hash the mirror
// lists (all platforms) beside the local h1: (init.md §6).
func TestInitTrustingServeRecordsEveryPlatform(t *testing.T) {
	url, _ := startServe(t)
	dir, env := trustingWorkDir(t, url)
	tfdeps(t, dir, env, "init")
	lock := readLock(t, dir)
	for _, pl := range fourPlatforms() {
		info, err := shared.upstream.Package("hashicorp", "null", "3.2.1", pl)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []string{info.H1, info.ZH()} {
			if !strings.Contains(lock, `"`+h+`"`) {
				t.Errorf("lock lacks %s's %s:\n%s", pl, h, lock)
			}
		}
	}
	if n := strings.Count(lock, `"h1:`) + strings.Count(lock, `"zh:`); n != 8 {
		t.Errorf("lock has %d hashes, want 8:\n%s", n, lock)
	}
}

// The same with OpenTofu: its lock through a trusted tfdeps serve equals
// tfdeps init's.
func TestInitTrustingServeAsTofu(t *testing.T) {
	tofu := referenceTofu(t)
	url, _ := startServe(t)
	initLikeTofu(t, tofu, func() (string, map[string]string) { return trustingWorkDir(t, url) })
}

// initLikeTofu runs tofu init and tfdeps init, each in a directory of
// newDir, and compares their lock files.
func initLikeTofu(t *testing.T, tofu string, newDir func() (string, map[string]string)) {
	t.Helper()
	dir, env := newDir()
	runTofu(t, tofu, dir, env, "init")
	dir2, env2 := newDir()
	tfdeps(t, dir2, env2, "init")
	if diff := cmp.Diff(readLock(t, dir), readLock(t, dir2)); diff != "" {
		t.Errorf("tfdeps' lock differs from OpenTofu's (-tofu +tfdeps):\n%s", diff)
	}
}

// otherHostMirror serves the static mirror with the provider moved from
// registry.opentofu.org to other.example (a network mirror is asked for
// any host; other.example itself is never contacted).
func otherHostMirror(t *testing.T) string {
	t.Helper()
	dir := staticMirrorDir(t)
	if err := os.Rename(filepath.Join(dir, "registry.opentofu.org"), filepath.Join(dir, "other.example")); err != nil {
		t.Fatal(err)
	}
	return tlsServer(t, http.FileServer(http.Dir(dir)))
}

// otherHostWorkDir is trustingWorkDir requiring other.example/hashicorp/null.
func otherHostWorkDir(t *testing.T, url string) (string, map[string]string) {
	t.Helper()
	dir, env := trustingWorkDir(t, url)
	cfg := strings.Replace(nullConfig, `"hashicorp/null"`, `"other.example/hashicorp/null"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, env
}

// For a provider of another host, OpenTofu records no hash a trusted
// mirror reports but does not match the package (init.md §6: they are not
// "signed" when enforcement applies); tfdeps init records the same.
func TestInitTrustingMirrorOtherHostAsTofu(t *testing.T) {
	tofu := referenceTofu(t)
	url := otherHostMirror(t)
	initLikeTofu(t, tofu, func() (string, map[string]string) { return otherHostWorkDir(t, url) })
}

// Without OpenTofu at hand: the lock holds the package's own h1: and zh:
// only, not the other platforms' hashes the mirror lists.
func TestInitTrustingMirrorOtherHostRecordsOwnHashes(t *testing.T) {
	url := otherHostMirror(t)
	dir, env := otherHostWorkDir(t, url)
	tfdeps(t, dir, env, "init")
	lock := readLock(t, dir)
	if n := strings.Count(lock, `"h1:`) + strings.Count(lock, `"zh:`); n != 2 {
		t.Errorf("lock has %d hashes, want 2 (this platform's h1: and zh:):\n%s", n, lock)
	}
}
