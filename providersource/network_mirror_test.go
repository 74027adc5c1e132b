package providersource

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

var (
	widget = addrs.NewDefaultProvider("widget")
	linux  = addrs.Platform{OS: "linux", Arch: "amd64"}
)

func fakeOptions() registrytest.Options {
	return registrytest.Options{Providers: []registrytest.Provider{{
		Namespace: "hashicorp", Type: "widget",
		Versions: []registrytest.Version{{Version: "1.0.0"}, {Version: "2.0.0", Platforms: []string{"linux_amd64"}}},
	}}}
}

// newMirror returns a network mirror source for srv's mirror.
func newMirror(t *testing.T, srv *registrytest.Server, trust bool, environ ...string) *NetworkMirror {
	t.Helper()
	u, err := ParseNetworkMirrorURL(srv.MirrorBaseURL())
	if err != nil {
		t.Fatal(err)
	}
	settings := registry.Settings{Transport: srv.Transport(), Environ: func() []string { return environ }, Getenv: func(string) string { return "" }}
	creds := registry.NewCredentials(environ, nil, "")
	return NewNetworkMirror(u, NetworkMirrorOptions{Settings: settings, Credentials: creds, TrustAllHashes: trust})
}

func TestNetworkMirrorVersionsAndPackage(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	m := newMirror(t, srv, false)
	ctx := context.Background()

	list, warnings, err := m.AvailableVersions(ctx, widget)
	if err != nil || warnings != nil {
		t.Fatal(err, warnings)
	}
	if diff := cmp.Diff(versions.List{{Major: 1}, {Major: 2}}, list); diff != "" {
		t.Errorf("versions (-want +got):\n%s", diff)
	}

	meta, err := m.PackageMeta(ctx, widget, versions.Version{Major: 1}, linux)
	if err != nil {
		t.Fatal(err)
	}
	info, err := srv.Package("hashicorp", "widget", "1.0.0", "linux_amd64")
	if err != nil {
		t.Fatal(err)
	}
	wantURL := srv.MirrorBaseURL() + "registry.opentofu.org/hashicorp/widget/" + info.Filename
	if meta.Location.String() != wantURL || meta.Filename != info.Filename || meta.TargetPlatform != linux {
		t.Errorf("got location %s filename %s", meta.Location, meta.Filename)
	}
	auth, ok := meta.Authentication.(*MirrorAuthentication)
	if !ok {
		t.Fatalf("authentication %T", meta.Authentication)
	}
	want := &MirrorAuthentication{Platform: linux, Hashes: []hashes.Hash{hashes.Hash(info.H1), hashes.Hash(info.ZH())}}
	if diff := cmp.Diff(want, auth); diff != "" {
		t.Errorf("authentication (-want +got):\n%s", diff)
	}

	t.Run("headers", func(t *testing.T) {
		for _, r := range srv.Requests() {
			if r.Endpoint != registrytest.MirrorIndex && r.Endpoint != registrytest.MirrorVersion {
				continue
			}
			if r.Header.Get("X-Terraform-Version") != registry.DefaultEmulatedVersion || r.Header.Get("User-Agent") == "" || r.Header.Get("Authorization") != "" {
				t.Errorf("%s: wrong headers %v", r.Path, r.Header)
			}
		}
	})
	t.Run("platform missing", func(t *testing.T) {
		_, err := m.PackageMeta(ctx, widget, versions.Version{Major: 2}, addrs.Platform{OS: "darwin", Arch: "arm64"})
		want := "provider mirror " + srv.MirrorBaseURL() + " does not have a package of registry.opentofu.org/hashicorp/widget 2.0.0 for darwin_arm64"
		if err == nil || err.Error() != want || !isPlatformUnsupported(err) {
			t.Errorf("got %v\nwant %s", err, want)
		}
	})
	t.Run("unknown provider", func(t *testing.T) {
		_, _, err := m.AvailableVersions(ctx, addrs.NewDefaultProvider("nope"))
		if !isNotFound(err) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("unknown version is a query error", func(t *testing.T) {
		_, err := m.PackageMeta(ctx, widget, versions.Version{Major: 3}, linux)
		want := "failed to query provider mirror " + srv.MirrorBaseURL() + " for registry.opentofu.org/hashicorp/widget: " +
			"provider mirror does not have archive index for previously-reported registry.opentofu.org/hashicorp/widget version 3.0.0"
		if err == nil || err.Error() != want {
			t.Errorf("got %v\nwant %s", err, want)
		}
	})
	t.Run("display", func(t *testing.T) {
		if got := m.ForDisplay(widget); got != "provider mirror at "+srv.MirrorBaseURL() {
			t.Errorf("got %q", got)
		}
	})
}

func TestNetworkMirrorFaults(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name     string
		endpoint registrytest.Endpoint
		fault    registrytest.Fault
		want     string // after "failed to query provider mirror BASE for PROVIDER: "
	}{
		{"wrong content type", registrytest.MirrorIndex, registrytest.Fault{Kind: registrytest.WrongContentType},
			"response has invalid Content-Type: must be application/json"},
		{"oversized index", registrytest.MirrorIndex, registrytest.Fault{Kind: registrytest.Oversized},
			"response body is too large (limit 16777216 bytes)"},
		{"server error", registrytest.MirrorIndex, registrytest.Fault{Kind: registrytest.Status, Status: 500},
			"request failed: 500 Internal Server Error returned from URL/registry.opentofu.org/hashicorp/widget/index.json"},
		{"non-retryable status", registrytest.MirrorIndex, registrytest.Fault{Kind: registrytest.Status, Status: 400},
			"server returned unsuccessful status 400"},
		{"dropped connection", registrytest.MirrorIndex, registrytest.Fault{Kind: registrytest.Drop},
			`request failed: Get "URL/registry.opentofu.org/hashicorp/widget/index.json": EOF`},
		{"truncated", registrytest.MirrorIndex, registrytest.Fault{Kind: registrytest.Truncate},
			"invalid response content from mirror server: unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := registrytest.New(t, fakeOptions())
			srv.Inject(tt.endpoint, tt.fault)
			m := newMirror(t, srv, false)
			_, _, err := m.AvailableVersions(ctx, widget)
			base := srv.MirrorBaseURL()
			want := "failed to query provider mirror " + base + " for registry.opentofu.org/hashicorp/widget: " +
				strings.ReplaceAll(tt.want, "URL/", base)
			if err == nil || err.Error() != want {
				t.Errorf("got  %v\nwant %s", err, want)
			}
		})
	}
}

// TestNetworkMirrorTerraformRetries: Terraform's mirror client retries a
// failed request as its registry client does (once by default,
// TF_REGISTRY_DISCOVERY_RETRY times when set), and its text names only the
// host; OpenTofu's tries once.
func TestNetworkMirrorTerraformRetries(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name         string
		flavour      flavour.Flavour
		env          map[string]string
		fault        registrytest.Fault
		want         string // after "failed to query provider mirror BASE for PROVIDER: "
		wantRequests int
	}{
		{"opentofu", flavour.OpenTofu, nil, registrytest.Fault{Kind: registrytest.Status, Status: 500},
			"request failed: 500 Internal Server Error returned from URL/registry.opentofu.org/hashicorp/widget/index.json", 1},
		{"terraform", flavour.Terraform, nil, registrytest.Fault{Kind: registrytest.Status, Status: 500},
			"the request failed after 2 attempts, please try again later: 500 Internal Server Error returned from HOST", 2},
		{"terraform with TF_REGISTRY_DISCOVERY_RETRY", flavour.Terraform, map[string]string{"TF_REGISTRY_DISCOVERY_RETRY": "3"}, registrytest.Fault{Kind: registrytest.Status, Status: 502},
			"the request failed after 4 attempts, please try again later: 502 Bad Gateway returned from HOST", 4},
		{"terraform dropped connection", flavour.Terraform, nil, registrytest.Fault{Kind: registrytest.Drop},
			`the request failed after 2 attempts, please try again later: Get "URL/registry.opentofu.org/hashicorp/widget/index.json": EOF`, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := registrytest.New(t, fakeOptions())
			srv.Inject(registrytest.MirrorIndex, tt.fault)
			u, err := ParseNetworkMirrorURL(srv.MirrorBaseURL())
			if err != nil {
				t.Fatal(err)
			}
			settings := registry.Settings{
				Transport: srv.Transport(), Flavour: tt.flavour,
				Getenv:  func(k string) string { return tt.env[k] },
				Backoff: func(_, _ time.Duration, _ int, _ *http.Response) time.Duration { return 0 },
			}
			m := NewNetworkMirror(u, NetworkMirrorOptions{Settings: settings, Credentials: registry.NewCredentials(nil, nil, "")})
			_, _, err = m.AvailableVersions(ctx, widget)
			base := srv.MirrorBaseURL()
			want := "failed to query provider mirror " + base + " for registry.opentofu.org/hashicorp/widget: " +
				strings.NewReplacer("URL/", base, "HOST", srv.Host()).Replace(tt.want)
			if err == nil || err.Error() != want {
				t.Errorf("got  %v\nwant %s", err, want)
			}
			if got := srv.Count(registrytest.MirrorIndex); got != tt.wantRequests {
				t.Errorf("%d requests, want %d", got, tt.wantRequests)
			}
		})
	}
}

func TestNetworkMirrorVersionDocumentErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		body string
		ct   string
		want string
	}{
		{name: "bad json", body: `{"archives": [}`, want: "invalid response content from mirror server: invalid character '}' looking for beginning of value"},
		{name: "bad content type", body: `{}`, ct: "application/json; x", want: "response has invalid Content-Type: mime: invalid media parameter"},
		{name: "bad hash", body: `{"archives": {"linux_amd64": {"url": "a.zip", "hashes": ["nohash"]}}}`,
			want: `provider mirror returned invalid provider hash "nohash": hash string must start with a scheme keyword followed by a colon`},
		{name: "bad url", body: `{"archives": {"linux_amd64": {"url": "%zz", "hashes": []}}}`,
			want: `provider mirror returned invalid URL "%zz": parse "%zz": invalid URL escape "%zz"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := registrytest.New(t, fakeOptions())
			ct := tt.ct
			if ct == "" {
				ct = "application/json"
			}
			srv.Override("/mirror/registry.opentofu.org/hashicorp/widget/1.0.0.json", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", ct)
				w.Write([]byte(tt.body))
			})
			_, err := newMirror(t, srv, false).PackageMeta(ctx, widget, versions.Version{Major: 1}, linux)
			want := "failed to query provider mirror " + srv.MirrorBaseURL() + " for registry.opentofu.org/hashicorp/widget: " + tt.want
			if err == nil || err.Error() != want {
				t.Errorf("got  %v\nwant %s", err, want)
			}
		})
	}
}

func TestNetworkMirrorRedirectsAndNoHashes(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	ctx := context.Background()
	// The archive URL resolves against the final URL after redirects.
	srv.Override("/mirror/registry.opentofu.org/hashicorp/widget/1.0.0.json", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere/doc.json", http.StatusFound)
	})
	srv.Override("/elsewhere/doc.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"archives": {"linux_amd64": {"url": "pkgs/a.zip"}}}`))
	})
	meta, err := newMirror(t, srv, false).PackageMeta(ctx, widget, versions.Version{Major: 1}, linux)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := meta.Location.String(), srv.URL()+"/elsewhere/pkgs/a.zip"; got != want || meta.Authentication != nil || meta.Filename != "a.zip" {
		t.Errorf("got %s %v %s, want %s without authentication", got, meta.Authentication, meta.Filename, want)
	}

	t.Run("too many redirects", func(t *testing.T) {
		for i := 0; i < 7; i++ {
			i := i
			srv.Override("/loop/"+string(rune('a'+i)), func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "/loop/"+string(rune('a'+i+1)), http.StatusFound)
			})
		}
		srv.Override("/mirror/registry.opentofu.org/hashicorp/widget/index.json", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/loop/a", http.StatusFound)
		})
		_, _, err := newMirror(t, srv, false).AvailableVersions(ctx, widget)
		// The sixth redirect is refused; Go names the Location as given.
		want := `: Get "/loop/f": too many redirects`
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("got  %v\nwant …%s", err, want)
		}
	})
}

func TestNetworkMirrorCredentials(t *testing.T) {
	opts := fakeOptions()
	opts.Tokens = []string{"secret"}
	srv := registrytest.New(t, opts)
	ctx := context.Background()

	_, _, err := newMirror(t, srv, false).AvailableVersions(ctx, widget)
	want := "host 127.0.0.1:" + strings.Split(srv.Host(), ":")[1] + " rejected the given authentication credentials"
	var ue *registry.UnauthorizedError
	if !errors.As(err, &ue) || err.Error() != want {
		t.Errorf("without token: got %v, want %s", err, want)
	}

	m := newMirror(t, srv, false, "TF_TOKEN_127.0.0.1:"+strings.Split(srv.Host(), ":")[1]+"=secret")
	if _, _, err := m.AvailableVersions(ctx, widget); err != nil {
		t.Errorf("with token: %v", err)
	}
}

func TestNetworkMirrorTimeoutAndScheme(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	srv.Inject(registrytest.MirrorVersion, registrytest.Fault{Kind: registrytest.Hang})
	u, _ := ParseNetworkMirrorURL(srv.MirrorBaseURL())
	settings := registry.Settings{Transport: srv.Transport(), RequestTimeout: 100 * time.Millisecond,
		Environ: func() []string { return nil }, Getenv: func(string) string { return "" }}
	m := NewNetworkMirror(u, NetworkMirrorOptions{Settings: settings})
	_, err := m.PackageMeta(context.Background(), widget, versions.Version{Major: 1}, linux)
	want := "request failed: Get \"" + srv.MirrorBaseURL() + "registry.opentofu.org/hashicorp/widget/1.0.0.json\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("got  %v\nwant …%s", err, want)
	}

	plain := NewNetworkMirror(mustURL("http://mirror.example.com/"), NetworkMirrorOptions{})
	_, _, err = plain.AvailableVersions(context.Background(), widget)
	if err == nil || !strings.HasSuffix(err.Error(), "the mirror must be at an https: URL, not http://mirror.example.com/") {
		t.Errorf("got %v", err)
	}
}

func TestNetworkMirrorCancel(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	srv.Inject(registrytest.MirrorIndex, registrytest.Fault{Kind: registrytest.Hang})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	_, _, err := newMirror(t, srv, false).AvailableVersions(ctx, widget)
	if _, ok := err.(registry.RequestCanceledError); !ok {
		t.Errorf("got %T %v", err, err)
	}
}

func TestParseNetworkMirrorURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://mirror.example.com/p/", ""},
		{"http://mirror.example.com/", `Cannot use "http://mirror.example.com/" as a URL for a network provider mirror: the mirror must be at an https: URL.`},
		{"https:///x", `Cannot use "https:///x" as a URL for a network provider mirror: the mirror must be at an https: URL.`},
		{"https://a b/", `Cannot parse "https://a b/" as a URL for a network provider mirror: parse "https://a b/": invalid character " " in host name.`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseNetworkMirrorURL(tt.in)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}
