package serve_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/cli"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/internal/serve"
	"github.com/tfdeps/tfdeps/internal/serve/storage"
)

// The client tests run tfdeps in this process and OpenTofu as a child
// process; both trust TLS servers through SSL_CERT_FILE, which Go reads
// once per process, so TestMain starts the shared fake upstream and writes
// its CA before any test runs; the mirrors and servers under test serve
// with the fake's certificate (tlsServer).
var shared struct {
	upstream *registrytest.Server
	// styles are fake upstreams by the shape of their package metadata
	// (upstreamStyles); "packages" is upstream.
	styles map[string]*registrytest.Server
	caFile string
	dir    string
}

// upstreamStyles are the shapes of package metadata the lock tests run
// against: OpenTofu's registry with its "packages" map, a registry without
// one, and one answering as registry.terraform.io does.
var upstreamStyles = map[string]registrytest.Options{
	"packages":   {},
	"nopackages": {NoPackagesMap: true},
	"terraform":  {TerraformStyle: true},
}

func fourPlatforms() []string {
	return []string{"darwin_arm64", "linux_amd64", "linux_arm64", "windows_amd64"}
}

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	if os.Getenv(childEnv) != "" {
		return runChild()
	}
	dir, err := os.MkdirTemp("", "tfdeps-serve-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	shared.dir = dir
	shared.styles = map[string]*registrytest.Server{}
	var cas []byte
	for name, opts := range upstreamStyles {
		opts.Providers = []registrytest.Provider{
			{Namespace: "hashicorp", Type: "null", Versions: []registrytest.Version{{Version: "3.2.1", Platforms: fourPlatforms()}}},
		}
		up, err := registrytest.Start(opts)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer up.Close()
		shared.styles[name] = up
		cas = append(cas, up.CAPEM()...)
	}
	shared.upstream = shared.styles["packages"]
	shared.caFile = filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(shared.caFile, cas, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.Setenv("SSL_CERT_FILE", shared.caFile)
	return m.Run()
}

// tlsServer serves h over HTTPS with the test certificate.
func tlsServer(t *testing.T, h http.Handler) string {
	t.Helper()
	s := shared.upstream.StartTLS(h)
	t.Cleanup(s.Close)
	return s.URL + "/"
}

// startServe starts tfdeps serve's handler over HTTPS in front of the
// shared fake upstream.
func startServe(t *testing.T) (string, *storage.Store) {
	t.Helper()
	url, st, _ := startServeOn(t)
	return url, st
}

// startServeDir is startServe, returning the storage directory.
func startServeDir(t *testing.T) (string, string) {
	t.Helper()
	url, _, dir := startServeOn(t)
	return url, dir
}

func startServeOn(t *testing.T) (string, *storage.Store, string) {
	t.Helper()
	dir := t.TempDir()
	st, err := storage.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := serve.New(serve.UpstreamOptions(st, shared.upstream.ProvidersBaseURL(), shared.upstream.Transport(), t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return tlsServer(t, srv.Handler()), st, dir
}

// cwdMu serialises in-process tfdeps runs, which change the working
// directory.
var cwdMu sync.Mutex

// tfdeps runs the CLI in dir with a hermetic environment.
func tfdeps(t *testing.T, dir string, env map[string]string, args ...string) string {
	t.Helper()
	cwdMu.Lock()
	defer cwdMu.Unlock()
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	env["HOME"] = filepath.Join(dir, ".home")
	var environ []string
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	code := cli.Main(cli.Env{
		Args:    append([]string{"-chdir=" + dir}, args...),
		Stdout:  &stdout,
		Stderr:  &stderr,
		Getenv:  func(k string) string { return env[k] },
		Environ: func() []string { return environ },
		Getwd:   os.Getwd,
		Chdir:   os.Chdir,
	})
	if code != 0 {
		t.Fatalf("tfdeps %s: exit %d\n%s\n%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// referenceTofu is the OpenTofu binary TFDEPS_REFERENCE_TOFU names; the
// test skips without it.
func referenceTofu(t *testing.T) string {
	t.Helper()
	tofu := os.Getenv("TFDEPS_REFERENCE_TOFU")
	if tofu == "" {
		t.Skip("TFDEPS_REFERENCE_TOFU is not set: no OpenTofu binary to run")
	}
	return tofu
}

// runTofu runs tofu (with -no-color) in dir with env's CLI configuration,
// a HOME of its own and the test CA, and returns its output; the test
// fails when tofu does.
func runTofu(t *testing.T, tofu, dir string, env map[string]string, args ...string) string {
	t.Helper()
	cmd := exec.Command(tofu, append(args, "-no-color")...)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + filepath.Join(dir, ".home"), "PATH=" + os.Getenv("PATH"), "TF_CLI_CONFIG_FILE=" + env["TF_CLI_CONFIG_FILE"], "SSL_CERT_FILE=" + shared.caFile}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tofu %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

const nullConfig = `terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "3.2.1" }
  }
}
`

// workDir makes a configuration directory and a CLI configuration file
// whose only installation method is the network mirror at mirrorURL.
func workDir(t *testing.T, mirrorURL string) (string, map[string]string) {
	t.Helper()
	return newWorkDir(t, mirrorURL, "")
}

// trustingWorkDir is workDir with trust_all_hashes = true on the mirror.
func trustingWorkDir(t *testing.T, mirrorURL string) (string, map[string]string) {
	t.Helper()
	return newWorkDir(t, mirrorURL, "    trust_all_hashes = true\n")
}

func newWorkDir(t *testing.T, mirrorURL, extra string) (string, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(nullConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	rc := filepath.Join(dir, ".tofurc")
	cfg := fmt.Sprintf("provider_installation {\n  network_mirror {\n    url = %q\n%s  }\n}\n", mirrorURL, extra)
	if err := os.WriteFile(rc, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, ".home"), 0o755)
	return dir, map[string]string{"TF_CLI_CONFIG_FILE": rc, "SSL_CERT_FILE": shared.caFile}
}

// staticMirror builds a "providers mirror" directory from the fake
// upstream and serves it over HTTPS: the faithful mirror to compare with.
func staticMirror(t *testing.T) string {
	t.Helper()
	return tlsServer(t, http.FileServer(http.Dir(staticMirrorDir(t))))
}

// staticMirrorDir builds the "providers mirror" directory of staticMirror.
func staticMirrorDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(nullConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	rc := filepath.Join(dir, "upstream.tfrc")
	if err := os.WriteFile(rc, []byte(shared.upstream.CLIConfig("registry.opentofu.org")), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "mirror")
	args := []string{"providers", "mirror"}
	for _, pl := range fourPlatforms() {
		args = append(args, "-platform="+pl)
	}
	tfdeps(t, dir, map[string]string{"TF_CLI_CONFIG_FILE": rc}, append(args, out)...)
	return out
}

func sha256Of(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func readLock(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTfdepsLocksIdenticallyThroughServeAndStaticMirror(t *testing.T) {
	serveURL, st := startServe(t)
	staticURL := staticMirror(t)

	// The user trusts the server (trust_all_hashes = true on its
	// network_mirror block): providers lock takes its hashes without
	// downloading. The static mirror is not trusted: each archive is
	// downloaded and checked, and the lock must come out the same.
	t.Run("providers lock, four platforms", func(t *testing.T) {
		shared.upstream.ResetRequests()
		locks := map[string]string{}
		for name, url := range map[string]string{"serve": serveURL, "static": staticURL} {
			dir, env := workDir(t, url)
			if name == "serve" {
				dir, env = trustingWorkDir(t, url)
			}
			args := []string{"providers", "lock", "-net-mirror=" + url}
			for _, pl := range fourPlatforms() {
				args = append(args, "-platform="+pl)
			}
			tfdeps(t, dir, env, args...)
			locks[name] = readLock(t, dir)
		}
		if diff := cmp.Diff(locks["static"], locks["serve"]); diff != "" {
			t.Errorf("lock through serve differs from the static mirror's (-static +serve):\n%s", diff)
		}
		if n := strings.Count(locks["serve"], "h1:"); n != 4 {
			t.Errorf("lock has %d h1: hashes, want one per platform:\n%s", n, locks["serve"])
		}
		// The user trusts the server's hashes: no archive was downloaded,
		// neither from it nor by it.
		if n := shared.upstream.Count(registrytest.Archive); n != 0 {
			t.Errorf("the server downloaded %d archives from upstream, want 0", n)
		}
		if keys, _ := st.List(context.Background(), "", 1000); slices.ContainsFunc(keys, func(k string) bool { return strings.HasSuffix(k, ".zip") }) {
			t.Errorf("archives stored: %v", keys)
		}
	})

	t.Run("init", func(t *testing.T) {
		locks := map[string]string{}
		for name, url := range map[string]string{"serve": serveURL, "static": staticURL} {
			dir, env := workDir(t, url)
			tfdeps(t, dir, env, "init")
			locks[name] = readLock(t, dir)
		}
		if diff := cmp.Diff(locks["static"], locks["serve"]); diff != "" {
			t.Errorf("lock through serve differs from the static mirror's (-static +serve):\n%s", diff)
		}
	})
}

func TestTofuLocksIdenticallyThroughServeAndStaticMirror(t *testing.T) {
	tofu := referenceTofu(t)
	serveURL, _ := startServe(t)
	staticURL := staticMirror(t)
	locks := map[string]string{}
	for name, url := range map[string]string{"serve": serveURL, "static": staticURL} {
		dir, env := workDir(t, url)
		runTofu(t, tofu, dir, env, "init")
		locks[name] = readLock(t, dir)
	}
	if diff := cmp.Diff(locks["static"], locks["serve"]); diff != "" {
		t.Errorf("OpenTofu's lock through serve differs from the static mirror's (-static +serve):\n%s", diff)
	}
}
