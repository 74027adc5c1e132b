package serve

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// release is a provider release as a publisher has it.
type release struct {
	files map[string][]byte
	keys  []signingKeyDoc
}

func makeZip(t *testing.T, name, content string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, content)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func makeRelease(t *testing.T, typ, version string, platforms ...string) release {
	t.Helper()
	rel := release{files: map[string][]byte{}}
	var sums strings.Builder
	for _, pl := range platforms {
		name := fmt.Sprintf("terraform-provider-%s_%s_%s.zip", typ, version, pl)
		z := makeZip(t, "terraform-provider-"+typ+"_v"+version, "binary for "+pl)
		rel.files[name] = z
		sum := sha256.Sum256(z)
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	base := fmt.Sprintf("terraform-provider-%s_%s_", typ, version)
	rel.files[base+"SHA256SUMS"] = []byte(sums.String())
	sig, err := registrytest.Sign(registrytest.TestKey, []byte(sums.String()))
	if err != nil {
		t.Fatal(err)
	}
	rel.files[base+"SHA256SUMS.sig"] = sig
	armored, keyID, err := registrytest.PublicKey(registrytest.TestKey)
	if err != nil {
		t.Fatal(err)
	}
	rel.keys = []signingKeyDoc{{KeyID: keyID, ASCIIArmor: armored}}
	return rel
}

func (f *fixture) send(method, path, token string, body []byte) (int, string) {
	f.t.Helper()
	req, err := http.NewRequest(method, f.http.URL+path, bytes.NewReader(body))
	if err != nil {
		f.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (f *fixture) publishRelease(ns, typ, version, token string, rel release) (int, string) {
	f.t.Helper()
	for name, b := range rel.files {
		if code, body := f.send(http.MethodPut, "/api/v1/providers/"+ns+"/"+typ+"/"+version+"/"+name, token, b); code != http.StatusCreated {
			return code, body
		}
	}
	req := fmt.Sprintf(`{"protocols":["5.0"],"gpg_public_keys":[{"key_id":%q,"ascii_armor":%q}]}`, rel.keys[0].KeyID, rel.keys[0].ASCIIArmor)
	return f.send(http.MethodPost, "/api/v1/providers/"+ns+"/"+typ+"/"+version, token, []byte(req))
}

// registryClient talks to the fixture's registry protocol as init does.
func (f *fixture) registryClient(host, token string) *registry.Client {
	env := []string{}
	if token != "" {
		env = append(env, "TF_TOKEN_"+strings.NewReplacer(".", "_", ":", "__").Replace(host)+"="+token)
	}
	return registry.New(registry.Settings{
		Getenv:       func(string) string { return "" },
		Environ:      func() []string { return env },
		HostServices: map[string]map[string]any{host: {"providers.v1": f.http.URL + "/v1/providers/"}},
	})
}

func TestPublishThenInstall(t *testing.T) {
	for _, readToken := range []string{"", "reader"} {
		t.Run("read token "+fmt.Sprint(readToken != ""), func(t *testing.T) {
			f := newFixture(t, func(o *Options) {
				o.PublishTokens = []string{"publisher"}
				if readToken != "" {
					o.ReadTokens = []string{readToken}
				}
			})
			rel := makeRelease(t, "widget", "1.2.0", "linux_amd64", "darwin_arm64")
			if code, body := f.publishRelease("acme", "widget", "1.2.0", "publisher", rel); code != http.StatusCreated {
				t.Fatalf("publish: %d %s", code, body)
			}
			ctx := context.Background()
			host := "registry.example.com"
			c := f.registryClient(host, readToken)
			p := addrs.NewProvider("registry.example.com", "acme", "widget")
			list, err := c.ListVersions(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff("1.2.0", list.Versions[0].String()); diff != "" || len(list.Versions) != 1 {
				t.Errorf("versions %v", list.Versions)
			}
			meta, err := c.FindPackage(ctx, p, mustVersion(t, "1.2.0"), addrs.Platform{OS: "linux", Arch: "amd64"})
			if err != nil {
				t.Fatal(err)
			}
			a, auth, err := c.FetchPackage(ctx, meta, t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Remove()
			if got := auth.Summary(); got != "signed" {
				t.Errorf("authentication %q, want signed", got)
			}
			if len(meta.Packages) != 2 {
				t.Errorf("packages map has %d platforms, want 2", len(meta.Packages))
			}
		})
	}
}

func TestPublishRefusals(t *testing.T) {
	good := func(t *testing.T) release { return makeRelease(t, "widget", "1.0.0", "linux_amd64") }
	tests := []struct {
		name    string
		token   string
		tokens  []string
		rel     func(t *testing.T) release
		want    int
		wantMsg string
	}{
		{"publishing disabled", "x", nil, good, 403, "publishing is disabled"},
		{"no token", "", []string{"publisher"}, good, 401, ""},
		{"wrong token", "reader", []string{"publisher"}, good, 403, ""},
		{"tampered zip", "publisher", []string{"publisher"}, func(t *testing.T) release {
			r := good(t)
			r.files["terraform-provider-widget_1.0.0_linux_amd64.zip"] = makeZip(t, "x", "other")
			return r
		}, 422, "checksum list has unexpected SHA-256 hash"},
		{"bad signature", "publisher", []string{"publisher"}, func(t *testing.T) release {
			r := good(t)
			r.files["terraform-provider-widget_1.0.0_SHA256SUMS.sig"], _ = registrytest.Sign(registrytest.TestKey, []byte("other"))
			return r
		}, 422, "not signed with a valid signing key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, func(o *Options) { o.PublishTokens = tt.tokens })
			code, body := f.publishRelease("acme", "widget", "1.0.0", tt.token, tt.rel(t))
			if code != tt.want || !strings.Contains(body, tt.wantMsg) {
				t.Errorf("got %d %q, want %d containing %q", code, body, tt.want, tt.wantMsg)
			}
			if code, _ := f.get("/v1/providers/acme/widget/versions"); code != http.StatusNotFound {
				t.Errorf("versions after a refused publish: %d, want 404", code)
			}
		})
	}
}

func TestPublishTwiceConflicts(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.PublishTokens = []string{"p"} })
	rel := makeRelease(t, "widget", "1.0.0", "linux_amd64")
	if code, body := f.publishRelease("acme", "widget", "1.0.0", "p", rel); code != http.StatusCreated {
		t.Fatalf("publish: %d %s", code, body)
	}
	if code, _ := f.publishRelease("acme", "widget", "1.0.0", "p", rel); code != http.StatusConflict {
		t.Errorf("second publish: %d, want 409", code)
	}
}

func TestModulePublishAndDownload(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.PublishTokens = []string{"p"} })
	archive := gzipTar(t, map[string]string{"main.tf": "variable \"x\" {}\n"})
	for _, v := range []string{"1.0.0", "1.1.0"} {
		if code, body := f.send(http.MethodPut, "/api/v1/modules/acme/net/aws/"+v, "p", archive); code != http.StatusCreated {
			t.Fatalf("publish %s: %d %s", v, code, body)
		}
	}
	if code, _ := f.send(http.MethodPut, "/api/v1/modules/acme/net/aws/1.0.0", "p", archive); code != http.StatusConflict {
		t.Errorf("republish: %d, want 409", code)
	}
	if code, _ := f.send(http.MethodPut, "/api/v1/modules/acme/net/aws/2.0.0", "p", []byte("not an archive")); code != http.StatusBadRequest {
		t.Errorf("non-archive: %d, want 400", code)
	}
	code, body := f.get("/v1/modules/acme/net/aws/versions")
	if diff := cmp.Diff(`{"modules":[{"source":"acme/net/aws","versions":[{"version":"1.0.0"},{"version":"1.1.0"}]}]}`, string(body)); code != 200 || diff != "" {
		t.Errorf("versions: %d (-want +got):\n%s", code, diff)
	}
	resp, err := http.Get(f.http.URL + "/v1/modules/acme/net/aws/1.1.0/download")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("X-Terraform-Get")
	if resp.StatusCode != http.StatusNoContent || loc != "./archive.tar.gz" {
		t.Fatalf("download: %d X-Terraform-Get %q", resp.StatusCode, loc)
	}
	code, got := f.get("/v1/modules/acme/net/aws/1.1.0/archive.tar.gz")
	if code != 200 || !bytes.Equal(got, archive) {
		t.Errorf("archive: %d, %d bytes, want %d", code, len(got), len(archive))
	}
	if code, _ := f.get("/v1/modules/acme/net/aws/3.0.0/download"); code != http.StatusNotFound {
		t.Errorf("unknown version: %d, want 404", code)
	}
}

func mustVersion(t *testing.T, s string) versions.Version {
	t.Helper()
	v, err := versions.ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustProvider(t *testing.T, s string) addrs.Provider {
	t.Helper()
	p, err := addrs.ParseProviderSource(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustPlatform(t *testing.T, s string) addrs.Platform {
	t.Helper()
	p, err := addrs.ParsePlatform(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestModuleDownloadWithReadTokens(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.PublishTokens = []string{"p"}; o.ReadTokens = []string{"r"} })
	archive := gzipTar(t, map[string]string{"main.tf": "# empty\n"})
	if code, body := f.send(http.MethodPut, "/api/v1/modules/acme/net/aws/1.0.0", "p", archive); code != http.StatusCreated {
		t.Fatalf("publish: %d %s", code, body)
	}
	req, _ := http.NewRequest(http.MethodGet, f.http.URL+"/v1/modules/acme/net/aws/1.0.0/download", nil)
	req.Header.Set("Authorization", "Bearer r")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("X-Terraform-Get")
	if resp.StatusCode != http.StatusNoContent || !strings.HasPrefix(loc, "./archive.tar.gz?") {
		t.Fatalf("download: %d X-Terraform-Get %q, want a signed relative URL", resp.StatusCode, loc)
	}
	base := f.http.URL + "/v1/modules/acme/net/aws/1.0.0/"
	if code, got := getURL(t, base+strings.TrimPrefix(loc, "./")); code != http.StatusOK || !bytes.Equal(got, archive) {
		t.Errorf("signed archive URL without credentials: %d", code)
	}
	if code, _ := getURL(t, base+"archive.tar.gz"); code != http.StatusUnauthorized {
		t.Errorf("unsigned archive URL without credentials: %d, want 401", code)
	}
	tampered := strings.Replace(loc, "sig=", "sig=0", 1)
	if code, _ := getURL(t, base+strings.TrimPrefix(tampered, "./")); code != http.StatusUnauthorized {
		t.Errorf("tampered signature: %d, want 401", code)
	}
	// A signature is bound to its path.
	if code, _ := getURL(t, f.http.URL+"/v1/modules/acme/net/aws/versions?"+strings.SplitN(loc, "?", 2)[1]); code != http.StatusUnauthorized {
		t.Errorf("signature reused on another path: %d, want 401", code)
	}
}
