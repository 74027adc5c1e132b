package serve_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/internal/serve"
	"github.com/tfdeps/tfdeps/internal/serve/storage"
)

// Environment of the child server process of TestKilledMidWrite.
const (
	childEnv         = "TFDEPS_SERVE_TEST_CHILD"
	childStoreEnv    = "TFDEPS_SERVE_TEST_STORE"
	childUpstreamEnv = "TFDEPS_SERVE_TEST_UPSTREAM"
	childCAEnv       = "TFDEPS_SERVE_TEST_CA"
	childAddrEnv     = "TFDEPS_SERVE_TEST_ADDR_FILE"
	childTempEnv     = "TFDEPS_SERVE_TEST_TEMP"
)

// childOptions are the server options both the child and its successor use.
func childOptions(st *storage.Store, upstreamURL string, caPEM []byte, temp string) (serve.Options, error) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return serve.Options{}, errors.New("no CA certificate")
	}
	opts := serve.UpstreamOptions(st, upstreamURL, &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, temp)
	// A lease an hour long: a successor that waited for the killed
	// server's lease to expire would not finish the test.
	opts.LeaseTTL = time.Hour
	return opts, nil
}

// runChild is the child process: a server on loopback that writes its
// address to a file and serves until it is killed.
func runChild() int {
	st, err := storage.OpenDir(os.Getenv(childStoreEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ca, err := os.ReadFile(os.Getenv(childCAEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	opts, err := childOptions(st, os.Getenv(childUpstreamEnv), ca, os.Getenv(childTempEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv, err := serve.New(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.WriteFile(os.Getenv(childAddrEnv), []byte(ln.Addr().String()), 0o644)
	return exitCode(http.Serve(ln, srv.Handler()))
}

func exitCode(err error) int {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestKilledMidWrite kills a server process (SIGKILL) while it downloads
// an archive from upstream, or while it writes the pulled archive into
// storage, then starts a new server on the same storage and temporary
// directory: the half-written archive is not visible, the new server
// removes the dead one's temporary files at start and takes over its lease
// at once (the lease is an hour long), and the archive is pulled again and
// served whole.
func TestKilledMidWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes and moves 64 MiB")
	}
	tests := []struct {
		name  string
		fault *registrytest.Fault
		// wait returns once the child is at the moment to kill it.
		wait func(ctx context.Context, t *testing.T, storeDir, tempDir string) string
	}{
		{"during the download", &registrytest.Fault{Kind: registrytest.Slow, Delay: time.Millisecond, Times: 1},
			func(ctx context.Context, t *testing.T, _, tempDir string) string {
				return waitForFileMatching(ctx, t, tempDir, "tfdeps-provider-", ".zip", 64<<10, "")
			}},
		{"during the store write", nil,
			func(ctx context.Context, t *testing.T, storeDir, _ string) string {
				return waitForFileMatching(ctx, t, storeDir, "", ".tmp", 1<<20, "mirror/registry.opentofu.org/acme/huge/1.0.0/linux_amd64.zip")
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { killAndRestart(t, tt.fault, tt.wait) })
	}
}

func killAndRestart(t *testing.T, fault *registrytest.Fault, wait func(ctx context.Context, t *testing.T, storeDir, tempDir string) string) {
	const size = 64 << 20
	up := registrytest.New(t, registrytest.Options{Providers: []registrytest.Provider{
		{Namespace: "acme", Type: "huge", Versions: []registrytest.Version{{Version: "1.0.0", Size: size}}},
	}})
	if fault != nil {
		up.Inject(registrytest.Archive, *fault)
	}
	work := t.TempDir()
	storeDir := filepath.Join(work, "store")
	tempDir := filepath.Join(work, "tmp")
	caFile := filepath.Join(work, "ca.pem")
	os.WriteFile(caFile, up.CAPEM(), 0o644)
	addrFile := filepath.Join(work, "addr")
	os.MkdirAll(tempDir, 0o755)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	child := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), childEnv+"=1", childStoreEnv+"="+storeDir, childUpstreamEnv+"="+up.ProvidersBaseURL(),
		childCAEnv+"="+caFile, childAddrEnv+"="+addrFile, childTempEnv+"="+tempDir)
	child.Stderr = os.Stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	addr := waitForFile(ctx, t, addrFile)

	const path = "/registry.opentofu.org/acme/huge/terraform-provider-huge_1.0.0_linux_amd64.zip"
	go func() {
		resp, err := http.Get("http://" + addr + path)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	tmp := wait(ctx, t, storeDir, tempDir)
	if tmp == "" {
		t.Skip("the write ended before it could be caught (a loaded machine); nothing to kill")
	}
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	t.Logf("killed the server while %s was being written", filepath.Base(tmp))

	st, err := storage.OpenDir(storeDir)
	if err != nil {
		t.Fatal(err)
	}
	key := "mirror/registry.opentofu.org/acme/huge/1.0.0/linux_amd64.zip"
	if _, err := st.Stat(ctx, key); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("after the kill, %s: %v, want not found", key, err)
	}
	for _, k := range mustList(t, st) {
		if strings.HasPrefix(k, "mirror/") && (strings.HasSuffix(k, ".zip") || strings.HasSuffix(k, "linux_amd64.json")) {
			t.Errorf("after the kill, %s is visible", k)
		}
	}
	if len(filterLeases(mustList(t, st))) == 0 {
		t.Errorf("the killed server held no lease: the test does not test taking it over")
	}

	opts, err := childOptions(st, up.ProvidersBaseURL(), up.CAPEM(), tempDir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := serve.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("after restart, the killed server's %s is still there", tmp)
	}
	hs := tlsServer(t, srv.Handler())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(hs, "/")+path, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	info, _ := up.Package("acme", "huge", "1.0.0", "linux_amd64")
	if resp.StatusCode != http.StatusOK || sha256Of(body) != info.SHA256 {
		t.Errorf("after restart: %d, sha256 %s, want %s", resp.StatusCode, sha256Of(body), info.SHA256)
	}
	if n := up.Count(registrytest.Archive); n != 2 {
		t.Errorf("%d upstream downloads, want 2 (the killed one and the retry)", n)
	}
	if leases := filterLeases(mustList(t, st)); len(leases) != 0 {
		t.Errorf("leases left: %v", leases)
	}
	var left []string
	for _, dir := range []string{storeDir, tempDir} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".tmp") || strings.HasPrefix(d.Name(), "tfdeps-provider-")) {
				left = append(left, path)
			}
			return nil
		})
	}
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func filterLeases(keys []string) []string {
	var out []string
	for _, k := range keys {
		if strings.HasPrefix(k, "leases/") {
			out = append(out, k)
		}
	}
	return out
}

func waitForFile(ctx context.Context, t *testing.T, path string) string {
	t.Helper()
	for {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return string(b)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v", path, ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// waitForFileMatching waits until a file below dir whose name starts with
// prefix and ends with suffix has at least min bytes (a write in progress)
// and returns its path; "" when dir/done appeared first (the write ended
// between two looks).
func waitForFileMatching(ctx context.Context, t *testing.T, dir, prefix, suffix string, min int64, done string) string {
	t.Helper()
	for {
		found := ""
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), prefix) && strings.HasSuffix(d.Name(), suffix) && strings.Contains(path, ".zip") {
				if info, err := d.Info(); err == nil && info.Size() >= min {
					found = path
				}
			}
			return nil
		})
		if found != "" {
			return found
		}
		if done != "" {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(done))); err == nil {
				return ""
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no write in progress appeared in %s: %v", dir, ctx.Err())
		case <-time.After(time.Millisecond):
		}
	}
}

func mustList(t *testing.T, st *storage.Store) []string {
	t.Helper()
	keys, err := st.List(context.Background(), "", 100000)
	if err != nil {
		t.Fatal(err)
	}
	return keys
}
