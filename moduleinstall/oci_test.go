package moduleinstall

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"oras.land/oras-go/v2/registry/remote/auth"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/ocitest"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
)

var ociFiles = map[string]string{
	"main.tf":     "output \"top\" {\n  value = 1\n}\n",
	"sub/main.tf": "output \"sub\" {\n  value = 2\n}\n",
}

// startOCI starts a registry for the tests, closed at the test's end.
func startOCI(t *testing.T) *ocitest.Server {
	t.Helper()
	srv, err := ocitest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// pushed returns a function that fails the test on a push's error and
// returns its digest.
func pushed(t *testing.T) func(string, error) string {
	return func(d string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
}

// installOCI installs a root calling source as module "m" in a new
// directory and returns the directory, the error details and the
// modules.json record of "m".
func installOCI(t *testing.T, o Options, source string) (string, string, manifest.Record) {
	t.Helper()
	dir := t.TempDir()
	root := writeRoot(t, dir, map[string]string{"main.tf": "module \"m\" {\n  source = \"" + source + "\"\n}\n"})
	o.Dir = dir
	if o.Events == nil {
		o.Events = &recorder{}
	}
	var details []string
	for _, d := range Install(context.Background(), root, o) {
		details = append(details, d.Detail)
	}
	m, err := manifest.Read(filepath.Join(dir, ".terraform", "modules", manifest.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return dir, strings.Join(details, "\n"), m["m"]
}

func TestOCISources(t *testing.T) {
	srv := startOCI(t)
	must := pushed(t)
	ctx := context.Background()
	v1 := must(srv.PushModule(ctx, "mods/net", "v1", ociFiles))
	must(srv.PushModule(ctx, "mods/net", "latest", map[string]string{"main.tf": "# latest\n"}))
	must(srv.PushModulePackage(ctx, "mods/other", "v1", ocitest.ModulePackage{Files: ociFiles, ArtifactType: "application/x-other"}))
	z, err := ocitest.Zip(ociFiles)
	if err != nil {
		t.Fatal(err)
	}
	must(srv.PushModulePackage(ctx, "mods/two", "v1", ocitest.ModulePackage{Layers: [][]byte{z, z[:len(z)-1]}}))
	must(srv.PushModulePackage(ctx, "mods/tar", "v1", ocitest.ModulePackage{Files: ociFiles, LayerMediaType: "application/x-tar"}))
	flip := map[string]string{"main.tf": "# flipped\n"}
	fz, err := ocitest.Zip(flip)
	if err != nil {
		t.Fatal(err)
	}
	must(srv.PushModule(ctx, "mods/flip", "v1", flip))
	bad := append([]byte(nil), fz...)
	bad[len(bad)/2] ^= 0xff
	srv.TamperBlob(ocitest.Digest(fz), bad)
	must(srv.PushModule(ctx, "mods/short", "v1", map[string]string{"main.tf": "# short\n"}))
	sz, _ := ocitest.Zip(map[string]string{"main.tf": "# short\n"})
	srv.TamperBlob(ocitest.Digest(sz), sz[:10])

	big := `{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","artifactType":"application/vnd.opentofu.modulepkg","layers":[],"annotations":{"pad":"` + strings.Repeat("x", 5<<20) + `"}}`
	must(srv.PushManifest(ctx, "mods/big", "v1", ociImageManifest, []byte(big)))
	must(srv.PushManifest(ctx, "mods/index", "v1", "application/vnd.oci.image.index.v1+json", []byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[]}`)))
	must(srv.PushManifest(ctx, "mods/empty", "v1", ociImageManifest, []byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","artifactType":"application/vnd.opentofu.modulepkg","layers":[]}`)))

	h := "oci://" + srv.Host
	pre := func(src string) string { return "error downloading '" + src + "': " }
	tests := []struct {
		name, source string
		// file is a file of the installed module and its content; err
		// the end of the error's detail.
		file, content, err string
		dir                string
	}{
		{name: "tag", source: h + "/mods/net?tag=v1", file: "sub/main.tf", content: ociFiles["sub/main.tf"], dir: ".terraform/modules/m"},
		{name: "digest", source: h + "/mods/net?digest=" + v1, file: "main.tf", content: ociFiles["main.tf"], dir: ".terraform/modules/m"},
		{name: "default tag", source: h + "/mods/net", file: "main.tf", content: "# latest\n", dir: ".terraform/modules/m"},
		{name: "subdirectory", source: h + "/mods/net//sub?tag=v1", file: "main.tf", content: ociFiles["sub/main.tf"], dir: ".terraform/modules/m/sub"},
		{name: "missing tag", source: h + "/mods/net?tag=v9", err: pre(h+"/mods/net?tag=v9") + "resolving tag: " + srv.Host + "/mods/net:v9: not found"},
		{name: "missing digest", source: h + "/mods/net?digest=sha256:" + strings.Repeat("ab", 32), err: "resolving digest: " + srv.Host + "/mods/net@sha256:" + strings.Repeat("ab", 32) + ": not found"},
		{name: "wrong artifact type", source: h + "/mods/other?tag=v1", err: `: unexpected artifact type "application/x-other"`},
		{name: "two layers", source: h + "/mods/two?tag=v1", err: `: multiple layers with media type "archive/zip"`},
		{name: "unsupported layer", source: h + "/mods/tar?tag=v1", err: "image manifest contains no layers of types supported as module packages by OpenTofu, but has other unsupported formats; this OCI artifact might be intended for a different version of OpenTofu"},
		{name: "digest mismatch", source: h + "/mods/flip?tag=v1", err: ": invalid blob returned from registry: mismatched digest"},
		{name: "short blob", source: h + "/mods/short?tag=v1", err: ": mismatch Content-Length"},
		{name: "oversized manifest", source: h + "/mods/big?tag=v1", err: ": manifest size exceeds OpenTofu's size limit of 4 MiB"},
		{name: "index", source: h + "/mods/index?tag=v1", err: ": selected object is not an OCI image manifest"},
		{name: "no layers", source: h + "/mods/empty?tag=v1", err: ": image manifest contains no layers of types supported as module packages by OpenTofu"},
		{name: "tag and digest", source: h + "/mods/net?tag=v1&digest=" + v1, err: `: cannot set both "tag" and "digest" arguments`},
		{name: "unknown arguments", source: h + "/mods/net?b=1&a=2", err: ": unsupported arguments: a, b"},
		{name: "unknown argument", source: h + "/mods/net?ref=v1", err: `: unsupported argument "ref"`},
		{name: "empty tag", source: h + "/mods/net?tag=", err: ": tag argument must not be empty"},
		{name: "bad digest", source: h + "/mods/net?digest=sha256:abc", err: ": invalid digest: invalid checksum digest length"},
		{name: "archive argument", source: h + "/mods/net?tag=v1&archive=zip", err: `: the "archive" argument is not allowed for OCI sources, because the archive format is detected automatically from the image manifest`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, errs, rec := installOCI(t, Options{Getters: GetterOptions{HTTPClient: srv.Client}}, tt.source)
			if tt.err != "" {
				if !strings.HasSuffix(errs, tt.err) {
					t.Fatalf("error %q, want it to end with %q", errs, tt.err)
				}
				if _, err := os.Stat(filepath.Join(dir, ".terraform", "modules", "m", "main.tf")); err == nil {
					t.Errorf("a failed package was installed")
				}
				return
			}
			if errs != "" {
				t.Fatal(errs)
			}
			if rec.Source != tt.source || filepath.ToSlash(rec.Dir) != tt.dir {
				t.Errorf("recorded %+v, want source %s in %s", rec, tt.source, tt.dir)
			}
			b, err := os.ReadFile(filepath.Join(dir, tt.dir, tt.file))
			if err != nil || string(b) != tt.content {
				t.Errorf("%s: %q %v, want %q", tt.file, b, err, tt.content)
			}
		})
	}
}

func TestOCICredentials(t *testing.T) {
	srv := startOCI(t)
	must := pushed(t)
	must(srv.PushModule(context.Background(), "mods/net", "v1", ociFiles))
	srv.RequireBasicAuth("user", "secret")
	src := "oci://" + srv.Host + "/mods/net?tag=v1"
	var asked []string
	creds := func(user, password string) OCICredentials {
		return func(_ context.Context, registry, repository string) (auth.CredentialFunc, error) {
			asked = append(asked, registry+" "+repository)
			return auth.StaticCredential(registry, auth.Credential{Username: user, Password: password}), nil
		}
	}
	tests := []struct {
		name  string
		creds OCICredentials
		err   string
	}{
		{name: "anonymous", err: `: configuring client for ` + srv.Host + `/mods/net: failed to contact OCI registry at "` + srv.Host + `": GET "https://` + srv.Host + `/v2/": basic credential not found`},
		{name: "wrong password", creds: creds("user", "nope"), err: `failed to contact OCI registry at "` + srv.Host + `": GET "https://` + srv.Host + `/v2/": response status code 401: unauthorized: authentication required`},
		{name: "right password", creds: creds("user", "secret")},
		{name: "lookup fails", creds: func(context.Context, string, string) (auth.CredentialFunc, error) {
			return nil, errors.New("helper exploded")
		}, err: `configuring client for ` + srv.Host + `/mods/net: finding credentials for "` + srv.Host + `": helper exploded`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked = nil
			_, errs, _ := installOCI(t, Options{Getters: GetterOptions{HTTPClient: srv.Client, OCICredentials: tt.creds}}, src)
			if tt.err == "" && errs != "" || !strings.HasSuffix(errs, tt.err) {
				t.Fatalf("error %q, want it to end with %q", errs, tt.err)
			}
			if tt.creds != nil && tt.name != "lookup fails" && (len(asked) == 0 || asked[0] != srv.Host+" mods/net") {
				t.Errorf("credentials asked for %q, want the registry and repository", asked)
			}
		})
	}
}

// TestOCICache: the shared cache keys OCI packages by the manifest digest:
// a tag is resolved (no blob download when the digest is cached), a digest
// needs no request at all, and a moved tag installs the new content.
func TestOCICache(t *testing.T) {
	srv := startOCI(t)
	must := pushed(t)
	ctx := context.Background()
	v1 := must(srv.PushModule(ctx, "mods/net", "v1", ociFiles))
	for _, parallelism := range []int{0, -1} {
		o := Options{Getters: GetterOptions{HTTPClient: srv.Client}, Cache: OpenCache(t.TempDir()), Parallelism: parallelism}
		tag := "oci://" + srv.Host + "/mods/net?tag=v1"
		install := func(source, wantMain string) {
			t.Helper()
			dir, errs, _ := installOCI(t, o, source)
			if errs != "" {
				t.Fatal(errs)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, ".terraform", "modules", "m", "main.tf")); string(b) != wantMain {
				t.Fatalf("main.tf %q, want %q", b, wantMain)
			}
		}
		gets := srv.BlobGets()
		install(tag, ociFiles["main.tf"])
		if n := srv.BlobGets() - gets; n != 1 {
			t.Errorf("parallelism %d: first install: %d blob downloads, want 1", parallelism, n)
		}
		install(tag, ociFiles["main.tf"])
		if n := srv.BlobGets() - gets; n != 1 {
			t.Errorf("parallelism %d: the same tag again: %d blob downloads in all, want 1", parallelism, n)
		}
		requests := srv.Requests()
		install("oci://"+srv.Host+"/mods/net?digest="+v1, ociFiles["main.tf"])
		if n := srv.Requests() - requests; n != 0 {
			t.Errorf("parallelism %d: a cached digest made %d requests, want 0", parallelism, n)
		}
		moved := map[string]string{"main.tf": "# moved\n"}
		must(srv.PushModule(ctx, "mods/net", "v1", moved))
		install(tag, "# moved\n")
		if o.Cache.Fills() != 2 {
			t.Errorf("parallelism %d: %d cache fills, want 2", parallelism, o.Cache.Fills())
		}
		must(srv.PushModule(ctx, "mods/net", "v1", ociFiles))
	}
}

// TestOCITerraformUnknown: Terraform has no oci getter.
func TestOCITerraformUnknown(t *testing.T) {
	srv := startOCI(t)
	must := pushed(t)
	must(srv.PushModule(context.Background(), "mods/net", "v1", ociFiles))
	src := "oci://" + srv.Host + "/mods/net?tag=v1"
	_, errs, _ := installOCI(t, Options{Flavour: flavour.Terraform, Getters: GetterOptions{HTTPClient: srv.Client}}, src)
	if want := "download not supported for scheme 'oci'"; !strings.HasSuffix(errs, want) {
		t.Fatalf("error %q, want it to end with %q", errs, want)
	}
	if srv.Requests() != 3 {
		t.Errorf("%d requests: Terraform contacted the registry", srv.Requests()-3)
	}
}

// ociImageManifest is the media type of OCI image manifests.
const ociImageManifest = "application/vnd.oci.image.manifest.v1+json"
