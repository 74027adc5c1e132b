package serve_test

import (
	"net/http"
	"os"
	"os/exec"
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
	tofu := os.Getenv("TFDEPS_REFERENCE_TOFU")
	if tofu == "" {
		t.Skip("TFDEPS_REFERENCE_TOFU is not set: no OpenTofu binary to run")
	}
	serveURL, dir := startServeDir(t)
	rateLimitedUpstream(t)
	wd, env := workDir(t, serveURL)
	cmd := exec.Command(tofu, "init", "-no-color")
	cmd.Dir = wd
	cmd.Env = []string{"HOME=" + filepath.Join(wd, ".home"), "PATH=" + os.Getenv("PATH"), "TF_CLI_CONFIG_FILE=" + env["TF_CLI_CONFIG_FILE"], "SSL_CERT_FILE=" + shared.caFile}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tofu init: %v\n%s", err, out)
	}
	if n := shared.upstream.Count(registrytest.Archive); n != 4 {
		t.Errorf("upstream saw %d archive requests, want 4 (three 429s, one success)", n)
	}
	if got := storedArchives(t, dir); len(got) != 1 {
		t.Errorf("stored archives %v, want one", got)
	}
}
