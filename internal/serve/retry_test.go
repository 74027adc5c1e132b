package serve

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// getFull performs a GET and returns the response (body read) and body.
func (f *fixture) getFull(path string) (*http.Response, string) {
	f.t.Helper()
	resp, err := http.Get(f.http.URL + path)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return resp, string(b)
}

// archiveKeys lists the stored archives.
func (f *fixture) archiveKeys() []string {
	var out []string
	for _, k := range f.keys() {
		if strings.HasSuffix(k, ".zip") {
			out = append(out, k)
		}
	}
	return out
}

func (f *fixture) metrics() string {
	_, body := f.get("/metrics")
	return string(body)
}

func retryAfter(s string) http.Header { return http.Header{"Retry-After": {s}} }

func TestUpstream429ThenSuccess(t *testing.T) {
	tests := []struct {
		name       string
		endpoint   registrytest.Endpoint
		path       string
		header     http.Header
		wantPauses []time.Duration
	}{
		{"archive, Retry-After seconds", registrytest.Archive, nullArchive, retryAfter("2"), []time.Duration{2 * time.Second}},
		{"archive, no Retry-After", registrytest.Archive, nullArchive, nil, []time.Duration{500 * time.Millisecond}},
		{"package metadata", registrytest.PackageMeta, nullArchive, retryAfter("1"), []time.Duration{time.Second}},
		{"SHA256SUMS", registrytest.SHA256SUMS, nullArchive, retryAfter("1"), []time.Duration{time.Second}},
		{"versions", registrytest.Versions, nullIndex, retryAfter("3"), []time.Duration{3 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			f.upstream.Inject(tt.endpoint, registrytest.Fault{Kind: registrytest.Status, Status: 429, Header: tt.header, Times: 1})
			resp, body := f.getFull(tt.path)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d, want 200: %s", resp.StatusCode, body)
			}
			if n := f.upstream.Count(tt.endpoint); n != 2 {
				t.Errorf("upstream saw %d requests at the endpoint, want 2 (429, then success)", n)
			}
			if diff := cmp.Diff(tt.wantPauses, f.pauses.list()); diff != "" {
				t.Errorf("pauses (-want +got):\n%s", diff)
			}
			if tt.path == nullArchive {
				if got := f.archiveKeys(); len(got) != 1 {
					t.Errorf("stored archives %v, want one", got)
				}
			}
			if m := f.metrics(); !strings.Contains(m, `tfdeps_serve_upstream_failed_tries_total{reason="429"} 1`) {
				t.Errorf("metrics do not count the failed try:\n%s", grepLines(m, "upstream"))
			}
		})
	}
}

func TestUpstreamPersistentFailureReachesClient(t *testing.T) {
	tests := []struct {
		name           string
		endpoint       registrytest.Endpoint
		fault          registrytest.Fault
		path           string
		wantStatus     int
		wantRetryAfter string
		wantTries      int
		wantReason     string
		wantKind       string
	}{
		// A Retry-After longer than the policy's MaxWait is not waited for:
		// the client is told to come back then.
		{"archive 429, long Retry-After", registrytest.Archive, registrytest.Fault{Kind: registrytest.Status, Status: 429, Header: retryAfter("120")},
			nullArchive, 429, "120", 1, "429", "archive"},
		{"archive 429, short Retry-After", registrytest.Archive, registrytest.Fault{Kind: registrytest.Status, Status: 429, Header: retryAfter("1")},
			nullArchive, 429, "1", 3, "429", "archive"},
		{"archive 429, no Retry-After", registrytest.Archive, registrytest.Fault{Kind: registrytest.Status, Status: 429},
			nullArchive, 429, "10", 3, "429", "archive"},
		{"archive 429, Retry-After date", registrytest.Archive, registrytest.Fault{Kind: registrytest.Status, Status: 429,
			Header: retryAfter(time.Now().Add(time.Hour).UTC().Format(http.TimeFormat))}, nullArchive, 429, "", 1, "429", "archive"},
		{"versions 503", registrytest.Versions, registrytest.Fault{Kind: registrytest.Status, Status: 503, Header: retryAfter("7")},
			nullVersion, 503, "7", 1, "5xx", "platforms"},
		{"archive 500", registrytest.Archive, registrytest.Fault{Kind: registrytest.Status, Status: 500},
			nullArchive, 502, "", 3, "5xx", "archive"},
		{"archive dropped", registrytest.Archive, registrytest.Fault{Kind: registrytest.Drop},
			nullArchive, 502, "", 3, "connection", "archive"},
		{"archive 501 is not retried", registrytest.Archive, registrytest.Fault{Kind: registrytest.Status, Status: 501},
			nullArchive, 502, "", 1, "", "archive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			f.upstream.Inject(tt.endpoint, tt.fault)
			resp, body := f.getFull(tt.path)
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tt.wantStatus, body)
			}
			got := resp.Header.Get("Retry-After")
			if tt.wantRetryAfter == "" && tt.wantStatus == 429 {
				// An HTTP date an hour ahead: about 3600 seconds.
				if !strings.HasPrefix(got, "359") && !strings.HasPrefix(got, "360") {
					t.Errorf("Retry-After %q, want about 3600", got)
				}
			} else if got != tt.wantRetryAfter {
				t.Errorf("Retry-After %q, want %q", got, tt.wantRetryAfter)
			}
			if !strings.HasPrefix(body, "upstream: ") {
				t.Errorf("body does not say the upstream failed: %q", body)
			}
			// Go's transport itself resends a GET once when a reused
			// connection is closed before any answer: a dropped try may
			// reach the upstream twice.
			if n := f.upstream.Count(tt.endpoint); n != tt.wantTries && !(tt.wantReason == "connection" && n > tt.wantTries && n <= 2*tt.wantTries) {
				t.Errorf("upstream saw %d tries, want %d", n, tt.wantTries)
			}
			if keys := f.archiveKeys(); len(keys) != 0 {
				t.Errorf("stored %v after the failure", keys)
			}
			m := f.metrics()
			if tt.wantReason != "" && !strings.Contains(m, `tfdeps_serve_upstream_failed_tries_total{reason="`+tt.wantReason+`"} `+itoa(int64(tt.wantTries))) {
				t.Errorf("metrics do not count %d failed tries (%s):\n%s", tt.wantTries, tt.wantReason, grepLines(m, "upstream"))
			}
			if !strings.Contains(m, `tfdeps_serve_upstream_errors_total{kind="`+tt.wantKind+`"} 1`) {
				t.Errorf("metrics do not count the failure reported to the client:\n%s", grepLines(m, "upstream"))
			}
		})
	}
}

// A client that goes away does not stop the retries of a pull that others
// share; the server's own shutdown does.
func TestRetryPauseEndsWithTheServer(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Retry = RetryPolicy{} }) // real pauses
	f.upstream.Inject(registrytest.Archive, registrytest.Fault{Kind: registrytest.Status, Status: 429, Header: retryAfter("5")})
	done := make(chan int)
	go func() {
		code, _ := f.get(nullArchive)
		done <- code
	}()
	for f.upstream.Count(registrytest.Archive) == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	f.server.Close()
	select {
	case code := <-done:
		if code == http.StatusOK {
			t.Errorf("status 200 after the server closed")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the request still waits after the server closed")
	}
	if keys := f.archiveKeys(); len(keys) != 0 {
		t.Errorf("stored %v", keys)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"0", 0},
		{"-5", 0},
		{"30", 30 * time.Second},
		{"999999999", 24 * time.Hour},
		{"soon", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0},
	}
	for _, tt := range tests {
		if got := parseRetryAfter(tt.in, now); got != tt.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// After a 429 whose Retry-After outlasts the retries, the upstream is not
// asked again before that time: clients get the 429 and the time left.
func TestUpstreamNotAskedDuringRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	f := newFixture(t, func(o *Options) { o.Now = clock })
	f.upstream.Inject(registrytest.Archive, registrytest.Fault{Kind: registrytest.Status, Status: 429, Header: retryAfter("120"), Times: 1})
	if resp, body := f.getFull(nullArchive); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "120" {
		t.Fatalf("first: %d Retry-After %q: %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	mu.Lock()
	now = now.Add(100 * time.Second)
	mu.Unlock()
	resp, body := f.getFull(nullArchive)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "20" {
		t.Errorf("during the wait: %d Retry-After %q, want 429 and 20: %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	if !strings.Contains(body, "not asked again") {
		t.Errorf("body does not say the upstream was not asked: %q", body)
	}
	if n := f.upstream.Count(registrytest.Archive); n != 1 {
		t.Errorf("upstream saw %d archive requests during its Retry-After, want 1", n)
	}
	mu.Lock()
	now = now.Add(21 * time.Second)
	mu.Unlock()
	if code, body := f.get(nullArchive); code != http.StatusOK {
		t.Errorf("after the wait: %d %s", code, body)
	}
	if got := f.archiveKeys(); len(got) != 1 {
		t.Errorf("stored archives %v, want one", got)
	}
}
