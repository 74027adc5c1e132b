package serve

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// startSlowPull starts an archive request against a slow upstream and
// abandons it, leaving the pull running in the server.
func startSlowPull(t *testing.T, f *fixture, delay time.Duration) {
	t.Helper()
	f.upstream.Inject(registrytest.Archive, registrytest.Fault{Kind: registrytest.Slow, Delay: delay})
	ctx, cancel := context.WithTimeout(context.Background(), delay/4)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.http.URL+nullArchive, nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the request finished before the slow upstream: %d", resp.StatusCode)
	}
	// Wait until the pull is registered.
	for f.upstream.Count(registrytest.Archive) == 0 {
		time.Sleep(time.Millisecond)
	}
}

func TestDrainWaitsForDownloadsInFlight(t *testing.T) {
	f := newFixture(t, nil)
	startSlowPull(t, f, 200*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := f.server.Drain(ctx); err != nil {
		t.Fatalf("Drain: %v", err)
	}
	if !f.hasKey("linux_amd64.zip") || !f.hasKey("linux_amd64.json") {
		t.Errorf("the download a client abandoned was not finished and stored: %v", f.keys())
	}
}

func TestDrainDeadlineCancelsDownloads(t *testing.T) {
	f := newFixture(t, nil)
	startSlowPull(t, f, 2*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := f.server.Drain(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Drain: %v, want the deadline", err)
	}
	if f.hasKey(".zip") {
		t.Errorf("a canceled download was stored: %v", f.keys())
	}
}
