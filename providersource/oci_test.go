package providersource

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/internal/ocitest"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

var linuxAMD64 = addrs.Platform{OS: "linux", Arch: "amd64"}

func startOCI(t *testing.T) *ocitest.Server {
	t.Helper()
	s, err := ocitest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func ociMirrorFor(s *ocitest.Server, cred auth.CredentialFunc) *OCIMirror {
	return NewOCIMirror(
		func(p addrs.Provider) (string, string, error) { return s.Host, p.Namespace + "/" + p.Type, nil },
		func(context.Context, string, string) (remote.Client, error) {
			return &auth.Client{Client: s.Client, Credential: cred, Cache: auth.NewCache()}, nil
		})
}

func mustPush(t *testing.T, s *ocitest.Server, repo, tag string, opts ocitest.ProviderOptions, pkgs ...ocitest.ProviderPackage) {
	t.Helper()
	if _, err := s.PushProvider(context.Background(), repo, tag, pkgs, opts); err != nil {
		t.Fatal(err)
	}
}

func TestOCIMirrorInstallsFromTags(t *testing.T) {
	s := startOCI(t)
	ctx := context.Background()
	zip1 := ocitest.ProviderZip("thing", "v1")
	pkg := ocitest.ProviderPackage{OS: "linux", Arch: "amd64", Zip: zip1}
	mustPush(t, s, "acme/thing", "1.0.0", ocitest.ProviderOptions{}, pkg, ocitest.ProviderPackage{OS: "darwin", Arch: "arm64", Zip: ocitest.ProviderZip("thing", "mac")})
	mustPush(t, s, "acme/thing", "1.1.0_build5", ocitest.ProviderOptions{}, pkg)
	mustPush(t, s, "acme/thing", "latest", ocitest.ProviderOptions{}, pkg)
	mustPush(t, s, "acme/thing", "v2", ocitest.ProviderOptions{}, pkg)

	m := ociMirrorFor(s, nil)
	provider := addrs.NewProvider(addrs.DefaultProviderRegistryHost, "acme", "thing")
	list, _, err := m.AvailableVersions(ctx, provider)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range list {
		got = append(got, v.String())
	}
	// Tags that are not versions are ignored; "_" stands for "+".
	if strings.Join(got, " ") != "1.0.0 1.1.0+build5" {
		t.Errorf("versions: %v", got)
	}
	meta, err := m.PackageMeta(ctx, provider, mustVersion(t, "1.0.0"), linuxAMD64)
	if err != nil {
		t.Fatal(err)
	}
	blob, ok := meta.Location.(OCIBlob)
	if !ok {
		t.Fatalf("location %T", meta.Location)
	}
	if want := "zh:" + strings.TrimPrefix(ocitest.Digest(zip1), "sha256:"); string(blob.ZH()) != want {
		t.Errorf("zh %s, want %s", blob.ZH(), want)
	}
	if meta.Filename != "terraform-provider-thing_1.0.0_linux_amd64.zip" {
		t.Errorf("filename %s", meta.Filename)
	}
	a, err := blob.Fetch(ctx, t.TempDir(), linuxAMD64)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Remove()
	if a.ZH() != blob.ZH() || a.Size != int64(len(zip1)) {
		t.Errorf("archive %s %d", a.ZH(), a.Size)
	}
	if _, err := meta.Authentication.AuthenticateArchive(a); err != nil {
		t.Errorf("authentication: %v", err)
	}
	// A platform the index does not list.
	_, err = m.PackageMeta(ctx, provider, mustVersion(t, "1.0.0"), addrs.Platform{OS: "windows", Arch: "amd64"})
	var pu *registry.PlatformUnsupportedError
	if !errors.As(err, &pu) || err.Error() != "provider registry.opentofu.org/acme/thing 1.0.0 is not available for windows_amd64" {
		t.Errorf("platform: %v", err)
	}
	// A repository that does not exist: the mirror does not have it.
	_, _, err = m.AvailableVersions(ctx, addrs.NewProvider(addrs.DefaultProviderRegistryHost, "acme", "other"))
	if !isNotFound(err) {
		t.Errorf("missing repository: %v", err)
	}
}

func TestOCIMirrorBadArtifacts(t *testing.T) {
	s := startOCI(t)
	ctx := context.Background()
	zip1 := ocitest.ProviderZip("thing", "v1")
	pkg := ocitest.ProviderPackage{OS: "linux", Arch: "amd64", Zip: zip1}
	mustPush(t, s, "acme/module", "1.0.0", ocitest.ProviderOptions{IndexArtifactType: "application/vnd.opentofu.modulepkg"}, pkg)
	mustPush(t, s, "acme/other", "1.0.0", ocitest.ProviderOptions{IndexArtifactType: "application/x-other"}, pkg)
	mustPush(t, s, "acme/twolayers", "1.0.0", ocitest.ProviderOptions{ExtraZipLayer: true}, pkg)
	mustPush(t, s, "acme/big", "1.0.0", ocitest.ProviderOptions{IndexPadding: 5 << 20}, pkg)
	mustPush(t, s, "acme/tampered", "1.0.0", ocitest.ProviderOptions{}, pkg)
	mustPush(t, s, "acme/thing", "1.0.0", ocitest.ProviderOptions{}, pkg)
	m := ociMirrorFor(s, nil)
	v := mustVersion(t, "1.0.0")
	tests := []struct {
		repo, version, want string
	}{
		{"module", "1.0.0", `unexpected artifact type "application/vnd.opentofu.modulepkg"`},
		{"other", "1.0.0", `unexpected artifact type "application/x-other"`},
		{"twolayers", "1.0.0", "ambiguous manifest declares multiple eligible provider packages"},
		{"big", "1.0.0", "manifest size exceeds OpenTofu's size limit of 4 MiB"},
		{"thing", "1.2.0", `resolving tag "1.2.0": ` + s.Host + "/acme/thing:1.2.0: not found"},
	}
	for _, tt := range tests {
		p := addrs.NewProvider(addrs.DefaultProviderRegistryHost, "acme", tt.repo)
		ver := mustVersion(t, tt.version)
		_, err := m.PackageMeta(ctx, p, ver, linuxAMD64)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: got %v, want %s", tt.repo, err, tt.want)
		}
	}
	// A blob whose content does not match its digest is refused and
	// nothing is left behind.
	meta, err := m.PackageMeta(ctx, addrs.NewProvider(addrs.DefaultProviderRegistryHost, "acme", "tampered"), v, linuxAMD64)
	if err != nil {
		t.Fatal(err)
	}
	d := ocitest.Digest(zip1)
	bad := append([]byte(nil), zip1...)
	bad[len(bad)-1] ^= 1
	s.TamperBlob(d, bad)
	dir := t.TempDir()
	_, err = meta.Location.(OCIBlob).Fetch(ctx, dir, linuxAMD64)
	if err == nil || err.Error() != "fetching provider package blob "+d+": provider package does not match digest "+d {
		t.Errorf("tampered: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestOCIMirrorCredentials(t *testing.T) {
	s := startOCI(t)
	ctx := context.Background()
	mustPush(t, s, "acme/thing", "1.0.0", ocitest.ProviderOptions{}, ocitest.ProviderPackage{OS: "linux", Arch: "amd64", Zip: ocitest.ProviderZip("thing", "v1")})
	s.RequireBasicAuth("user", "pw")
	provider := addrs.NewProvider(addrs.DefaultProviderRegistryHost, "acme", "thing")
	_, _, err := ociMirrorFor(s, nil).AvailableVersions(ctx, provider)
	want := "accessing OCI registry at " + s.Host + `: failed to contact OCI registry at "` + s.Host + `": GET "https://` + s.Host + `/v2/": basic credential not found`
	if err == nil || err.Error() != want {
		t.Errorf("without credentials:\n got %v\nwant %s", err, want)
	}
	cred := auth.StaticCredential(s.Host, auth.Credential{Username: "user", Password: "pw"})
	list, _, err := ociMirrorFor(s, cred).AvailableVersions(ctx, provider)
	if err != nil || len(list) != 1 {
		t.Errorf("with credentials: %v %v", list, err)
	}
}

func mustVersion(t testing.TB, s string) versions.Version {
	v, err := versions.ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestOCIMirrorStalledRegistry: a registry that accepts connections and
// never answers fails the query after the idle limit instead of hanging.
func TestOCIMirrorStalledRegistry(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	host := strings.TrimPrefix(srv.URL, "http://")
	m := NewOCIMirror(
		func(p addrs.Provider) (string, string, error) { return host, p.Namespace + "/" + p.Type, nil },
		func(context.Context, string, string) (remote.Client, error) {
			return &auth.Client{Client: srv.Client()}, nil
		})
	m.PlainHTTP, m.Idle = true, 200*time.Millisecond
	_, _, err := m.AvailableVersions(context.Background(), addrs.NewProvider(addrs.DefaultProviderRegistryHost, "acme", "thing"))
	if err == nil || err.Error() != "no answer from the OCI registry within 200ms (the limit TFDEPS_DOWNLOAD_IDLE_TIMEOUT sets)" {
		t.Errorf("got %v", err)
	}
}

// TestOCIBlobStalledDownload: a blob download that stops sending bytes
// fails after the idle limit, leaving nothing behind.
func TestOCIBlobStalledDownload(t *testing.T) {
	zip := ocitest.ProviderZip("thing", "v1")
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(zip)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(zip[:10])
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	host := strings.TrimPrefix(srv.URL, "http://")
	repo, err := remote.NewRepository(host + "/acme/thing")
	if err != nil {
		t.Fatal(err)
	}
	repo.PlainHTTP, repo.Client = true, srv.Client()
	blob := OCIBlob{Domain: host, Repository: "acme/thing", repo: repo, idle: 300 * time.Millisecond,
		desc: ocispec.Descriptor{MediaType: "archive/zip", Digest: digest.Digest(ocitest.Digest(zip)), Size: int64(len(zip))}}
	dir := t.TempDir()
	_, err = blob.Fetch(context.Background(), dir, linuxAMD64)
	want := "fetching provider package blob " + ocitest.Digest(zip) + ": " + host + ": no data received for 300ms (the limit TFDEPS_DOWNLOAD_IDLE_TIMEOUT sets)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}
