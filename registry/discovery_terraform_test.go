package registry

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// TestDiscoveryTerraformRetries checks Terraform's discovery retries: 4
// attempts for retryable failures, one for the others, go-retryablehttp's
// "giving up" text, and the backoff it asks for (100 ms doubling, or the
// server's Retry-After), whatever TF_REGISTRY_DISCOVERY_RETRY says.
func TestDiscoveryTerraformRetries(t *testing.T) {
	const wk = "/.well-known/terraform.json"
	const giveUp = "could not connect to ADDR: failed to request discovery document: GET https://ADDR/.well-known/terraform.json giving up after "
	backoff := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}
	tests := []struct {
		name      string
		env       testEnv
		faults    []registrytest.Fault
		handler   http.HandlerFunc
		want      string // ListVersions error ("" for none), ADDR = the fake's address
		requests  int    // to the discovery document
		wantWaits []time.Duration
	}{
		{name: "server error", faults: []registrytest.Fault{{Kind: registrytest.Status}},
			want: giveUp + "4 attempt(s)", requests: 4, wantWaits: backoff},
		{name: "retry count variable does not apply", env: testEnv{"TF_REGISTRY_DISCOVERY_RETRY": "7"},
			faults: []registrytest.Fault{{Kind: registrytest.Status, Status: http.StatusBadGateway}},
			want:   giveUp + "4 attempt(s)", requests: 4, wantWaits: backoff},
		{name: "dropped connection", faults: []registrytest.Fault{{Kind: registrytest.Drop}},
			want: giveUp + `4 attempt(s): Get "https://ADDR/.well-known/terraform.json": EOF`, requests: 4, wantWaits: backoff},
		{name: "recovers on the third attempt", faults: []registrytest.Fault{{Kind: registrytest.Status, Times: 2}},
			requests: 3, wantWaits: backoff[:2]},
		{name: "retry-after", faults: []registrytest.Fault{{Kind: registrytest.Status, Status: http.StatusTooManyRequests, Times: 1, Header: http.Header{"Retry-After": {"3"}}}},
			requests: 2, wantWaits: []time.Duration{3 * time.Second}},
		{name: "not implemented is not retried", faults: []registrytest.Fault{{Kind: registrytest.Status, Status: http.StatusNotImplemented}},
			want: "could not connect to ADDR: failed to request discovery document: 501 Not Implemented", requests: 1},
		{name: "forbidden is not retried", faults: []registrytest.Fault{{Kind: registrytest.Status, Status: http.StatusForbidden}},
			want: "could not connect to ADDR: failed to request discovery document: 403 Forbidden", requests: 1},
		// Go's client names the Location as sent in a redirect error.
		{name: "redirect loop", handler: func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, wk, http.StatusFound)
		}, want: giveUp + `4 attempt(s): Get "/.well-known/terraform.json": too many redirects`, requests: 16, wantWaits: backoff},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := registrytest.New(t, fakeOptions())
			for _, f := range tt.faults {
				srv.Inject(registrytest.Discovery, f)
			}
			if tt.handler != nil {
				srv.Override(wk, tt.handler)
			}
			c, rec := testClient(t, srv, tt.env, func(s *Settings) { s.Flavour = flavour.Terraform })
			_, err := c.ListVersions(ctx(t), mustProvider(t, srv.Host()+"/acme/widget"))
			got := ""
			if err != nil {
				got = withAddr(srv, err.Error())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if got := srv.CountPath(wk); got != tt.requests {
				t.Errorf("discovery requests = %d, want %d", got, tt.requests)
			}
			if diff := cmp.Diff(tt.wantWaits, rec.waits); diff != "" {
				t.Errorf("backoff waits (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDiscoveryTerraformCertificateError checks that an untrusted
// certificate is not retried, yet reported in go-retryablehttp's words.
func TestDiscoveryTerraformCertificateError(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	c, rec := testClient(t, srv, testEnv{}, func(s *Settings) {
		s.Flavour = flavour.Terraform
		s.Transport = http.DefaultTransport.(*http.Transport).Clone() // system roots only
	})
	_, err := c.ListVersions(ctx(t), mustProvider(t, srv.Host()+"/acme/widget"))
	want := `could not connect to ADDR: failed to request discovery document: GET https://ADDR/.well-known/terraform.json giving up after 1 attempt(s): Get "https://ADDR/.well-known/terraform.json": tls: failed to verify certificate: x509: certificate signed by unknown authority`
	if got := withAddr(srv, errText(err)); got != want {
		t.Errorf("error:\n got %s\nwant %s", got, want)
	}
	if len(rec.waits) != 0 {
		t.Errorf("backoff waits = %v, want none", rec.waits)
	}
}

// TestDiscoveryTerraformDefaults pins the Terraform client's knobs, which
// no variable changes.
func TestDiscoveryTerraformDefaults(t *testing.T) {
	env := testEnv{"TF_REGISTRY_DISCOVERY_RETRY": "9", "TF_REGISTRY_CLIENT_TIMEOUT": "60"}
	d := NewDisco(Settings{Flavour: flavour.Terraform, Getenv: env.get}, nil)
	if d.retrying == nil {
		t.Fatal("Terraform flavour: no retrying discovery client")
	}
	c := d.retrying
	got := []any{c.RetryMax, c.RetryWaitMin, c.RetryWaitMax, c.HTTPClient.Timeout}
	want := []any{3, 100 * time.Millisecond, time.Second, 5 * time.Second}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("retries, waits, timeout (-want +got):\n%s", diff)
	}
	if NewDisco(Settings{Getenv: env.get}, nil).retrying != nil {
		t.Error("OpenTofu flavour: discovery retries")
	}
}
