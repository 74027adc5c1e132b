package serve

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// lockedBuffer is a log destination safe for concurrent writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// An upstream that sends no answer in time is asked again after a pause;
// one that never answers reaches the client as 504 after the tries.
func TestUpstreamTimeoutRetried(t *testing.T) {
	// Tries time out after a second (three for the one that must
	// succeed, on a loaded machine).
	f := newFixture(t, func(o *Options) { o.Retry.TryTimeout = 3 * time.Second })
	f.upstream.Inject(registrytest.Versions, registrytest.Fault{Kind: registrytest.Hang, Times: 1})
	if code, body := f.get(nullIndex); code != http.StatusOK {
		t.Fatalf("index.json after one hung try: %d %s", code, body)
	}
	if n := f.upstream.Count(registrytest.Versions); n != 2 {
		t.Errorf("%d tries, want 2", n)
	}
	if p := f.pauses.list(); len(p) != 1 || p[0] != 500*time.Millisecond {
		t.Errorf("pauses %v, want [500ms]", p)
	}
	if m := f.metrics(); !strings.Contains(m, `tfdeps_serve_upstream_failed_tries_total{reason="timeout"} 1`) {
		t.Errorf("metrics do not count the timed-out try:\n%s", grepLines(m, "upstream"))
	}

	f = newFixture(t, func(o *Options) { o.Retry.TryTimeout = time.Second })
	f.upstream.Inject(registrytest.Archive, registrytest.Fault{Kind: registrytest.Hang})
	code, body := f.get(nullArchive)
	if code != http.StatusGatewayTimeout || !strings.Contains(string(body), "sent no answer within 1s to 3 tries") {
		t.Errorf("archive from a hung upstream: %d %q, want 504 saying so", code, body)
	}
	if n := f.upstream.Count(registrytest.Archive); n != 3 {
		t.Errorf("%d tries, want 3", n)
	}
	if keys := f.archiveKeys(); len(keys) != 0 {
		t.Errorf("stored %v", keys)
	}
}

// With the upstream gone, everything stored keeps being served: the
// version list after it expired (counted as stale and logged), VERSION.json
// and the archive.
func TestUpstreamDownServesStored(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	var logs lockedBuffer
	f := newFixture(t, func(o *Options) {
		o.Now = clock
		o.IndexTTL = time.Minute
		o.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	want := map[string]string{}
	for _, path := range []string{nullIndex, nullVersion, nullArchive} {
		code, body := f.get(path)
		if code != http.StatusOK {
			t.Fatalf("warming %s: %d %s", path, code, body)
		}
		want[path] = string(body)
	}
	f.upstream.Close()
	mu.Lock()
	now = now.Add(time.Hour)
	mu.Unlock()
	for _, path := range []string{nullIndex, nullVersion, nullArchive} {
		if code, body := f.get(path); code != http.StatusOK || string(body) != want[path] {
			t.Errorf("%s with the upstream down: %d, body equal %v; want 200 and the stored answer", path, code, string(body) == want[path])
		}
	}
	if m := f.metrics(); !strings.Contains(m, `tfdeps_serve_cache_total{kind="versions",result="stale"} 1`) {
		t.Errorf("metrics do not count the stale list:\n%s", grepLines(m, "cache"))
	}
	if l := logs.String(); !strings.Contains(l, "serving an expired version list") {
		t.Errorf("no log line about the expired list:\n%s", l)
	}
}
