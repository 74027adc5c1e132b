package serve_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/internal/serve"
	"github.com/tfdeps/tfdeps/internal/serve/storage"
	"github.com/tfdeps/tfdeps/registry"
)

// startRegistry starts a server that accepts publishing with token "p".
func startRegistry(t *testing.T) string {
	t.Helper()
	st, err := storage.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := serve.New(serve.Options{
		Store:         st,
		Upstreams:     []string{"registry.opentofu.org"},
		Registry:      registry.Settings{Getenv: func(string) string { return "" }, Environ: func() []string { return nil }},
		PublishTokens: []string{"p"},
		TempDir:       t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return tlsServer(t, srv.Handler())
}

// releaseDir writes a signed provider release and its public key.
func releaseDir(t *testing.T, typ, version string, platforms ...string) (dir, keyFile string) {
	t.Helper()
	dir = t.TempDir()
	var sums strings.Builder
	for _, pl := range platforms {
		name := fmt.Sprintf("terraform-provider-%s_%s_%s.zip", typ, version, pl)
		z := zipOf(t, "terraform-provider-"+typ+"_v"+version, "#!/bin/sh\n# "+pl+"\n")
		os.WriteFile(filepath.Join(dir, name), z, 0o644)
		fmt.Fprintf(&sums, "%s  %s\n", sha256Of(z), name)
	}
	base := filepath.Join(dir, fmt.Sprintf("terraform-provider-%s_%s_", typ, version))
	os.WriteFile(base+"SHA256SUMS", []byte(sums.String()), 0o644)
	sig, err := registrytest.Sign(registrytest.TestKey, []byte(sums.String()))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(base+"SHA256SUMS.sig", sig, 0o644)
	armored, _, err := registrytest.PublicKey(registrytest.TestKey)
	if err != nil {
		t.Fatal(err)
	}
	keyFile = filepath.Join(t.TempDir(), "key.asc")
	os.WriteFile(keyFile, []byte(armored), 0o644)
	return dir, keyFile
}

const registryConfig = `terraform {
  required_providers {
    widget = { source = "registry.example.com/acme/widget", version = "1.0.0" }
  }
}

module "net" {
  source  = "registry.example.com/acme/net/aws"
  version = "~> 1.0"
}
`

// registryWorkDir is a configuration using the published provider and
// module, with a CLI configuration pointing registry.example.com at url.
func registryWorkDir(t *testing.T, url string) (string, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.tf"), []byte(registryConfig), 0o644)
	rc := filepath.Join(dir, ".tofurc")
	cfg := fmt.Sprintf("host \"registry.example.com\" {\n  services = {\n    \"providers.v1\" = %q\n    \"modules.v1\" = %q\n  }\n}\n", url+"v1/providers/", url+"v1/modules/")
	os.WriteFile(rc, []byte(cfg), 0o644)
	os.MkdirAll(filepath.Join(dir, ".home"), 0o755)
	return dir, map[string]string{"TF_CLI_CONFIG_FILE": rc, "SSL_CERT_FILE": shared.caFile}
}

func publishWithCLI(t *testing.T, url string) {
	t.Helper()
	rel, key := releaseDir(t, "widget", "1.0.0", "linux_amd64", "darwin_arm64")
	env := map[string]string{"TFDEPS_PUBLISH_TOKEN": "p", "TFDEPS_SERVER": url}
	out := tfdeps(t, t.TempDir(), env, "publish", "provider", "-key="+key, "acme/widget", "1.0.0", rel)
	if !strings.Contains(out, "Published acme/widget 1.0.0 (4 files).") {
		t.Errorf("publish provider said %q", out)
	}
	mod := t.TempDir()
	os.WriteFile(filepath.Join(mod, "main.tf"), []byte("output \"name\" { value = \"net\" }\n"), 0o644)
	os.MkdirAll(filepath.Join(mod, ".git"), 0o755)
	os.WriteFile(filepath.Join(mod, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	out = tfdeps(t, t.TempDir(), env, "publish", "module", "acme/net/aws", "1.0.0", mod)
	if !strings.Contains(out, "Published module acme/net/aws 1.0.0.") {
		t.Errorf("publish module said %q", out)
	}
}

func TestPublishWithCLIThenTofuInit(t *testing.T) {
	tofu := referenceTofu(t)
	url := startRegistry(t)
	publishWithCLI(t, url)
	dir, env := registryWorkDir(t, url)
	out := runTofu(t, tofu, dir, env, "init")
	for _, want := range []string{
		"Downloading registry.example.com/acme/net/aws 1.0.0 for net...",
		"- Installed registry.example.com/acme/widget v1.0.0 (signed, key ID " + testKeyID(t) + ")",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("tofu init output lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "modules", "net", "main.tf")); err != nil {
		t.Errorf("module not installed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "modules", "net", ".git")); err == nil {
		t.Errorf("publish module packed the hidden .git directory")
	}
}

func testKeyID(t *testing.T) string {
	t.Helper()
	_, id, err := registrytest.PublicKey(registrytest.TestKey)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func zipOf(t *testing.T, name, content string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(content))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestPublishWithCLIThenTfdepsInit(t *testing.T) {
	url := startRegistry(t)
	publishWithCLI(t, url)
	dir, env := registryWorkDir(t, url)
	// tfdeps init of this branch installs providers; keep the module out.
	cfg := registryConfig[:strings.Index(registryConfig, "module")]
	os.WriteFile(filepath.Join(dir, "main.tf"), []byte(cfg), 0o644)
	out := tfdeps(t, dir, env, "init", "-no-color")
	want := "- Installed registry.example.com/acme/widget v1.0.0 (signed, key ID " + testKeyID(t) + ")"
	if !strings.Contains(out, want) {
		t.Errorf("tfdeps init output lacks %q:\n%s", want, out)
	}
	lock := readLock(t, dir)
	if h1, zh := strings.Count(lock, "h1:"), strings.Count(lock, "zh:"); h1 != 1 || zh != 2 {
		t.Errorf("lock has %d h1: and %d zh: hashes, want the local h1: and the signed zh: of both platforms:\n%s", h1, zh, lock)
	}
}

func TestPublishMirrorImport(t *testing.T) {
	staticDir := t.TempDir()
	// A providers mirror directory made from the fake upstream.
	cfgDir := t.TempDir()
	os.WriteFile(filepath.Join(cfgDir, "main.tf"), []byte(nullConfig), 0o644)
	rc := filepath.Join(cfgDir, "upstream.tfrc")
	os.WriteFile(rc, []byte(shared.upstream.CLIConfig("registry.opentofu.org")), 0o644)
	tfdeps(t, cfgDir, map[string]string{"TF_CLI_CONFIG_FILE": rc}, "providers", "mirror", "-platform=linux_amd64", "-platform=darwin_arm64", staticDir)

	st, err := storage.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := serve.UpstreamOptions(st, shared.upstream.ProvidersBaseURL(), shared.upstream.Transport(), t.TempDir())
	opts.PublishTokens = []string{"p"}
	srv, err := serve.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	url := tlsServer(t, srv.Handler())
	shared.upstream.ResetRequests()
	out := tfdeps(t, t.TempDir(), map[string]string{"TFDEPS_PUBLISH_TOKEN": "p"}, "publish", "mirror", "-server="+url, staticDir)
	if strings.Count(out, "Imported ") != 2 {
		t.Errorf("publish mirror said %q", out)
	}
	if n := shared.upstream.Count(registrytest.Archive); n != 0 {
		t.Errorf("the import downloaded %d archives from upstream, want 0", n)
	}
	// Installing through the server now needs no upstream archive.
	dir, env := workDir(t, url)
	tfdeps(t, dir, env, "init")
	if n := shared.upstream.Count(registrytest.Archive); n != 0 {
		t.Errorf("init through the server downloaded %d archives from upstream, want 0", n)
	}
}

// A release directory as goreleaser makes it: the archives, SHA256SUMS
// (which lists the _manifest.json too) and its signature, the manifest
// saying the protocols, and goreleaser's own files and build directories.
// publish provider uploads what the registry protocol serves, takes the
// protocols from the manifest, and init installs the provider.
func TestPublishGoreleaserRelease(t *testing.T) {
	url := startRegistry(t)
	dir := t.TempDir()
	const typ, version = "widget", "1.0.0"
	base := filepath.Join(dir, "terraform-provider-"+typ+"_"+version+"_")
	manifest := `{"version": 1, "metadata": {"protocol_versions": ["6.0"]}}` + "\n"
	os.WriteFile(base+"manifest.json", []byte(manifest), 0o644)
	var sums strings.Builder
	for _, pl := range []string{"darwin_arm64", "linux_amd64"} {
		name := "terraform-provider-" + typ + "_" + version + "_" + pl + ".zip"
		z := zipOf(t, "terraform-provider-"+typ+"_v"+version, "#!/bin/sh\n# "+pl+"\n")
		os.WriteFile(filepath.Join(dir, name), z, 0o644)
		fmt.Fprintf(&sums, "%s  %s\n", sha256Of(z), name)
	}
	fmt.Fprintf(&sums, "%s  %s\n", sha256Of([]byte(manifest)), filepath.Base(base+"manifest.json"))
	os.WriteFile(base+"SHA256SUMS", []byte(sums.String()), 0o644)
	sig, err := registrytest.Sign(registrytest.TestKey, []byte(sums.String()))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(base+"SHA256SUMS.sig", sig, 0o644)
	os.WriteFile(filepath.Join(dir, "artifacts.json"), []byte("[]"), 0o644)
	os.WriteFile(filepath.Join(dir, "metadata.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("project_name: x\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "terraform-provider-"+typ+"_linux_amd64_v1"), 0o755)
	os.WriteFile(filepath.Join(dir, "terraform-provider-"+typ+"_linux_amd64_v1", "terraform-provider-"+typ+"_v"+version), []byte("bin"), 0o755)
	armored, _, err := registrytest.PublicKey(registrytest.TestKey)
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "key.asc")
	os.WriteFile(keyFile, []byte(armored), 0o644)

	env := map[string]string{"TFDEPS_PUBLISH_TOKEN": "p", "TFDEPS_SERVER": url}
	out := tfdeps(t, t.TempDir(), env, "publish", "provider", "-key="+keyFile, "acme/"+typ, version, dir)
	if !strings.Contains(out, "Published acme/widget 1.0.0 (4 files).") {
		t.Errorf("publish provider said %q", out)
	}
	resp, err := http.Get(url + "v1/providers/acme/widget/versions")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if code := resp.StatusCode; code != 200 || !strings.Contains(string(body), `"protocols":["6.0"]`) {
		t.Errorf("versions: %d %s, want protocols 6.0 from the manifest", code, body)
	}
	work, wenv := registryWorkDir(t, url)
	cfg := registryConfig[:strings.Index(registryConfig, "module")]
	os.WriteFile(filepath.Join(work, "main.tf"), []byte(cfg), 0o644)
	if out := tfdeps(t, work, wenv, "init", "-no-color"); !strings.Contains(out, "- Installed registry.example.com/acme/widget v1.0.0 (signed") {
		t.Errorf("init output:\n%s", out)
	}
}
