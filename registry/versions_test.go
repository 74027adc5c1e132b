package registry

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/versions"
)

func TestListVersions(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	c, _ := testClient(t, srv, testEnv{"TF_APPEND_USER_AGENT": "  ci-run  ", "TF_TOKEN_registry_example_com": "s3cret"})
	got, err := c.ListVersions(ctx(t), mustProvider(t, exampleHost+"/acme/widget"))
	if err != nil {
		t.Fatal(err)
	}
	want := &VersionsResponse{
		Versions: versions.List{mustVersion(t, "1.0.0"), mustVersion(t, "1.1.0"), mustVersion(t, "2.0.0")},
		Protocols: map[versions.Version][]string{
			mustVersion(t, "1.0.0"): {"5.0"}, mustVersion(t, "1.1.0"): {"6.0"}, mustVersion(t, "2.0.0"): {"4.0"},
		},
		Warnings: []string{"acme/widget is deprecated"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	h := srv.Requests()[0].Header
	wantHeaders := map[string]string{
		"User-Agent":          "tfdeps/test ci-run",
		"X-Terraform-Version": "1.12.6",
		"Authorization":       "Bearer s3cret",
	}
	for k, v := range wantHeaders {
		if h.Get(k) != v {
			t.Errorf("header %s = %q, want %q", k, h.Get(k), v)
		}
	}
}

func TestDecodeVersions(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    []string
		wantErr string
		// wantProtocols, when set, is the protocols of each version.
		wantProtocols map[string][]string
	}{
		{name: "short and full form are one version, first wins",
			body:          `{"versions":[{"version":"1.0","protocols":["5.0"]},{"version":"1.0.0","protocols":["6.0"]},{"version":"1.0.0+x"}]}`,
			want:          []string{"1.0.0", "1.0.0+x"},
			wantProtocols: map[string][]string{"1.0.0": {"5.0"}, "1.0.0+x": nil}},
		{name: "duplicates collapse", body: `{"versions":[{"version":"1.0.0"},{"version":"0.9.0"},{"version":"1.0.0"}]}`, want: []string{"0.9.0", "1.0.0"}},
		{name: "empty", body: `{}`},
		{name: "invalid version", body: `{"versions":[{"version":"1.0.0"},{"version":"v1"}]}`,
			wantErr: `registry response includes invalid version string "v1": `},
		{name: "bad json", body: `{"versions":{}}`,
			wantErr: "json: cannot unmarshal object into Go struct field .versions of type []struct { Version string \"json:\\\"version\\\"\"; Protocols []string \"json:\\\"protocols\\\"\" }"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeVersions([]byte(tt.body))
			if tt.wantErr != "" {
				if err == nil || len(err.Error()) < len(tt.wantErr) || err.Error()[:len(tt.wantErr)] != tt.wantErr {
					t.Fatalf("error = %v, want prefix %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var strs []string
			for _, v := range got.Versions {
				strs = append(strs, v.String())
			}
			if diff := cmp.Diff(tt.want, strs); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tt.wantProtocols != nil {
				gotProtocols := map[string][]string{}
				for v, p := range got.Protocols {
					gotProtocols[v.String()] = p
				}
				if diff := cmp.Diff(tt.wantProtocols, gotProtocols); diff != "" {
					t.Errorf("protocols (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestListVersionsErrors(t *testing.T) {
	const path = "/v1/providers/acme/widget/versions"
	tests := []struct {
		name     string
		provider string
		opts     func(*registrytest.Options)
		env      testEnv
		fault    *registrytest.Fault
		handler  http.HandlerFunc
		want     string
		requests int
	}{
		{name: "unknown provider", provider: "acme/nope",
			want: "provider registry registry.example.com does not have a provider named registry.example.com/acme/nope", requests: 1},
		{name: "needs credentials", opts: func(o *registrytest.Options) { o.Tokens = []string{"good"} },
			want: "host registry.example.com requires authentication credentials", requests: 1},
		{name: "rejected credentials", opts: func(o *registrytest.Options) { o.Tokens = []string{"good"} },
			env:  testEnv{"TF_TOKEN_registry_example_com": "bad"},
			want: "host registry.example.com rejected the given authentication credentials", requests: 1},
		{name: "accepted credentials", opts: func(o *registrytest.Options) { o.Tokens = []string{"good"} },
			env: testEnv{"TF_TOKEN_registry_example_com": "good"}, want: "<nil>", requests: 1},
		{name: "bad request not retried", fault: &registrytest.Fault{Kind: registrytest.Status, Status: 400},
			want: "could not query provider registry for registry.example.com/acme/widget: 400 Bad Request", requests: 1},
		{name: "500 once is retried", fault: &registrytest.Fault{Kind: registrytest.Status, Times: 1}, want: "<nil>", requests: 2},
		{name: "500 exhausts retries", fault: &registrytest.Fault{Kind: registrytest.Status},
			want:     "could not query provider registry for registry.example.com/acme/widget: request failed after 2 attempts: 500 Internal Server Error returned from https://ADDR" + path,
			requests: 2},
		{name: "501 not retried", fault: &registrytest.Fault{Kind: registrytest.Status, Status: 501},
			want: "could not query provider registry for registry.example.com/acme/widget: 501 Not Implemented", requests: 1},
		{name: "more retries from env", env: testEnv{"TF_REGISTRY_DISCOVERY_RETRY": "3"}, fault: &registrytest.Fault{Kind: registrytest.Status, Status: 502},
			want:     "could not query provider registry for registry.example.com/acme/widget: request failed after 4 attempts: 502 Bad Gateway returned from https://ADDR" + path,
			requests: 4},
		{name: "invalid retry env ignored", env: testEnv{"TF_REGISTRY_DISCOVERY_RETRY": "-2"}, fault: &registrytest.Fault{Kind: registrytest.Drop},
			want:     `could not query provider registry for registry.example.com/acme/widget: request failed after 2 attempts: Get "https://ADDR` + path + `": EOF`,
			requests: 2},
		{name: "wrong JSON", handler: serveDoc("application/json", `{"versions":"no"}`),
			want:     `could not query provider registry for registry.example.com/acme/widget: json: cannot unmarshal string into Go struct field .versions of type []struct { Version string "json:\"version\""; Protocols []string "json:\"protocols\"" }`,
			requests: 1},
		{name: "oversized", fault: &registrytest.Fault{Kind: registrytest.Oversized},
			want: "could not query provider registry for registry.example.com/acme/widget: response body is too large (limit 16777216 bytes)", requests: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := fakeOptions()
			if tt.opts != nil {
				tt.opts(&opts)
			}
			srv := registrytest.New(t, opts)
			if tt.fault != nil {
				srv.Inject(registrytest.Versions, *tt.fault)
			}
			if tt.handler != nil {
				srv.Override(path, tt.handler)
			}
			provider := tt.provider
			if provider == "" {
				provider = "acme/widget"
			}
			env := tt.env
			if env == nil {
				env = testEnv{}
			}
			c, _ := testClient(t, srv, env)
			_, err := c.ListVersions(ctx(t), mustProvider(t, exampleHost+"/"+provider))
			if diff := cmp.Diff(tt.want, withAddr(srv, errText(err))); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if got := srv.Count(registrytest.Versions); got != tt.requests {
				t.Errorf("requests = %d, want %d", got, tt.requests)
			}
		})
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	srv.Inject(registrytest.Versions, registrytest.Fault{Kind: registrytest.Status, Status: 503, Times: 1, Header: http.Header{"Retry-After": {"7"}}})
	srv.Inject(registrytest.Versions, registrytest.Fault{Kind: registrytest.Status, Status: 500, Times: 1})
	c, rec := testClient(t, srv, testEnv{"TF_REGISTRY_DISCOVERY_RETRY": "2"})
	if _, err := c.ListVersions(ctx(t), mustProvider(t, exampleHost+"/acme/widget")); err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{7 * time.Second, 2 * time.Second}
	if diff := cmp.Diff(want, rec.waits); diff != "" {
		t.Errorf("backoff waits (-want +got):\n%s", diff)
	}
}

func TestRequestTimeout(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	srv.Inject(registrytest.Versions, registrytest.Fault{Kind: registrytest.Hang})
	zero := 0
	c, _ := testClient(t, srv, testEnv{}, func(s *Settings) {
		s.RetryCount = &zero
		s.RequestTimeout = 200 * time.Millisecond
	})
	_, err := c.ListVersions(ctx(t), mustProvider(t, exampleHost+"/acme/widget"))
	want := fmt.Sprintf(`could not query provider registry for registry.example.com/acme/widget: request failed: Get "https://ADDR/v1/providers/acme/widget/versions": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`)
	if diff := cmp.Diff(want, withAddr(srv, errText(err))); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	var qe *QueryError
	if !errors.As(err, &qe) {
		t.Errorf("error is %T, want *QueryError", err)
	}
}

func TestCanceledQuery(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	srv.Inject(registrytest.Versions, registrytest.Fault{Kind: registrytest.Hang})
	c, _ := testClient(t, srv, testEnv{})
	cctx, cancel := contextWithCancelAfterRequest(t, srv, registrytest.Versions)
	defer cancel()
	_, err := c.ListVersions(cctx, mustProvider(t, exampleHost+"/acme/widget"))
	if got := errText(err); got != "request canceled" {
		t.Errorf("error = %q, want %q", got, "request canceled")
	}
}

func TestCredentialsHelperUnsupported(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	c, _ := testClient(t, srv, testEnv{}, func(s *Settings) { s.CredentialsHelper = "corp" })
	_, err := c.ListVersions(ctx(t), mustProvider(t, exampleHost+"/acme/widget"))
	want := `failed to retrieve credentials for registry.example.com: credentials helper "corp" is not supported by tfdeps`
	if got := errText(err); got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
	if got := srv.Count(registrytest.Versions); got != 0 {
		t.Errorf("requests = %d, want 0", got)
	}
}

func TestLegacyNamespace(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	srv.Override("/v1/providers/-/widget/versions", serveDoc("application/json", `{"id":"acme/widget","moved_to":"newco/widget"}`))
	c, _ := testClient(t, srv, testEnv{})
	if got := c.LegacyNamespace(ctx(t), mustProvider(t, "hashicorp/widget")); got != "newco" {
		t.Errorf("LegacyNamespace = %q, want newco", got)
	}
	if got := c.LegacyNamespace(ctx(t), mustProvider(t, "hashicorp/nothing")); got != "" {
		t.Errorf("LegacyNamespace of unknown = %q, want empty", got)
	}
}

func TestSlowAndHangingResponses(t *testing.T) {
	zero := 0
	short := func(s *Settings) {
		s.RetryCount = &zero
		s.RequestTimeout = 200 * time.Millisecond
	}
	tests := []struct {
		name     string
		endpoint registrytest.Endpoint
		fault    registrytest.Fault
		provider string
		want     string
	}{
		{name: "hanging discovery", endpoint: registrytest.Discovery, fault: registrytest.Fault{Kind: registrytest.Hang}, provider: "ADDR/acme/widget",
			want: `could not connect to ADDR: failed to request discovery document: Get "https://ADDR/.well-known/terraform.json": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`},
		{name: "slow versions body", endpoint: registrytest.Versions, fault: registrytest.Fault{Kind: registrytest.Slow, Delay: time.Second}, provider: exampleHost + "/acme/widget",
			want: "could not query provider registry for registry.example.com/acme/widget: context deadline exceeded (Client.Timeout or context cancellation while reading body)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := registrytest.New(t, fakeOptions())
			srv.Inject(tt.endpoint, tt.fault)
			c, _ := testClient(t, srv, testEnv{}, short)
			_, err := c.ListVersions(ctx(t), mustProvider(t, replaceAll(tt.provider, "ADDR", srv.Host())))
			if diff := cmp.Diff(tt.want, withAddr(srv, errText(err))); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}
