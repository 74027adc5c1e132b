package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func serveMeta(t *testing.T, env map[string]string) (*Meta, *bytes.Buffer) {
	t.Helper()
	var stderr bytes.Buffer
	var environ []string
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	m := &Meta{Env: Env{
		Stdout: &bytes.Buffer{}, Stderr: &stderr,
		Getenv:  func(k string) string { return env[k] },
		Environ: func() []string { return environ },
	}, TofuVersion: DefaultTofuVersion}
	return m, &stderr
}

func TestServeOptionsFromFlagsEnvironmentAndCLIConfig(t *testing.T) {
	dir := t.TempDir()
	tokens := filepath.Join(dir, "read.tokens")
	os.WriteFile(tokens, []byte("# readers\nalpha\n\n  beta  \n"), 0o600)
	rc := filepath.Join(dir, "serve.tfrc")
	os.WriteFile(rc, []byte(`host "registry.opentofu.org" {
  services = { "providers.v1" = "https://10.0.0.5/v1/providers/" }
}
credentials "registry.opentofu.org" {
  token = "upstream-token"
}
`), 0o644)
	m, stderr := serveMeta(t, map[string]string{"HOME": dir, "TFDEPS_SERVE_READ_TOKENS": "gamma", "TFDEPS_SERVE_PUBLISH_TOKENS": "p1, p2"})
	f := serveFlags{upstream: "registry.opentofu.org, example.com:8443", readTokens: tokens, config: rc}
	opts, err := serveOptions(m, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	if stderr.Len() != 0 {
		t.Errorf("CLI configuration problems: %s", stderr)
	}
	if diff := cmp.Diff([]string{"registry.opentofu.org", "example.com:8443"}, opts.Upstreams); diff != "" {
		t.Errorf("upstreams (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"alpha", "beta", "gamma"}, opts.ReadTokens); diff != "" {
		t.Errorf("read tokens (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"p1", "p2"}, opts.PublishTokens); diff != "" {
		t.Errorf("publish tokens (-want +got):\n%s", diff)
	}
	if got := opts.Registry.HostServices["registry.opentofu.org"]["providers.v1"]; got != "https://10.0.0.5/v1/providers/" {
		t.Errorf("host block service %v", got)
	}
	if got := opts.Registry.Credentials["registry.opentofu.org"]; got != "upstream-token" {
		t.Errorf("credentials %q", got)
	}
}

func TestServeFlagErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"cert without key", []string{"-tls-cert=x.pem"}, "-tls-cert and -tls-key go together"},
		{"bad log format", []string{"-log-format=xml"}, "-log-format must be json or text"},
		{"missing token file", []string{"-read-token-file=/nonexistent/tokens"}, "no such file"},
		{"unknown flag", []string{"-nope"}, "flag provided but not defined"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, stderr := serveMeta(t, map[string]string{"HOME": t.TempDir()})
			if code := runServe(m, tt.args); code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q lacks %q", stderr, tt.want)
			}
		})
	}
}

func TestPublishUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"no kind", nil, nil, "Usage: tfdeps [global options] publish provider"},
		{"no server", []string{"module", "a/b/c", "1.0.0", "."}, nil, "no server"},
		{"provider without key", []string{"provider", "acme/x", "1.0.0", "."}, map[string]string{"TFDEPS_SERVER": "http://127.0.0.1:1"}, "needs -key"},
		{"bad module address", []string{"module", "a/b", "1.0.0", "."}, map[string]string{"TFDEPS_SERVER": "http://127.0.0.1:1"}, "invalid module address"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, stderr := serveMeta(t, tt.env)
			if code := runPublish(m, tt.args); code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q lacks %q", stderr, tt.want)
			}
		})
	}
}
