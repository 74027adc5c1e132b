package serve_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/internal/serve"
	"github.com/tfdeps/tfdeps/internal/serve/storage"
)

// serveStore starts a server over the storage directory storeDir in front
// of up, mirroring registry.opentofu.org and registry.terraform.io (both
// answered by up), and returns its URL. Called twice with one directory,
// the second server is a restarted one: it shares nothing with the first
// but the store.
func serveStore(t *testing.T, up *registrytest.Server, storeDir string) string {
	t.Helper()
	st, err := storage.OpenDir(storeDir)
	if err != nil {
		t.Fatal(err)
	}
	opts := serve.UpstreamOptions(st, up.ProvidersBaseURL(), up.Transport(), t.TempDir())
	opts.Upstreams = []string{"registry.opentofu.org", "registry.terraform.io"}
	opts.Registry.HostServices["registry.terraform.io"] = map[string]any{"providers.v1": up.ProvidersBaseURL()}
	srv, err := serve.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return tlsServer(t, srv.Handler())
}

// lockRun is one way of writing a lock file through a network mirror.
type lockRun struct {
	flavour []string // global flags: none, or -compat=terraform
	command string   // "init" or "lock" (providers lock, four platforms)
	trust   bool     // trust_all_hashes = true on the mirror
}

func (r lockRun) String() string {
	name := r.command
	if len(r.flavour) > 0 {
		name += ",terraform"
	}
	if r.trust {
		name += ",trusted"
	}
	return name
}

// lockThrough runs r in a new directory whose only installation method is
// the network mirror at url, and returns the lock file written.
func lockThrough(t *testing.T, url string, r lockRun) string {
	t.Helper()
	extra := ""
	if r.trust {
		extra = "    trust_all_hashes = true\n"
	}
	dir, env := newWorkDir(t, url, extra)
	args := append([]string{}, r.flavour...)
	switch r.command {
	case "init":
		args = append(args, "init")
	case "lock":
		args = append(args, "providers", "lock", "-net-mirror="+url)
		for _, pl := range fourPlatforms() {
			args = append(args, "-platform="+pl)
		}
	}
	tfdeps(t, dir, env, args...)
	return readLock(t, dir)
}

func lockRuns() []lockRun {
	var runs []lockRun
	for _, command := range []string{"init", "lock"} {
		runs = append(runs,
			lockRun{command: command},
			lockRun{command: command, trust: true},
			lockRun{command: command, flavour: []string{"-compat=terraform"}})
	}
	return runs
}

// The lock file written through serve is the one written through a
// faithful mirror of the same upstream (the fake registry's own network
// mirror, which lists every platform's h1: and zh:), byte for byte: on a
// cold store, a warm one, and from a restarted server on the same store;
// for init and providers lock (four platforms), trusting the mirror's
// hashes or not, in both flavours, and whether the upstream sends
// OpenTofu's "packages" map, none, or answers as registry.terraform.io.
func TestLockThroughServeEqualsFaithfulMirror(t *testing.T) {
	for _, style := range []string{"packages", "nopackages", "terraform"} {
		up := shared.styles[style]
		for _, r := range lockRuns() {
			t.Run(style+"/"+r.String(), func(t *testing.T) {
				want := lockThrough(t, up.MirrorBaseURL(), r)
				if n := strings.Count(want, `"h1:`); n < 4 && r.command == "lock" {
					t.Fatalf("the faithful mirror's lock has %d h1: hashes, want one per platform:\n%s", n, want)
				}
				storeDir := t.TempDir()
				url := serveStore(t, up, storeDir)
				for _, state := range []string{"cold", "warm"} {
					if diff := cmp.Diff(want, lockThrough(t, url, r)); diff != "" {
						t.Errorf("%s store: lock through serve differs from the faithful mirror's (-mirror +serve):\n%s", state, diff)
					}
				}
				restarted := serveStore(t, up, storeDir)
				if diff := cmp.Diff(want, lockThrough(t, restarted, r)); diff != "" {
					t.Errorf("restarted server: lock through serve differs from the faithful mirror's (-mirror +serve):\n%s", diff)
				}
			})
		}
	}
}

// mirrorHashes fetches HOST/hashicorp/null's index.json and 3.2.1.json from
// the mirror at base and returns the versions and each platform's hashes.
func mirrorHashes(t *testing.T, base, host string) (versions []string, hashes map[string][]string) {
	t.Helper()
	get := func(file string, v any) {
		resp, err := http.Get(base + host + "/hashicorp/null/" + file)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", file, resp.StatusCode)
		}
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	var index struct {
		Versions map[string]struct{} `json:"versions"`
	}
	get("index.json", &index)
	for v := range index.Versions {
		versions = append(versions, v)
	}
	var doc struct {
		Archives map[string]struct {
			Hashes []string `json:"hashes"`
		} `json:"archives"`
	}
	get("3.2.1.json", &doc)
	hashes = map[string][]string{}
	for pl, a := range doc.Archives {
		hashes[pl] = a.Hashes
	}
	return versions, hashes
}

// Concurrent clients of two replicas on one cold store all get the
// faithful mirror's index.json and VERSION.json, while each archive is
// fetched from upstream once; then a lock through either equals the
// faithful mirror's.
func TestConcurrentColdClientsGetFaithfulHashes(t *testing.T) {
	for _, style := range []string{"packages", "nopackages", "terraform"} {
		t.Run(style, func(t *testing.T) {
			up := shared.styles[style]
			storeDir := t.TempDir()
			replicas := []string{serveStore(t, up, storeDir), serveStore(t, up, storeDir)}
			wantVersions, wantHashes := mirrorHashes(t, up.MirrorBaseURL(), "registry.opentofu.org")
			up.ResetRequests()
			const clients = 16
			var wg sync.WaitGroup
			errs := make(chan string, clients)
			for i := 0; i < clients; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					vs, hs := mirrorHashes(t, replicas[i%2], "registry.opentofu.org")
					if diff := cmp.Diff(wantVersions, vs); diff != "" {
						errs <- fmt.Sprintf("client %d: index.json (-mirror +serve):\n%s", i, diff)
					}
					if diff := cmp.Diff(wantHashes, hs); diff != "" {
						errs <- fmt.Sprintf("client %d: VERSION.json (-mirror +serve):\n%s", i, diff)
					}
				}(i)
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}
			fetched := up.Count(registrytest.Archive)
			if style == "packages" && fetched != 0 {
				t.Errorf("%d archives fetched, want none (the packages map gives every hash)", fetched)
			}
			if style != "packages" && fetched != len(fourPlatforms()) {
				t.Errorf("%d archives fetched, want %d (one per platform)", fetched, len(fourPlatforms()))
			}
			want := lockThrough(t, up.MirrorBaseURL(), lockRun{command: "lock"})
			for i, url := range replicas {
				if diff := cmp.Diff(want, lockThrough(t, url, lockRun{command: "lock"})); diff != "" {
					t.Errorf("replica %d: lock differs from the faithful mirror's (-mirror +serve):\n%s", i, diff)
				}
			}
		})
	}
}

// The same through OpenTofu itself: its lock through serve, cold then
// warm, equals its lock through the faithful mirror, for every upstream
// style.
func TestTofuLockThroughServeEqualsFaithfulMirror(t *testing.T) {
	tofu := referenceTofu(t)
	for _, style := range []string{"packages", "nopackages", "terraform"} {
		t.Run(style, func(t *testing.T) {
			up := shared.styles[style]
			for _, trust := range []bool{false, true} {
				extra := ""
				if trust {
					extra = "    trust_all_hashes = true\n"
				}
				tofuLock := func(url string, args ...string) string {
					dir, env := newWorkDir(t, url, extra)
					runTofu(t, tofu, dir, env, args...)
					return readLock(t, dir)
				}
				lockArgs := func(url string) []string {
					args := []string{"providers", "lock", "-net-mirror=" + url}
					for _, pl := range fourPlatforms() {
						args = append(args, "-platform="+pl)
					}
					return args
				}
				storeDir := t.TempDir()
				url := serveStore(t, up, storeDir)
				want := tofuLock(up.MirrorBaseURL(), "init")
				for _, state := range []string{"cold", "warm"} {
					if diff := cmp.Diff(want, tofuLock(url, "init")); diff != "" {
						t.Errorf("trust %v, %s store, init: OpenTofu's lock through serve differs (-mirror +serve):\n%s", trust, state, diff)
					}
				}
				want = tofuLock(up.MirrorBaseURL(), lockArgs(up.MirrorBaseURL())...)
				fresh := serveStore(t, up, filepath.Join(t.TempDir(), "store"))
				if diff := cmp.Diff(want, tofuLock(fresh, lockArgs(fresh)...)); diff != "" {
					t.Errorf("trust %v, cold store, providers lock: OpenTofu's lock through serve differs (-mirror +serve):\n%s", trust, diff)
				}
			}
		})
	}
}
