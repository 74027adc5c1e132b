package registry

import (
	"context"
	"encoding/hex"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/versions"
)

// exampleHost is the hostname tests address the fake by, through a host
// block.
const exampleHost = "registry.example.com"

func fakeOptions() registrytest.Options {
	return registrytest.Options{
		Providers: []registrytest.Provider{
			{Namespace: "acme", Type: "widget", Versions: []registrytest.Version{
				{Version: "1.0.0"},
				{Version: "1.1.0", Protocols: []string{"6.0"}},
				{Version: "2.0.0", Protocols: []string{"4.0"}},
			}},
		},
		Warnings: []string{"acme/widget is deprecated"},
	}
}

// backoffRecorder records what retryablehttp's default backoff would wait
// and waits a millisecond instead.
type backoffRecorder struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (b *backoffRecorder) backoff(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.waits = append(b.waits, retryablehttp.DefaultBackoff(min, max, attempt, resp))
	return time.Millisecond
}

type testEnv map[string]string

func (e testEnv) get(k string) string { return e[k] }
func (e testEnv) list() []string {
	var out []string
	for k, v := range e {
		out = append(out, k+"="+v)
	}
	return out
}

// testClient returns a client whose host blocks point registry.example.com
// and registry.opentofu.org at the fake.
func testClient(t testing.TB, srv *registrytest.Server, env testEnv, tweak ...func(*Settings)) (*Client, *backoffRecorder) {
	t.Helper()
	rec := &backoffRecorder{}
	s := Settings{
		Transport: srv.Transport(),
		Getenv:    env.get,
		Environ:   env.list,
		UserAgent: "tfdeps/test",
		Backoff:   rec.backoff,
		HostServices: map[string]map[string]any{
			exampleHost:             {"providers.v1": srv.ProvidersBaseURL()},
			"registry.opentofu.org": {"providers.v1": srv.ProvidersBaseURL()},
		},
	}
	for _, f := range tweak {
		f(&s)
	}
	return New(s), rec
}

func mustProvider(t *testing.T, s string) addrs.Provider {
	t.Helper()
	p, err := addrs.ParseProviderSource(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustVersion(t *testing.T, s string) versions.Version {
	t.Helper()
	v, err := versions.ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// withPort replaces the fake's address in s by ADDR, for stable texts.
func withAddr(srv *registrytest.Server, s string) string {
	return strings.ReplaceAll(s, srv.Host(), "ADDR")
}

var linuxAMD64 = addrs.Platform{OS: "linux", Arch: "amd64"}

func ctx(t *testing.T) context.Context { return t.Context() }

// contextWithCancelAfterRequest returns a context canceled once the fake has
// seen a request to e.
func contextWithCancelAfterRequest(t *testing.T, srv *registrytest.Server, e registrytest.Endpoint) (context.Context, context.CancelFunc) {
	c, cancel := context.WithCancel(t.Context())
	go func() {
		for srv.Count(e) == 0 {
			select {
			case <-c.Done():
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
		cancel()
	}()
	return c, cancel
}

func replaceAll(s, old, new string) string { return strings.ReplaceAll(s, old, new) }

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func mustHex32(t *testing.T, s string) [32]byte {
	t.Helper()
	var out [32]byte
	if _, err := hex.Decode(out[:], []byte(s)); err != nil {
		t.Fatal(err)
	}
	return out
}

// assertEmptyDir fails when dir holds anything: no temporary file may
// survive a download.
func assertEmptyDir(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left behind: %s", e.Name())
	}
}

func mustProviderB(b *testing.B, s string) addrs.Provider {
	p, err := addrs.ParseProviderSource(s)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func mustVersionB(b *testing.B, s string) versions.Version {
	v, err := versions.ParseVersion(s)
	if err != nil {
		b.Fatal(err)
	}
	return v
}
