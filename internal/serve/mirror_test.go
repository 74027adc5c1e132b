package serve

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/internal/serve/storage"
)

const (
	nullIndex   = "/registry.opentofu.org/hashicorp/null/index.json"
	nullVersion = "/registry.opentofu.org/hashicorp/null/3.2.1.json"
	nullArchive = "/registry.opentofu.org/hashicorp/null/terraform-provider-null_3.2.1_linux_amd64.zip"
)

func TestMirrorColdThenWarm(t *testing.T) {
	f := newFixture(t, nil)

	code, body := f.get(nullIndex)
	if code != http.StatusOK {
		t.Fatalf("index.json: status %d: %s", code, body)
	}
	if diff := cmp.Diff(`{"versions":{"3.1.0":{},"3.2.1":{}}}`, string(body)); diff != "" {
		t.Errorf("index.json (-want +got):\n%s", diff)
	}

	code, body = f.get(nullVersion)
	if code != http.StatusOK {
		t.Fatalf("VERSION.json: status %d: %s", code, body)
	}
	var doc mirrorVersionDoc
	decodeJSON(t, body, &doc)
	want := mirrorVersionDoc{Archives: map[string]mirrorArchiveDoc{}}
	for _, pl := range registrytest.DefaultPlatforms() {
		info, err := f.upstream.Package("hashicorp", "null", "3.2.1", pl)
		if err != nil {
			t.Fatal(err)
		}
		want.Archives[pl] = mirrorArchiveDoc{Hashes: []string{info.H1, info.ZH()}, URL: "terraform-provider-null_3.2.1_" + pl + ".zip"}
	}
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("VERSION.json before any download (-want +got):\n%s", diff)
	}
	if n := f.upstream.Count(registrytest.Archive); n != 0 {
		t.Errorf("VERSION.json downloaded %d archives, want 0", n)
	}

	code, body = f.get(nullArchive)
	if code != http.StatusOK {
		t.Fatalf("archive: status %d: %s", code, body)
	}
	info, _ := f.upstream.Package("hashicorp", "null", "3.2.1", "linux_amd64")
	if got := sha256Hex(body); got != info.SHA256 {
		t.Errorf("archive sha256 %s, want %s", got, info.SHA256)
	}
	if n := f.upstream.Count(registrytest.Archive); n != 1 {
		t.Errorf("cold archive: %d upstream downloads, want 1", n)
	}

	f.upstream.ResetRequests()
	for _, path := range []string{nullIndex, nullVersion, nullArchive} {
		if code, body := f.get(path); code != http.StatusOK {
			t.Fatalf("warm %s: status %d: %s", path, code, body)
		}
	}
	if got := f.upstream.Requests(); len(got) != 0 {
		t.Errorf("warm requests reached upstream: %v", f.upstream.Paths())
	}
}

func TestMirrorUnknownAnswers404(t *testing.T) {
	f := newFixture(t, nil)
	for _, path := range []string{
		"/registry.opentofu.org/hashicorp/nosuch/index.json",
		"/registry.opentofu.org/hashicorp/null/9.9.9.json",
		"/registry.opentofu.org/hashicorp/null/terraform-provider-null_3.2.1_plan9_mips.zip",
		"/registry.opentofu.org/hashicorp/null/terraform-provider-other_3.2.1_linux_amd64.zip",
		"/registry.opentofu.org/hashicorp/null/README",
	} {
		t.Run(path, func(t *testing.T) {
			if code, body := f.get(path); code != http.StatusNotFound {
				t.Errorf("status %d, want 404: %s", code, body)
			}
		})
	}
	if f.hasKey(".zip") {
		t.Errorf("an archive was stored: %v", f.keys())
	}
}

// Concurrent clients of two replicas on one cold store: every client gets
// its answer, the same for every client, while each archive is fetched
// from upstream exactly once (the lease keeps the other replica from
// downloading too) and no lease is left behind. Without a packages map,
// VERSION.json needs every platform's archive as well, so its requests
// and the archive requests share the downloads.
func TestMirrorConcurrentColdClients(t *testing.T) {
	for _, tc := range []struct {
		name       string
		clients    int
		providers  []registrytest.Provider
		noPackages bool
		// paths lists what the clients ask for (round-robin); nil: the
		// index.json, VERSION.json and every platform's archive of every
		// provider.
		paths []string
	}{
		{
			name: "one archive", clients: 50, providers: testProviders(),
			paths: []string{"/registry.opentofu.org/acme/big/terraform-provider-big_1.0.0_linux_amd64.zip"},
		},
		{
			name: "every file of three providers, no packages map", clients: 200, noPackages: true,
			providers: []registrytest.Provider{
				{Namespace: "acme", Type: "one", Versions: []registrytest.Version{{Version: "1.0.0", Size: 256 << 10}}},
				{Namespace: "acme", Type: "two", Versions: []registrytest.Version{{Version: "2.1.0", Platforms: []string{"darwin_arm64", "linux_amd64", "linux_arm64", "windows_amd64"}}}},
				{Namespace: "hashicorp", Type: "null", Versions: []registrytest.Version{{Version: "3.2.1"}}},
			},
		},
		{
			name: "every file of three providers, packages map", clients: 200,
			providers: []registrytest.Provider{
				{Namespace: "acme", Type: "one", Versions: []registrytest.Version{{Version: "1.0.0", Size: 256 << 10}}},
				{Namespace: "acme", Type: "two", Versions: []registrytest.Version{{Version: "2.1.0", Platforms: []string{"darwin_arm64", "linux_amd64", "linux_arm64", "windows_amd64"}}}},
				{Namespace: "hashicorp", Type: "null", Versions: []registrytest.Version{{Version: "3.2.1"}}},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := registrytest.New(t, registrytest.Options{Providers: tc.providers, NoPackagesMap: tc.noPackages})
			st, err := storage.OpenDir(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			f := newFixtureOn(t, up, st, nil)
			replica := newFixtureOn(t, up, st, nil)
			paths, archives := tc.paths, map[string]string{}
			for _, p := range tc.providers {
				base := "/registry.opentofu.org/" + p.Namespace + "/" + p.Type + "/"
				if tc.paths == nil {
					paths = append(paths, base+"index.json")
				}
				for _, v := range p.Versions {
					if tc.paths == nil {
						paths = append(paths, base+v.Version+".json")
					}
					platforms := v.Platforms
					if len(platforms) == 0 {
						platforms = registrytest.DefaultPlatforms()
					}
					for _, pl := range platforms {
						name := "terraform-provider-" + p.Type + "_" + v.Version + "_" + pl + ".zip"
						info, err := up.Package(p.Namespace, p.Type, v.Version, pl)
						if err != nil {
							t.Fatal(err)
						}
						if tc.paths == nil || slices.Contains(tc.paths, base+name) {
							archives[base+name] = info.SHA256
						}
						if tc.paths == nil {
							paths = append(paths, base+name)
						}
					}
				}
			}
			var (
				wg     sync.WaitGroup
				mu     sync.Mutex
				bodies = map[string][]byte{}
				errs   = make(chan string, tc.clients)
				start  = make(chan struct{})
			)
			for i := 0; i < tc.clients; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					target, path := f, paths[i%len(paths)]
					if i%2 == 1 {
						target = replica
					}
					<-start
					code, body := getURL(t, target.http.URL+path)
					if code != http.StatusOK {
						errs <- fmt.Sprintf("client %d: %s: status %d: %s", i, path, code, body)
						return
					}
					if want, ok := archives[path]; ok && sha256Hex(body) != want {
						errs <- fmt.Sprintf("client %d: %s: not the upstream's archive", i, path)
						return
					}
					mu.Lock()
					defer mu.Unlock()
					if first, ok := bodies[path]; ok && string(first) != string(body) {
						errs <- fmt.Sprintf("client %d: %s: answer differs from another client's:\n%s\n%s", i, path, first, body)
					}
					bodies[path] = body
				}(i)
			}
			close(start)
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}
			fetched := map[string]int{}
			for _, r := range up.Requests() {
				if r.Endpoint == registrytest.Archive {
					fetched[r.Path]++
				}
			}
			for path, n := range fetched {
				if n != 1 {
					t.Errorf("%s fetched %d times from upstream, want once", path, n)
				}
			}
			if len(fetched) != len(archives) {
				t.Errorf("%d archives fetched from upstream, want %d (each requested one): %v", len(fetched), len(archives), fetched)
			}
			if f.hasKey(".lease") || len(filterPrefix(f.keys(), "leases/")) != 0 {
				t.Errorf("lease left behind: %v", f.keys())
			}
		})
	}
}

func filterPrefix(keys []string, prefix string) []string {
	var out []string
	for _, k := range keys {
		if len(k) >= len(prefix) && k[:len(prefix)] == prefix {
			out = append(out, k)
		}
	}
	return out
}

func TestMetricsCountHitsAndMisses(t *testing.T) {
	f := newFixture(t, nil)
	f.get(nullArchive)
	f.get(nullArchive)
	f.get("/nosuch")
	_, body := f.get("/metrics")
	for _, want := range []string{
		`tfdeps_serve_cache_total{kind="archive",result="hit"} 1`,
		`tfdeps_serve_cache_total{kind="archive",result="miss"} 1`,
		`tfdeps_serve_requests_total{code="200",route="mirror_archive"} 2`,
		`tfdeps_serve_requests_total{code="404",route="not_found"} 1`,
		`tfdeps_serve_upstream_download_bytes_total`,
		`tfdeps_serve_request_duration_seconds_bucket{route="mirror_archive",le=`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestVersionListRefreshAfterTTL(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	f := newFixture(t, func(o *Options) { o.Now = clock; o.IndexTTL = time.Minute })

	if code, _ := f.get(nullIndex); code != http.StatusOK {
		t.Fatal(code)
	}
	f.get(nullIndex)
	if n := f.upstream.Count(registrytest.Versions); n != 1 {
		t.Errorf("fresh list: %d upstream requests, want 1", n)
	}
	advance(2 * time.Minute)
	f.get(nullIndex)
	if n := f.upstream.Count(registrytest.Versions); n != 2 {
		t.Errorf("stale list: %d upstream requests, want 2", n)
	}
	advance(2 * time.Minute)
	f.upstream.Inject(registrytest.Versions, registrytest.Fault{Kind: registrytest.Status, Status: 500})
	if code, body := f.get(nullIndex); code != http.StatusOK || !strings.Contains(string(body), "3.2.1") {
		t.Errorf("upstream down with a cached list: %d %s, want the cached list", code, body)
	}
	// Another replica on the same bucket starts with the stored list too.
	other := newFixtureOn(t, f.upstream, f.store, func(o *Options) { o.Now = clock; o.IndexTTL = time.Minute })
	if code, _ := other.get(nullIndex); code != http.StatusOK {
		t.Errorf("second replica with upstream down: %d, want the stored list", code)
	}
}

func TestHealthzChecksStorage(t *testing.T) {
	up := registrytest.New(t, registrytest.Options{Providers: testProviders()})
	st, err := storage.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := newFixtureOn(t, up, st, nil)
	if code, body := f.get("/healthz"); code != http.StatusOK || string(body) != "ok\n" {
		t.Errorf("healthz: %d %q", code, body)
	}
	st.Close()
	if code, _ := f.get("/healthz"); code != http.StatusServiceUnavailable {
		t.Errorf("healthz with the bucket closed: %d, want 503", code)
	}
}
