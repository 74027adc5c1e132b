package serve

import (
	"errors"
	"log/slog"
	"regexp"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

func TestPublicError(t *testing.T) {
	tests := []struct{ in, want string }{
		{`could not query provider registry for registry.opentofu.org/hashicorp/null: Get "https://user:secret@10.1.2.3:8443/v1/providers/hashicorp/null/versions?token=x": EOF`,
			`could not query provider registry for registry.opentofu.org/hashicorp/null: Get "(URL withheld)": EOF`},
		{`dial tcp: lookup registry.internal on 127.0.0.53:53: no such host`,
			`dial tcp: lookup registry.internal on (address withheld): no such host`},
		{`dial tcp [fd00::1]:443: connect: connection refused`, `dial tcp (address withheld): connect: connection refused`},
		{`open /var/tmp/tfdeps-serve-t1-2-3.4/tfdeps-provider-5.zip: no space left on device`, `open (path withheld): no space left on device`},
		{`upstream answered 429 Too Many Requests to 3 tries (Retry-After 2s)`, `upstream answered 429 Too Many Requests to 3 tries (Retry-After 2s)`},
		{`failed to authenticate registry.opentofu.org/hashicorp/null v3.2.1 for linux_amd64: checksum mismatch`,
			`failed to authenticate registry.opentofu.org/hashicorp/null v3.2.1 for linux_amd64: checksum mismatch`},
	}
	for _, tt := range tests {
		if got := publicError(errors.New(tt.in)); got != tt.want {
			t.Errorf("publicError(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// An upstream failure reaches the client without the upstream's URL or any
// address (the fake upstream's service URL is an internal one,
// https://127.0.0.1:PORT/...); the log has them.
func TestErrorBodyWithholdsUpstreamURL(t *testing.T) {
	var logs lockedBuffer
	f := newFixture(t, func(o *Options) {
		o.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	f.upstream.Inject(registrytest.Versions, registrytest.Fault{Kind: registrytest.Drop})
	code, body := f.get(nullIndex)
	if code < 500 {
		t.Fatalf("index.json with the upstream dropping connections: %d %s", code, body)
	}
	t.Logf("body: %s", body)
	address := regexp.MustCompile(`[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+|https?://`)
	if address.Match(body) {
		t.Errorf("the error body carries internal detail: %s", body)
	}
	if !strings.HasPrefix(string(body), "upstream: ") {
		t.Errorf("the body does not say the upstream failed: %s", body)
	}
	if !strings.Contains(logs.String(), "127.0.0.1") {
		t.Errorf("the log lacks the detail:\n%s", logs.String())
	}
}

func TestMetricsExistAtZero(t *testing.T) {
	f := newFixture(t, nil)
	m := f.metrics()
	for _, want := range []string{
		`tfdeps_serve_requests_total{code="200",route="mirror_version"} 0`,
		`tfdeps_serve_request_duration_seconds_count{route="mirror_archive"} 0`,
		`tfdeps_serve_response_bytes_total{route="mirror_index"} 0`,
		`tfdeps_serve_cache_total{kind="versions",result="stale"} 0`,
		`tfdeps_serve_cache_total{kind="archive",result="miss"} 0`,
		`tfdeps_serve_upstream_errors_total{kind="archive"} 0`,
		`tfdeps_serve_upstream_failed_tries_total{reason="timeout"} 0`,
		`tfdeps_serve_upstream_download_seconds_count 0`,
		`tfdeps_serve_upstream_download_bytes_total 0`,
		`tfdeps_serve_upstream_downloads_in_flight 0`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("a new server's metrics lack %s", want)
		}
	}
}
