package difftest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/internal/ocitest"
)

// ociModuleFiles are the packages pushed for the OCI module cases.
var ociModuleFiles = map[string]string{
	"main.tf":          "variable \"name\" {\n  default = \"net\"\n}\n\noutput \"name\" {\n  value = var.name\n}\n",
	"README.md":        "A module package in an OCI registry.\n",
	"sub/main.tf":      "output \"sub\" {\n  value = \"sub\"\n}\n",
	"sub/deep/main.tf": "module \"up\" {\n  source = \"../..\"\n}\n",
}

// ociRegistry is an in-process OCI registry holding the module packages
// of the OCI cases, and the digests of what it holds.
type ociRegistry struct {
	srv  *ocitest.Server
	fake *fakeRegistry
	// v1 is the manifest digest of modules/net:v1, other of
	// modules/other:v1 (another artifact type).
	v1, other string
}

// startOCIRegistry starts a registry for the OCI cases, its authority in
// dir; requireAuth makes it want basic credentials.
func startOCIRegistry(t *testing.T, dir string, requireAuth bool) *ociRegistry {
	t.Helper()
	srv, err := ocitest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ca, err := srv.WriteCAFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := &ociRegistry{srv: srv, fake: &fakeRegistry{caFile: ca}}
	ctx := context.Background()
	must := func(d string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	r.v1 = must(srv.PushModule(ctx, "modules/net", "v1", ociModuleFiles))
	must(srv.PushModule(ctx, "modules/net", "latest", map[string]string{"main.tf": "output \"latest\" {\n  value = true\n}\n"}))
	r.other = must(srv.PushModulePackage(ctx, "modules/other", "v1", ocitest.ModulePackage{Files: ociModuleFiles, ArtifactType: "application/vnd.example.other"}))
	z, err := ocitest.Zip(ociModuleFiles)
	if err != nil {
		t.Fatal(err)
	}
	must(srv.PushModulePackage(ctx, "modules/layers", "v1", ocitest.ModulePackage{Layers: [][]byte{z, append([]byte(nil), z...)[:len(z)-1]}}))
	must(srv.PushModulePackage(ctx, "modules/tar", "v1", ocitest.ModulePackage{Files: ociModuleFiles, LayerMediaType: "application/x-tar"}))
	tampered, err := ocitest.Zip(map[string]string{"main.tf": "# tampered\n"})
	if err != nil {
		t.Fatal(err)
	}
	tz, err := ocitest.Zip(map[string]string{"main.tf": "output \"t\" {\n  value = 1\n}\n"})
	if err != nil {
		t.Fatal(err)
	}
	must(srv.PushModulePackage(ctx, "modules/tampered", "v1", ocitest.ModulePackage{Layers: [][]byte{tz}}))
	srv.TamperBlob(ocitest.Digest(tz), tampered)
	// The same size, one byte changed: only the digest tells.
	sz, err := ocitest.Zip(map[string]string{"main.tf": "output \"s\" {\n  value = 2\n}\n"})
	if err != nil {
		t.Fatal(err)
	}
	must(srv.PushModulePackage(ctx, "modules/flipped", "v1", ocitest.ModulePackage{Layers: [][]byte{sz}}))
	flipped := append([]byte(nil), sz...)
	flipped[len(flipped)/2] ^= 0xff
	srv.TamperBlob(ocitest.Digest(sz), flipped)
	big := `{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","artifactType":"application/vnd.opentofu.modulepkg","layers":[],"annotations":{"pad":"` + strings.Repeat("x", 5<<20) + `"}}`
	must(srv.PushManifest(ctx, "modules/big", "v1", ociImageManifest, []byte(big)))
	must(srv.PushManifest(ctx, "modules/index", "v1", "application/vnd.oci.image.index.v1+json", []byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[]}`)))
	must(srv.PushManifest(ctx, "modules/empty", "v1", ociImageManifest, []byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","artifactType":"application/vnd.opentofu.modulepkg","layers":[]}`)))
	if requireAuth {
		srv.RequireBasicAuth("ociuser", "ocisecret")
	}
	return r
}

// ociModuleCases are the oci:// module source cases against r (and, for
// credentials, the registry locked).
func ociModuleCases(r, locked *ociRegistry) []testCase {
	h, lh := r.srv.Host, locked.srv.Host
	call := func(source string) map[string]string {
		return map[string]string{"main.tf": "module \"m\" {\n  source = \"" + source + "\"\n}\n"}
	}
	both := call("oci://" + h + "/modules/net?tag=v1")
	both["main.tf"] += "\nmodule \"again\" {\n  source = \"oci://" + h + "/modules/net//sub?tag=v1\"\n}\n"
	return []testCase{
		{name: "oci/tag", files: call("oci://" + h + "/modules/net?tag=v1"), fake: r.fake, steps: []step{{"init"}, {"get"}, {"init", "-upgrade"}, {"init", "-json"}}},
		{name: "oci/digest", files: call("oci://" + h + "/modules/net?digest=" + r.v1), fake: r.fake, steps: []step{{"init"}, {"get", "-update"}}},
		{name: "oci/subdir", files: call("oci://" + h + "/modules/net//sub/deep?tag=v1"), fake: r.fake, steps: []step{{"init"}}},
		{name: "oci/subdir-missing", files: call("oci://" + h + "/modules/net//nope?tag=v1"), fake: r.fake, steps: []step{{"init"}}},
		{name: "oci/same-package-twice", files: both, fake: r.fake, steps: []step{{"init"}}},
		{name: "oci/default-tag", files: call("oci://" + h + "/modules/net"), fake: r.fake, steps: []step{{"get"}, {"init", "-no-color"}}},
		{name: "oci/missing-tag", files: call("oci://" + h + "/modules/net?tag=v9"), fake: r.fake, steps: []step{{"init"}, {"get"}, {"init", "-json"}}},
		{name: "oci/missing-digest", files: call("oci://" + h + "/modules/net?digest=sha256:" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"), fake: r.fake, steps: []step{{"init", "-no-color"}}},
		{name: "oci/missing-repository", files: call("oci://" + h + "/modules/nope?tag=v1"), fake: r.fake, steps: []step{{"init", "-no-color"}}},
		{name: "oci/wrong-artifact-type", files: call("oci://" + h + "/modules/other?tag=v1"), fake: r.fake, steps: []step{{"init"}, {"get"}}},
		{name: "oci/more-than-one-layer", files: call("oci://" + h + "/modules/layers?tag=v1"), fake: r.fake, steps: []step{{"init"}}},
		{name: "oci/unsupported-layer", files: call("oci://" + h + "/modules/tar?tag=v1"), fake: r.fake, steps: []step{{"init"}}},
		{name: "oci/tampered-blob", files: call("oci://" + h + "/modules/tampered?tag=v1"), fake: r.fake, steps: []step{{"init"}, {"get"}}},
		{name: "oci/oversized-manifest", files: call("oci://" + h + "/modules/big?tag=v1"), fake: r.fake, steps: []step{{"init", "-no-color"}}},
		{name: "oci/index-manifest", files: call("oci://" + h + "/modules/index?tag=v1"), fake: r.fake, steps: []step{{"init", "-no-color"}}},
		{name: "oci/no-layers", files: call("oci://" + h + "/modules/empty?tag=v1"), fake: r.fake, steps: []step{{"init", "-no-color"}}},
		{name: "oci/from-module", files: map[string]string{}, fake: r.fake, steps: []step{{"init", "-from-module=oci://" + h + "/modules/net//sub?tag=v1"}}},
		{name: "oci/from-module-missing", files: map[string]string{}, fake: r.fake, steps: []step{{"init", "-no-color", "-from-module=oci://" + h + "/modules/net?tag=v9"}}},
		{name: "oci/forced-getter", files: call("oci::oci://" + h + "/modules/net?tag=v1"), fake: r.fake, steps: []step{{"init", "-no-color"}}},
		{name: "oci/forced-https", files: call("oci::https://" + h + "/modules/net?tag=v1"), fake: r.fake, steps: []step{{"init", "-no-color"}}},
		{name: "oci/flipped-byte", files: call("oci://" + h + "/modules/flipped?tag=v1"), fake: r.fake, steps: []step{{"init"}}},
		{name: "oci/bad-arguments", files: call("oci://" + h + "/modules/net?tag=v1&digest=" + r.v1), fake: r.fake, steps: []step{{"init", "-no-color"}}},
		{name: "oci/unknown-argument", files: call("oci://" + h + "/modules/net?ref=v1"), fake: r.fake, steps: []step{{"init", "-no-color"}}},
		{name: "oci/empty-tag", files: call("oci://" + h + "/modules/net?tag="), fake: r.fake, steps: []step{{"init", "-no-color"}}},
		{name: "oci/bad-digest", files: call("oci://" + h + "/modules/net?digest=sha256:abc"), fake: r.fake, steps: []step{{"init", "-no-color"}}},
		{name: "oci/bad-tag", files: call("oci://" + h + "/modules/net?tag=-x"), fake: r.fake, steps: []step{{"init", "-no-color"}}},
		{name: "oci/bad-repository", files: call("oci://" + h + "/Modules/Net?tag=v1"), fake: r.fake, steps: []step{{"init", "-no-color"}}},
		{name: "oci/archive-argument", files: call("oci://" + h + "/modules/net?tag=v1&archive=zip"), fake: r.fake, steps: []step{{"init", "-no-color"}}},
		{name: "oci/credentials-required", files: call("oci://" + lh + "/modules/net?tag=v1"), fake: locked.fake, steps: []step{{"init"}, {"get"}}},
		{name: "oci/credentials-given", files: call("oci://" + lh + "/modules/net?tag=v1"), fake: locked.fake, steps: []step{{"init"}},
			cliConfig: "oci_credentials \"" + lh + "\" {\n  username = \"ociuser\"\n  password = \"ocisecret\"\n}\n"},
		{name: "oci/credentials-wrong", files: call("oci://" + lh + "/modules/net?tag=v1"), fake: locked.fake, steps: []step{{"init"}},
			cliConfig: "oci_credentials \"" + lh + "\" {\n  username = \"ociuser\"\n  password = \"wrong\"\n}\n"},
	}
}

// TestDifferentialOCIModules compares tofu and tfdeps installing oci://
// module sources from an in-process registry that both trust through
// SSL_CERT_FILE.
func TestDifferentialOCIModules(t *testing.T) {
	tofu := os.Getenv("TFDEPS_REFERENCE_TOFU")
	if tofu == "" {
		t.Skip("differential test skipped: set TFDEPS_REFERENCE_TOFU to the path of a tofu v1.12.6 binary to run it")
	}
	if _, err := os.Stat(tofu); err != nil {
		t.Fatalf("TFDEPS_REFERENCE_TOFU: %v", err)
	}
	tmp := t.TempDir()
	tfdeps := buildTfdeps(t)
	r := startOCIRegistry(t, filepath.Join(tmp, "oci"), false)
	locked := startOCIRegistry(t, filepath.Join(tmp, "oci-locked"), true)
	compareCases(t, program{name: "tofu", path: tofu}, program{name: "tfdeps", path: tfdeps}, ociModuleCases(r, locked), tmp, nil)
}

// TestDifferentialTerraformOCIModules checks that the Terraform flavour,
// like terraform, knows no oci:// getter.
func TestDifferentialTerraformOCIModules(t *testing.T) {
	terraform := os.Getenv("TFDEPS_REFERENCE_TERRAFORM")
	if terraform == "" {
		t.Skip("differential test skipped: set TFDEPS_REFERENCE_TERRAFORM to the path of a terraform v1.15.9 binary to run it")
	}
	tmp := t.TempDir()
	tfdeps := buildTfdeps(t)
	r := startOCIRegistry(t, filepath.Join(tmp, "oci"), false)
	var cases []testCase
	for _, c := range ociModuleCases(r, r)[:2] {
		// Only init: terraform get colours its errors' first line twice
		// (for any source), which the Terraform flavour does not copy.
		c.steps = []step{{"init"}, {"init", "-json"}, {"init", "-no-color"}}
		cases = append(cases, terraformCase(c))
	}
	compareCases(t, program{name: "terraform", path: terraform, unorderedModules: true},
		program{name: "tfdeps", path: tfdeps, args: []string{"-compat=terraform"}, unorderedModules: true},
		cases, tmp, nil)
}

// ociImageManifest is the media type of OCI image manifests.
const ociImageManifest = "application/vnd.oci.image.manifest.v1+json"
