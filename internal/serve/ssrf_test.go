package serve

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// trap is a loopback listener nobody configured; it counts connections.
type trap struct {
	ln       net.Listener
	accepted atomic.Int64
}

func newTrap(t *testing.T) *trap {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tr := &trap{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			tr.accepted.Add(1)
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return tr
}

func (tr *trap) port() string {
	return tr.ln.Addr().(*net.TCPAddr).AddrPort().String()[len("127.0.0.1:"):]
}

func TestSSRFOtherHostsAreNotContacted(t *testing.T) {
	f := newFixture(t, nil)
	for _, path := range []string{
		"/evil.example.com/hashicorp/null/index.json",
		"/169.254.169.254/latest/meta/index.json",
		"/127.0.0.1/hashicorp/null/index.json",
		"/registry.terraform.io/hashicorp/null/index.json", // a default upstream, not configured here
		"/REGISTRY.OPENTOFU.ORG/hashicorp/null/index.json", // not comparison form
	} {
		t.Run(path, func(t *testing.T) {
			if code, body := f.get(path); code != http.StatusNotFound {
				t.Errorf("status %d, want 404: %s", code, body)
			}
		})
	}
	if n := f.server.guard.dialed.Load(); n != 0 {
		t.Errorf("%d outbound connections, want 0", n)
	}
	if n := len(f.upstream.Requests()); n != 0 {
		t.Errorf("upstream saw %d requests, want 0", n)
	}
	if keys := f.keys(); len(keys) != 0 {
		t.Errorf("stored %v", keys)
	}
}

func TestSSRFLoopbackDownloadRefused(t *testing.T) {
	const metaPath = "/v1/providers/hashicorp/null/3.2.1/download/linux/amd64"
	const archivePath = "/files/hashicorp/null/3.2.1/terraform-provider-null_3.2.1_linux_amd64.zip"
	tests := []struct {
		name string
		// rig changes the fake so that the download leads to the trap.
		rig func(t *testing.T, f *fixture, tr *trap)
	}{
		{"download_url on loopback", func(t *testing.T, f *fixture, tr *trap) {
			rewriteDownloadURL(t, f, metaPath, "http://127.0.0.1:"+tr.port()+"/x.zip")
		}},
		{"download_url naming localhost", func(t *testing.T, f *fixture, tr *trap) {
			rewriteDownloadURL(t, f, metaPath, "http://localhost:"+tr.port()+"/x.zip")
		}},
		{"redirect to loopback", func(t *testing.T, f *fixture, tr *trap) {
			f.upstream.Override(archivePath, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "http://127.0.0.1:"+tr.port()+"/x.zip", http.StatusFound)
			})
		}},
		{"redirect to link-local", func(t *testing.T, f *fixture, tr *trap) {
			f.upstream.Override(archivePath, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
			})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			tr := newTrap(t)
			tt.rig(t, f, tr)
			code, body := f.get(nullArchive)
			if code != http.StatusBadGateway {
				t.Errorf("status %d, want 502: %s", code, body)
			}
			if !strings.Contains(string(body), "refusing to connect") {
				t.Errorf("error does not say why: %s", body)
			}
			if n := tr.accepted.Load(); n != 0 {
				t.Errorf("the unconfigured address got %d connections", n)
			}
			if f.server.guard.refused.Load() == 0 {
				t.Errorf("guard refused nothing")
			}
			if f.hasKey(".zip") {
				t.Errorf("archive stored: %v", f.keys())
			}
		})
	}
}

// rewriteDownloadURL makes the fake answer metaPath with its real answer
// but another download_url.
func rewriteDownloadURL(t *testing.T, f *fixture, metaPath, url string) {
	t.Helper()
	overrideMeta(t, f, metaPath, func(doc map[string]any) { doc["download_url"] = url })
	f.upstream.ResetRequests()
}

// overrideMeta makes the upstream answer metaPath (package metadata) with
// its own answer as change leaves it.
func overrideMeta(t *testing.T, f *fixture, metaPath string, change func(doc map[string]any)) {
	t.Helper()
	resp, err := f.upstream.Client().Get(f.upstream.URL() + metaPath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var doc map[string]any
	decodeJSON(t, body, &doc)
	change(doc)
	out, _ := json.Marshal(doc)
	f.upstream.Override(metaPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(out)
	})
}

func TestBadPathsNeverReachStorage(t *testing.T) {
	f := newFixture(t, nil)
	for _, path := range []string{
		"/registry.opentofu.org/hashicorp/null/../../../etc/passwd",
		"/registry.opentofu.org/hashicorp/../null/index.json",
		"/registry.opentofu.org/hashicorp/./null/index.json",
		"/registry.opentofu.org/hashicorp%2Fnull/x/index.json",
		"/registry.opentofu.org/hashicorp/null/..%2F..%2Fx.zip",
		"/registry.opentofu.org/hashicorp/null/%2e%2e/index.json",
		"/registry.opentofu.org/hashicorp/null/x%00.json",
		"/registry.opentofu.org/hashicorp/null/x%5c..%5cy.zip",
		"/registry.opentofu.org//hashicorp/null/index.json",
		"/registry.opentofu.org/hashicorp/" + strings.Repeat("n", 300) + "/index.json",
		"/" + strings.Repeat("a/", 600),
	} {
		t.Run(path[:min(len(path), 60)], func(t *testing.T) {
			if code := f.rawGet(path); code != http.StatusBadRequest {
				t.Errorf("status %d, want 400", code)
			}
		})
	}
	if n := len(f.upstream.Requests()); n != 0 {
		t.Errorf("upstream saw %d requests", n)
	}
	if keys := f.keys(); len(keys) != 0 {
		t.Errorf("stored %v", keys)
	}
}

func TestPublicAddress(t *testing.T) {
	for _, tt := range []struct {
		addr string
		want bool
	}{
		{"8.8.8.8", true},
		{"2606:4700::1111", true},
		{"127.0.0.1", false},
		{"::1", false},
		{"10.1.2.3", false},
		{"172.16.0.1", false},
		{"192.168.1.1", false},
		{"169.254.169.254", false},
		{"fe80::1", false},
		{"fd00::1", false},
		{"100.64.0.1", false},
		{"0.0.0.0", false},
		{"224.0.0.1", false},
		{"::ffff:127.0.0.1", false},
	} {
		t.Run(tt.addr, func(t *testing.T) {
			if got := publicAddress(netip.MustParseAddr(tt.addr).Unmap()); got != tt.want {
				t.Errorf("publicAddress(%s) = %v, want %v", tt.addr, got, tt.want)
			}
		})
	}
}

func TestUpstreamFaults(t *testing.T) {
	tests := []struct {
		name     string
		endpoint registrytest.Endpoint
		fault    registrytest.Fault
		path     string
		want     int
		wantText string
	}{
		{"archive 500", registrytest.Archive, registrytest.Fault{Kind: registrytest.Status, Status: 500}, nullArchive, 502, "upstream answered 500 Internal Server Error to 3 tries"},
		{"archive dropped", registrytest.Archive, registrytest.Fault{Kind: registrytest.Drop}, nullArchive, 502, "failed to download"},
		{"archive truncated", registrytest.Archive, registrytest.Fault{Kind: registrytest.Truncate}, nullArchive, 502, "failed to download"},
		{"tampered zip", registrytest.Archive, registrytest.Fault{Kind: registrytest.Tamper}, nullArchive, 502, "failed to authenticate"},
		{"bad signature (archive)", registrytest.Signature, registrytest.Fault{Kind: registrytest.BadSignature}, nullArchive, 502, "not signed with a valid signing key"},
		{"bad signature (VERSION.json)", registrytest.Signature, registrytest.Fault{Kind: registrytest.BadSignature}, nullVersion, 502, "not signed with a valid signing key"},
		{"tampered SHA256SUMS", registrytest.SHA256SUMS, registrytest.Fault{Kind: registrytest.Tamper}, nullArchive, 502, "failed to authenticate"},
		{"versions 500", registrytest.Versions, registrytest.Fault{Kind: registrytest.Status, Status: 500}, nullIndex, 502, "upstream answered 500 Internal Server Error to 3 tries"},
		{"versions 429", registrytest.Versions, registrytest.Fault{Kind: registrytest.Status, Status: 429}, nullIndex, 429, "upstream answered 429 Too Many Requests to 3 tries"},
		{"versions 503", registrytest.Versions, registrytest.Fault{Kind: registrytest.Status, Status: 503}, nullIndex, 503, "upstream answered 503 Service Unavailable to 3 tries"},
		{"versions dropped", registrytest.Versions, registrytest.Fault{Kind: registrytest.Drop}, nullIndex, 502, "could not query provider registry"},
		{"package metadata 502", registrytest.PackageMeta, registrytest.Fault{Kind: registrytest.Status, Status: 502}, nullArchive, 502, "upstream answered 502 Bad Gateway to 3 tries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			f.upstream.Inject(tt.endpoint, tt.fault)
			code, body := f.get(tt.path)
			if code != tt.want || !bytes.Contains(body, []byte(tt.wantText)) {
				t.Errorf("got %d %q, want %d containing %q", code, body, tt.want, tt.wantText)
			}
			if f.hasKey(".zip") || f.hasKey("linux_amd64.json") || f.hasKey("platforms.json") {
				t.Errorf("stored after a failure: %v", f.keys())
			}
			f.upstream.ClearFaults()
			if code, body := f.get(tt.path); code != http.StatusOK {
				t.Errorf("after the fault cleared: %d %s", code, body)
			}
		})
	}
}

func TestUpstreamRetriesTransientFailures(t *testing.T) {
	f := newFixture(t, nil)
	f.upstream.Inject(registrytest.Archive, registrytest.Fault{Kind: registrytest.Status, Status: 503, Times: 2})
	f.upstream.Inject(registrytest.Versions, registrytest.Fault{Kind: registrytest.Status, Status: 429, Times: 1})
	for _, path := range []string{nullIndex, nullArchive} {
		if code, body := f.get(path); code != http.StatusOK {
			t.Errorf("%s: %d %s", path, code, body)
		}
	}
	if n := f.upstream.Count(registrytest.Archive); n != 3 {
		t.Errorf("%d archive requests, want 3 (two failures, one success)", n)
	}
}

func TestReadAndPublishTokens(t *testing.T) {
	f := newFixture(t, func(o *Options) {
		o.ReadTokens = []string{"reader-1", "reader-2"}
		o.PublishTokens = []string{"publisher"}
	})
	tests := []struct {
		name, path, auth string
		want             int
	}{
		{"no token", nullIndex, "", 401},
		{"wrong token", nullIndex, "Bearer reader-3", 403},
		{"publish token does not read", nullIndex, "Bearer publisher", 403},
		{"not bearer", nullIndex, "Basic cmVhZGVyLTE=", 403},
		{"first token", nullIndex, "Bearer reader-1", 200},
		{"second token", nullIndex, "Bearer reader-2", 200},
		{"discovery needs a token", "/.well-known/terraform.json", "", 401},
		{"healthz is open", "/healthz", "", 200},
		{"metrics are open", "/metrics", "", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hdr []string
			if tt.auth != "" {
				hdr = []string{"Authorization", tt.auth}
			}
			if code, body := f.get(tt.path, hdr...); code != tt.want {
				t.Errorf("status %d, want %d: %s", code, tt.want, body)
			}
		})
	}
}
