package serve_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Hashes no package has.
const (
	falseH1 = "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
	falseZH = "zh:0000000000000000000000000000000000000000000000000000000000000000"
)

// lyingMirror serves a "providers mirror" directory whose VERSION.json
// lists, beside the true hashes, false ones: linux_amd64 a false h1:
// instead of the true one, darwin_arm64 an extra false zh:, windows_amd64
// an extra false h1:.
func lyingMirror(t *testing.T) string {
	t.Helper()
	dir := staticMirrorDir(t)
	doc := filepath.Join(dir, "registry.opentofu.org", "hashicorp", "null", "3.2.1.json")
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Archives map[string]struct {
			Hashes []string `json:"hashes"`
			URL    string   `json:"url"`
		} `json:"archives"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for pl, a := range v.Archives {
		switch pl {
		case "linux_amd64":
			for i, h := range a.Hashes {
				if h[:3] == "h1:" {
					a.Hashes[i] = falseH1
				}
			}
		case "darwin_arm64":
			a.Hashes = append(a.Hashes, falseZH)
		case "windows_amd64":
			a.Hashes = append(a.Hashes, falseH1)
		}
		v.Archives[pl] = a
	}
	if b, err = json.MarshalIndent(v, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(doc, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return tlsServer(t, http.FileServer(http.Dir(dir)))
}

func lockArgs(url string) []string {
	args := []string{"providers", "lock", "-net-mirror=" + url}
	for _, pl := range fourPlatforms() {
		args = append(args, "-platform="+pl)
	}
	return args
}

// OpenTofu records, from a network mirror without trust_all_hashes, the
// h1: of each unpacked package and the listed hashes that matched the
// archive; the false ones are left out. tfdeps records the same.
func TestLockFromLyingMirrorAsTofu(t *testing.T) {
	tofu := referenceTofu(t)
	url := lyingMirror(t)
	dir, env := workDir(t, url)
	runTofu(t, tofu, dir, env, lockArgs(url)...)
	want := readLock(t, dir)

	// OpenTofu's providers lock ignores trust_all_hashes: the same lock.
	// (tfdeps takes the block as the user's trust: TestLockFromTrustedMirror.)
	trusting, tenv := trustingWorkDir(t, url)
	runTofu(t, tofu, trusting, tenv, lockArgs(url)...)
	if diff := cmp.Diff(want, readLock(t, trusting)); diff != "" {
		t.Errorf("tofu's lock with trust_all_hashes differs (-without +with):\n%s", diff)
	}

	dir2, env2 := workDir(t, url)
	tfdeps(t, dir2, env2, lockArgs(url)...)
	if diff := cmp.Diff(want, readLock(t, dir2)); diff != "" {
		t.Errorf("tfdeps' lock differs from OpenTofu's (-tofu +tfdeps):\n%s", diff)
	}
}

// Without OpenTofu at hand: the false hashes stay out of tfdeps' lock, and
// every archive was downloaded to check the listed hashes.
func TestLockFromLyingMirrorKeepsFalseHashesOut(t *testing.T) {
	url := lyingMirror(t)
	dir, env := workDir(t, url)
	out := tfdeps(t, dir, env, lockArgs(url)...)
	lock := readLock(t, dir)
	for _, h := range []string{falseH1, falseZH} {
		if strings.Contains(lock, h) {
			t.Errorf("lock records the false %s:\n%s", h, lock)
		}
	}
	if n := strings.Count(lock, `"h1:`); n != 4 {
		t.Errorf("lock has %d h1: hashes, want one per platform:\n%s", n, lock)
	}
	if n := strings.Count(lock, `"zh:`); n != 4 {
		t.Errorf("lock has %d zh: hashes, want one per platform:\n%s", n, lock)
	}
	if n := strings.Count(out, "(verified checksum)"); n != 4 {
		t.Errorf("output:\n%s", out)
	}
}

// A mirror the user trusts (trust_all_hashes = true on its network_mirror
// block) is taken at its word: its listed hashes are recorded without a
// download, false ones included where a platform lists one h1: and at most
// one zh: (linux_amd64 here); the others are downloaded and checked.
func TestLockFromTrustedMirror(t *testing.T) {
	url := lyingMirror(t)
	dir, env := trustingWorkDir(t, url)
	tfdeps(t, dir, env, append(lockArgs(url), "-no-hash-cache")...)
	lock := readLock(t, dir)
	if !strings.Contains(lock, falseH1) {
		t.Errorf("lock lacks the trusted mirror's linux_amd64 h1:\n%s", lock)
	}
	if strings.Contains(lock, falseZH) {
		t.Errorf("lock records darwin_arm64's extra zh:, which needs a download to check:\n%s", lock)
	}
}
