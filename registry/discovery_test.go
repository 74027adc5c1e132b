package registry

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opentofu/svchost"
	"github.com/tfdeps/tfdeps/internal/registrytest"
)

func serveDoc(contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		fmt.Fprint(w, body)
	}
}

func TestDiscoveryErrors(t *testing.T) {
	const wk = "/.well-known/terraform.json"
	tests := []struct {
		name    string
		handler http.HandlerFunc
		fault   *registrytest.Fault
		want    string // ListVersions error, ADDR = the fake's address
	}{
		{name: "server error", fault: &registrytest.Fault{Kind: registrytest.Status},
			want: "could not connect to ADDR: failed to request discovery document: 500 Internal Server Error"},
		{name: "not found means no services", handler: func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) },
			want: "host ADDR does not offer a OpenTofu provider registry"},
		{name: "malformed content type", handler: serveDoc("application/", `{}`),
			want: `could not connect to ADDR: discovery URL has a malformed Content-Type "application/"`},
		{name: "wrong content type", fault: &registrytest.Fault{Kind: registrytest.WrongContentType},
			want: `could not connect to ADDR: discovery URL returned an unsupported Content-Type "text/html"`},
		{name: "oversized", fault: &registrytest.Fault{Kind: registrytest.Oversized},
			want: "could not connect to ADDR: discovery doc response is too large (got 2097152 bytes; limit 1048576)"},
		{name: "not an object", handler: serveDoc("application/json", `["providers.v1"]`),
			want: "could not connect to ADDR: failed to decode discovery document as a JSON object: json: cannot unmarshal array into Go value of type map[string]interface {}"},
		{name: "dropped connection", fault: &registrytest.Fault{Kind: registrytest.Drop},
			want: `could not connect to ADDR: failed to request discovery document: Get "https://ADDR/.well-known/terraform.json": EOF`},
		{name: "no providers service", handler: serveDoc("application/json", `{"modules.v1":"/m/"}`),
			want: "host ADDR does not offer a OpenTofu provider registry"},
		{name: "other protocol version", handler: serveDoc("application/json", `{"providers.v2":"/p/"}`),
			want: "host ADDR does not support the provider registry protocol required by this OpenTofu version, but may be compatible with a different OpenTofu version"},
		{name: "non-string providers.v1", handler: serveDoc("application/json; charset=utf-8", `{"providers.v1":{"url":"/p/"}}`),
			want: "host ADDR does not support the provider registry protocol required by this OpenTofu version, but may be compatible with a different OpenTofu version"},
		{name: "unsupported scheme", handler: serveDoc("application/json", `{"providers.v1":"ftp://x/p/"}`),
			want: "could not connect to ADDR: failed to parse service URL: unsupported scheme ftp"},
		{name: "user info", handler: serveDoc("application/json", `{"providers.v1":"https://u:p@x/p/"}`),
			want: "could not connect to ADDR: failed to parse service URL: embedded username/password information is not permitted"},
		{name: "bad URL", handler: serveDoc("application/json", `{"providers.v1":"https://x/%zz"}`),
			want: `could not connect to ADDR: failed to parse service URL: parse "https://x/%zz": invalid URL escape "%zz"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := registrytest.New(t, fakeOptions())
			if tt.handler != nil {
				srv.Override(wk, tt.handler)
			}
			if tt.fault != nil {
				srv.Inject(registrytest.Discovery, *tt.fault)
			}
			c, _ := testClient(t, srv, testEnv{})
			_, err := c.ListVersions(ctx(t), mustProvider(t, srv.Host()+"/acme/widget"))
			if diff := cmp.Diff(tt.want, withAddr(srv, errText(err))); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if got := srv.Count(registrytest.Discovery); got != 1 {
				t.Errorf("discovery requests = %d, want 1 (no retries)", got)
			}
		})
	}
}

func TestDiscoveryRelativeURLAndCache(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	srv.Override("/.well-known/terraform.json", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/moved/terraform.json", http.StatusFound)
	})
	srv.Override("/moved/terraform.json", serveDoc("application/json", `{"providers.v1":"../v1/providers/#frag"}`))
	env := testEnv{"TF_TOKEN_127_0_0_1": "ignored-without-port", "TF_TOKEN_" + srv.Host(): "disco-token"}
	c, _ := testClient(t, srv, env)
	host := svchost.Hostname(srv.Host())
	for range 2 {
		svc, err := c.Disco().Discover(ctx(t), host)
		if err != nil {
			t.Fatal(err)
		}
		u, err := svc.ProvidersV1()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := u.String(), srv.URL()+"/v1/providers/"; got != want {
			t.Errorf("providers.v1 = %s, want %s", got, want)
		}
	}
	if got := srv.CountPath("/.well-known/terraform.json"); got != 1 {
		t.Errorf("discovery requests = %d, want 1 (cached)", got)
	}
	req := srv.Requests()[0]
	want := http.Header{"Accept": {"application/json"}, "User-Agent": {"tfdeps/test"}, "Accept-Encoding": {"gzip"}, "Authorization": {"Bearer disco-token"}}
	if diff := cmp.Diff(want, req.Header); diff != "" {
		t.Errorf("discovery headers (-want +got):\n%s", diff)
	}
}

func TestDiscoveryHostBlockMakesNoRequest(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	c, _ := testClient(t, srv, testEnv{}, func(s *Settings) {
		s.HostServices["relative.example"] = map[string]any{"providers.v1": "/v1/providers/"}
	})
	svc, err := c.Disco().Discover(ctx(t), "relative.example")
	if err != nil {
		t.Fatal(err)
	}
	u, err := svc.ProvidersV1()
	if err != nil {
		t.Fatal(err)
	}
	if got := u.String(); got != "https://relative.example/v1/providers/" {
		t.Errorf("forced relative URL = %s", got)
	}
	if _, err := c.ListVersions(ctx(t), mustProvider(t, exampleHost+"/acme/widget")); err != nil {
		t.Fatal(err)
	}
	if got := srv.Count(registrytest.Discovery); got != 0 {
		t.Errorf("discovery requests = %d, want 0", got)
	}
}

func TestDiscoveryUnreachable(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	host := srv.Host()
	c, _ := testClient(t, srv, testEnv{})
	srv.Close()
	_, err := c.ListVersions(ctx(t), mustProvider(t, host+"/acme/widget"))
	want := `could not connect to ` + host + `: failed to request discovery document: Get "https://` + host + `/.well-known/terraform.json": dial tcp ` + host + `: connect: connection refused`
	if got := errText(err); got != want {
		t.Errorf("error:\n got %s\nwant %s", got, want)
	}
	var hu *HostUnreachableError
	if !errors.As(err, &hu) {
		t.Errorf("error is %T, want *HostUnreachableError", err)
	}
}

func TestDecodeDiscovery(t *testing.T) {
	got, err := DecodeDiscovery([]byte(`{"providers.v1":"/v1/providers/","modules.v1":"/v1/modules/"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"providers.v1": "/v1/providers/", "modules.v1": "/v1/modules/"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := DecodeDiscovery([]byte(`null`)); err != nil {
		t.Errorf("null document: %v", err)
	}
}
