package difftest

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/internal/ocitest"
	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// TestDifferentialOCIProviders compares tofu and tfdeps installing providers
// from OCI registries (oci_mirror) served by in-process registries over
// TLS: one open, one requiring basic credentials, beside a fake origin
// registry for the mixed cases.
func TestDifferentialOCIProviders(t *testing.T) {
	tofu := os.Getenv("TFDEPS_REFERENCE_TOFU")
	if tofu == "" {
		t.Skip("OCI differential test skipped: set TFDEPS_REFERENCE_TOFU to the path of a tofu v1.12.6 binary to run it")
	}
	tmp := t.TempDir()
	tfdeps := buildTfdeps(t)
	open, err := ocitest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close()
	private, err := ocitest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer private.Close()
	ctx := context.Background()
	push := func(s *ocitest.Server, repo, tag string, opts ocitest.ProviderOptions, platforms ...string) []byte {
		t.Helper()
		var pkgs []ocitest.ProviderPackage
		var first []byte
		for _, pl := range platforms {
			os, arch, _ := strings.Cut(pl, "_")
			typ := repo[strings.LastIndex(repo, "/")+1:]
			z := ocitest.ProviderZip(typ, repo+" "+tag+" "+pl)
			if first == nil {
				first = z
			}
			pkgs = append(pkgs, ocitest.ProviderPackage{OS: os, Arch: arch, Zip: z})
		}
		if _, err := s.PushProvider(ctx, repo, tag, pkgs, opts); err != nil {
			t.Fatal(err)
		}
		return first
	}
	for _, tag := range []string{"1.0.0", "1.1.0", "2.0.0", "latest", "v3", "1.2.0-beta1"} {
		push(open, "ocins/thing", tag, ocitest.ProviderOptions{}, "linux_amd64", "darwin_arm64")
	}
	push(open, "ocins/onlymac", "1.0.0", ocitest.ProviderOptions{}, "darwin_arm64")
	push(open, "ocins/module", "1.0.0", ocitest.ProviderOptions{IndexArtifactType: "application/vnd.opentofu.modulepkg"}, "linux_amd64")
	push(open, "ocins/twolayers", "1.0.0", ocitest.ProviderOptions{ExtraZipLayer: true}, "linux_amd64")
	tamperedZip := push(open, "ocins/tampered", "1.0.0", ocitest.ProviderOptions{}, "linux_amd64")
	bad := append([]byte(nil), tamperedZip...)
	bad[len(bad)-1] ^= 1
	open.TamperBlob(ocitest.Digest(tamperedZip), bad)
	push(private, "ocins/secret", "1.0.0", ocitest.ProviderOptions{}, "linux_amd64")
	private.RequireBasicAuth("robot", "s3cret")

	// One file trusted by both programs: the two registries' authorities
	// and the fake origin registry's.
	fake, err := fakeStarter(t, filepath.Join(tmp, "fakes"))(registrytest.Options{Providers: defaultProviders()})
	if err != nil {
		t.Fatal(err)
	}
	fakeCA, err := os.ReadFile(fake.caFile)
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(tmp, "ca.pem")
	if err := os.WriteFile(caFile, append(append(open.CAPEM(), private.CAPEM()...), fakeCA...), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := &fakeRegistry{caFile: caFile, cliConfig: fake.cliConfig}

	// A credential helper program both find on PATH.
	bin := filepath.Join(tmp, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	helper := "#!/bin/sh\nread url\necho '{\"ServerURL\":\"'$url'\",\"Username\":\"robot\",\"Secret\":\"s3cret\"}'\n"
	if err := os.WriteFile(filepath.Join(bin, "docker-credential-ocitest"), []byte(helper), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	cases := ociProviderCases(reg, open.Host, private.Host)
	compareCases(t, program{name: "tofu", path: tofu}, program{name: "tfdeps", path: tfdeps}, cases, tmp, nil)

	// Identical output could be identical failure: check that each case
	// did what it is about.
	for _, c := range cases {
		want, ok := ociExpect[c.name]
		if !ok {
			continue
		}
		res, err := runCase(ctx, program{name: "tfdeps", path: tfdeps}, c, filepath.Join(tmp, "case"))
		if err != nil {
			t.Fatal(err)
		}
		out := res[0].stdout + res[0].stderr + res[0].files
		t.Logf("%s, first step:\n%s", c.name, out)
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", c.name, w, out)
			}
		}
	}
}

// ociExpect lists, per case, texts its first step's output (and files)
// must contain.
var ociExpect = map[string][]string{
	"oci/fresh":                      {"Installed ocins/thing v2.0.0 (verified checksum)", ".terraform.lock.hcl"},
	"oci/constraints-over-tags":      {"Installed ocins/thing v1.1.0"},
	"oci/prerelease-tag":             {"Installed ocins/thing v1.2.0-beta1"},
	"oci/missing-tag":                {"no available releases match the given"},
	"oci/locked-wrong-hash":          {"doesn't match any of the checksums"},
	"oci/platform-missing":           {"does not have a package"},
	"oci/wrong-artifact-type":        {"application/vnd.opentofu.modulepkg"},
	"oci/two-layers":                 {"ambiguous manifest declares"},
	"oci/tampered-blob":              {"provider package does not match digest"},
	"oci/mixed-methods":              {"Installed ocins/thing v1.0.0", "Installed hashicorp/null"},
	"oci/credentials-missing":        {"basic credential not found"},
	"oci/credentials-block":          {"Installed ocins/secret v1.0.0"},
	"oci/credentials-wrong":          {"401"},
	"oci/credentials-docker-file":    {"Installed ocins/secret v1.0.0"},
	"oci/bad-template":               {"Invalid oci_mirror repository template"},
	"oci/credentials-helper-block":   {"Installed ocins/secret v1.0.0"},
	"oci/credentials-helper-missing": {"credential helper"},
	"oci/credentials-file-helpers":   {"Installed ocins/secret v1.0.0"},
	"oci/bad-credentials-block":      {"Invalid oci_credentials block", "Invalid oci_default_credentials block"},
}

func ociRequire(name, constraint string) string {
	return fmt.Sprintf("terraform {\n  required_providers {\n    %s = {\n      source  = \"ocins/%s\"\n      version = %q\n    }\n  }\n}\n", name, name, constraint)
}

func ociMirror(host, extra string) string {
	return fmt.Sprintf("provider_installation {\n  oci_mirror {\n    repository_template = \"%s/${namespace}/${type}\"\n    include             = [\"registry.opentofu.org/ocins/*\"]\n  }\n%s}\n", host, extra)
}

func ociProviderCases(reg *fakeRegistry, host, privateHost string) []testCase {
	initSteps := []step{{"init", "-no-color"}, {"init", "-no-color"}, {"init", "-json"}}
	auth := base64.StdEncoding.EncodeToString([]byte("robot:s3cret"))
	return []testCase{
		{name: "oci/fresh", fake: reg, cliConfig: ociMirror(host, ""),
			files: map[string]string{"main.tf": ociRequire("thing", ">= 1.0.0")}, steps: initSteps},
		{name: "oci/constraints-over-tags", fake: reg, cliConfig: ociMirror(host, ""),
			files: map[string]string{"main.tf": ociRequire("thing", "~> 1.0")},
			steps: []step{{"init", "-no-color"}, {"init", "-no-color", "-upgrade"}}},
		{name: "oci/prerelease-tag", fake: reg, cliConfig: ociMirror(host, ""),
			files: map[string]string{"main.tf": ociRequire("thing", "1.2.0-beta1")}, steps: []step{{"init", "-no-color"}}},
		{name: "oci/missing-tag", fake: reg, cliConfig: ociMirror(host, ""),
			files: map[string]string{"main.tf": ociRequire("thing", "1.5.0")}, steps: []step{{"init", "-no-color"}, {"init", "-json"}}},
		{name: "oci/locked-wrong-hash", fake: reg, cliConfig: ociMirror(host, ""),
			files: map[string]string{
				"main.tf":             ociRequire("thing", "1.0.0"),
				".terraform.lock.hcl": "provider \"registry.opentofu.org/ocins/thing\" {\n  version = \"1.0.0\"\n  hashes = [\n    \"zh:0000000000000000000000000000000000000000000000000000000000000000\",\n  ]\n}\n",
			},
			steps: []step{{"init", "-no-color"}}},
		{name: "oci/locked-h1-only", fake: reg, cliConfig: ociMirror(host, ""),
			files: map[string]string{
				"main.tf":             ociRequire("thing", "1.0.0"),
				".terraform.lock.hcl": "provider \"registry.opentofu.org/ocins/thing\" {\n  version = \"1.0.0\"\n  hashes = [\n    \"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\",\n  ]\n}\n",
			},
			steps: []step{{"init", "-no-color"}}},
		{name: "oci/platform-missing", fake: reg, cliConfig: ociMirror(host, ""),
			files: map[string]string{"main.tf": ociRequire("onlymac", "1.0.0")}, steps: []step{{"init", "-no-color"}}},
		{name: "oci/not-in-mirror", fake: reg, cliConfig: ociMirror(host, ""),
			files: map[string]string{"main.tf": ociRequire("absent", "1.0.0")}, steps: []step{{"init", "-no-color"}}},
		{name: "oci/wrong-artifact-type", fake: reg, cliConfig: ociMirror(host, ""),
			files: map[string]string{"main.tf": ociRequire("module", "1.0.0")}, steps: []step{{"init", "-no-color"}}},
		{name: "oci/two-layers", fake: reg, cliConfig: ociMirror(host, ""),
			files: map[string]string{"main.tf": ociRequire("twolayers", "1.0.0")}, steps: []step{{"init", "-no-color"}}},
		{name: "oci/tampered-blob", fake: reg, cliConfig: ociMirror(host, ""),
			files: map[string]string{"main.tf": ociRequire("tampered", "1.0.0")}, steps: []step{{"init", "-no-color"}, {"init", "-json"}}},
		{name: "oci/mixed-methods", fake: reg, cliConfig: ociMirror(host, "  direct {\n    exclude = [\"registry.opentofu.org/ocins/*\"]\n  }\n"),
			files: map[string]string{"main.tf": ociRequire("thing", "1.0.0") + "provider \"null\" {}\n"},
			steps: []step{{"init", "-no-color"}, {"providers", "lock", "-no-color", "-platform=linux_amd64"}}},
		{name: "oci/credentials-missing", fake: reg, cliConfig: ociMirror(privateHost, ""),
			files: map[string]string{"main.tf": ociRequire("secret", "1.0.0")}, steps: []step{{"init", "-no-color"}}},
		{name: "oci/credentials-block", fake: reg,
			cliConfig: ociMirror(privateHost, "") + fmt.Sprintf("oci_credentials %q {\n  username = \"robot\"\n  password = \"s3cret\"\n}\n", privateHost),
			files:     map[string]string{"main.tf": ociRequire("secret", "1.0.0")}, steps: []step{{"init", "-no-color"}}},
		{name: "oci/credentials-wrong", fake: reg,
			cliConfig: ociMirror(privateHost, "") + fmt.Sprintf("oci_credentials \"%s/ocins\" {\n  username = \"robot\"\n  password = \"wrong\"\n}\n", privateHost),
			files:     map[string]string{"main.tf": ociRequire("secret", "1.0.0")}, steps: []step{{"init", "-no-color"}}},
		{name: "oci/credentials-docker-file", fake: reg,
			cliConfig: ociMirror(privateHost, "") + "oci_default_credentials {\n  docker_style_config_files = [\"work/auth.json\"]\n}\n",
			files: map[string]string{
				"main.tf":   ociRequire("secret", "1.0.0"),
				"auth.json": fmt.Sprintf(`{"auths":{%q:{"auth":%q}}}`, privateHost, auth),
			},
			steps: []step{{"init", "-no-color"}}},
		{name: "oci/credentials-helper-block", fake: reg,
			cliConfig: ociMirror(privateHost, "") + fmt.Sprintf("oci_credentials %q {\n  docker_credentials_helper = \"ocitest\"\n}\n", privateHost),
			files:     map[string]string{"main.tf": ociRequire("secret", "1.0.0")}, steps: []step{{"init", "-no-color"}}},
		{name: "oci/credentials-helper-missing", fake: reg,
			cliConfig: ociMirror(privateHost, "") + "oci_default_credentials {\n  docker_credentials_helper = \"absent\"\n}\n",
			files:     map[string]string{"main.tf": ociRequire("secret", "1.0.0")}, steps: []step{{"init", "-no-color"}}},
		{name: "oci/credentials-file-helpers", fake: reg,
			cliConfig: ociMirror(privateHost, "") + "oci_default_credentials {\n  docker_style_config_files = [\"work/auth.json\"]\n}\n",
			files: map[string]string{
				"main.tf":   ociRequire("secret", "1.0.0"),
				"auth.json": fmt.Sprintf(`{"credHelpers":{%q:"ocitest"},"credsStore":"absent"}`, privateHost),
			},
			steps: []step{{"init", "-no-color"}}},
		{name: "oci/bad-template", fake: reg,
			cliConfig: "provider_installation {\n  oci_mirror {\n    repository_template = \"example.com/${foo}\"\n  }\n}\n",
			files:     map[string]string{"main.tf": ociRequire("thing", "1.0.0")}, steps: []step{{"init", "-no-color"}}},
		{name: "oci/bad-credentials-block", fake: reg,
			cliConfig: ociMirror(host, "") + "oci_credentials \"example.com\" {\n  username = \"u\"\n}\noci_default_credentials {\n  discover_ambient_credentials = false\n  docker_style_config_files = []\n}\n",
			files:     map[string]string{"main.tf": ociRequire("thing", "1.0.0")}, steps: []step{{"init", "-no-color"}}},
	}
}
