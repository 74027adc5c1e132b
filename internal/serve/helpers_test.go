package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/internal/serve/storage"
	"github.com/tfdeps/tfdeps/registry"
)

const upstreamHost = "registry.opentofu.org"

// fixture is a fake upstream registry and a tfdeps server in front of it.
type fixture struct {
	t        *testing.T
	upstream *registrytest.Server
	store    *storage.Store
	server   *Server
	http     *httptest.Server
	// pauses records the retry pauses the server took (without waiting).
	pauses *pauseLog
}

// pauseLog records retry pauses instead of sleeping.
type pauseLog struct {
	mu     sync.Mutex
	pauses []time.Duration
}

func (p *pauseLog) sleep(ctx context.Context, d time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pauses = append(p.pauses, d)
	return ctx.Err()
}

func (p *pauseLog) list() []time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.pauses)
}

func testProviders() []registrytest.Provider {
	return []registrytest.Provider{
		{Namespace: "hashicorp", Type: "null", Versions: []registrytest.Version{{Version: "3.1.0"}, {Version: "3.2.1"}}},
		{Namespace: "acme", Type: "big", Versions: []registrytest.Version{{Version: "1.0.0", Size: 2 << 20}}},
	}
}

// UpstreamOptions are the server options of every test in front of a fake
// upstream (internal/registrytest): upstreamHost's providers.v1 service at
// providersURL through a host block, as an operator's CLI configuration
// would say it, an empty environment, and base (the fake's transport, or
// one trusting its CA) for upstream connections. Tests in package
// serve_test use it too.
func UpstreamOptions(st *storage.Store, providersURL string, base *http.Transport, tempDir string) Options {
	return Options{
		Store:     st,
		Upstreams: []string{upstreamHost},
		Registry: registry.Settings{
			Getenv:       func(string) string { return "" },
			Environ:      func() []string { return nil },
			HostServices: map[string]map[string]any{upstreamHost: {"providers.v1": providersURL}},
		},
		BaseTransport: base,
		TempDir:       tempDir,
	}
}

func newFixture(t *testing.T, mutate func(*Options)) *fixture {
	t.Helper()
	up := registrytest.New(t, registrytest.Options{Providers: testProviders()})
	st, err := storage.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return newFixtureOn(t, up, st, mutate)
}

func newFixtureOn(t *testing.T, up *registrytest.Server, st *storage.Store, mutate func(*Options)) *fixture {
	t.Helper()
	pauses := &pauseLog{}
	opts := UpstreamOptions(st, up.ProvidersBaseURL(), up.Transport(), t.TempDir())
	opts.Retry = RetryPolicy{Sleep: pauses.sleep}
	if mutate != nil {
		mutate(&opts)
	}
	srv, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { hs.Close(); srv.Close() })
	return &fixture{t: t, upstream: up, store: st, server: srv, http: hs, pauses: pauses}
}

// get performs a GET and returns status and body.
func (f *fixture) get(path string, header ...string) (int, []byte) {
	f.t.Helper()
	return getURL(f.t, f.http.URL+path, header...)
}

func getURL(t *testing.T, url string, header ...string) (int, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: reading body: %v", url, err)
	}
	return resp.StatusCode, body
}

// rawGet sends a request line as written, bypassing URL cleaning.
func (f *fixture) rawGet(path string) int {
	f.t.Helper()
	req, err := http.NewRequest(http.MethodGet, f.http.URL, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	req.URL.Opaque = path
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatalf("GET %s: %v", path, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// keys lists every object in the bucket.
func (f *fixture) keys() []string {
	f.t.Helper()
	ks, err := f.store.List(context.Background(), "", 10000)
	if err != nil {
		f.t.Fatal(err)
	}
	return ks
}

// hasKey reports whether any stored key ends with suffix.
func (f *fixture) hasKey(suffix string) bool {
	for _, k := range f.keys() {
		if strings.HasSuffix(k, suffix) {
			return true
		}
	}
	return false
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func decodeJSON(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decoding %q: %v", b, err)
	}
}
