package serve_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// rateLimitedUpstream makes the shared upstream answer its next three
// archive requests 429 with Retry-After: 1: more than one pull-through
// retries, so the server passes a 429 on and the client must come back.
func rateLimitedUpstream(t *testing.T) {
	up := shared.upstream
	up.ClearFaults()
	up.ResetRequests()
	up.Inject(registrytest.Archive, registrytest.Fault{Kind: registrytest.Status, Status: http.StatusTooManyRequests,
		Header: http.Header{"Retry-After": {"1"}}, Times: 3})
	t.Cleanup(up.ClearFaults)
}

func storedArchives(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(path, ".zip") {
			out = append(out, path)
		}
		return nil
	})
	return out
}

func TestTfdepsInitWaitsOutUpstreamRateLimit(t *testing.T) {
	serveURL, dir := startServeDir(t)
	rateLimitedUpstream(t)
	wd, env := workDir(t, serveURL)
	tfdeps(t, wd, env, "init")
	if n := shared.upstream.Count(registrytest.Archive); n != 4 {
		t.Errorf("upstream saw %d archive requests, want 4 (three 429s, one success)", n)
	}
	if got := storedArchives(t, dir); len(got) != 1 {
		t.Errorf("stored archives %v, want one", got)
	}
}

func TestTofuInitWaitsOutUpstreamRateLimit(t *testing.T) {
	tofu := referenceTofu(t)
	serveURL, dir := startServeDir(t)
	rateLimitedUpstream(t)
	wd, env := workDir(t, serveURL)
	runTofu(t, tofu, wd, env, "init")
	if n := shared.upstream.Count(registrytest.Archive); n != 4 {
		t.Errorf("upstream saw %d archive requests, want 4 (three 429s, one success)", n)
	}
	if got := storedArchives(t, dir); len(got) != 1 {
		t.Errorf("stored archives %v, want one", got)
	}
}
