package registrytest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/google/go-cmp/cmp"
	"github.com/tfdeps/tfdeps/hashes"
)

func testOptions() Options {
	return Options{Providers: []Provider{{
		Namespace: "acme", Type: "widget",
		Versions: []Version{{Version: "1.0.0"}, {Version: "2.0.0", Protocols: []string{"6.0"}, Platforms: []string{"linux_amd64"}}},
	}}}
}

func get(t *testing.T, s *Server, url string) (*http.Response, []byte) {
	t.Helper()
	resp, err := s.Client().Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading %s: %v", url, err)
	}
	return resp, body
}

func TestPackageMetadataMatchesArchive(t *testing.T) {
	s := New(t, testOptions())
	_, body := get(t, s, s.ProvidersBaseURL()+"acme/widget/1.0.0/download/linux/amd64")
	var meta struct {
		DownloadURL string `json:"download_url"`
		SumsURL     string `json:"shasums_url"`
		SigURL      string `json:"shasums_signature_url"`
		Shasum      string `json:"shasum"`
		Filename    string `json:"filename"`
		Keys        struct {
			GPG []struct {
				Armor string `json:"ascii_armor"`
			} `json:"gpg_public_keys"`
		} `json:"signing_keys"`
		Packages map[string]struct {
			Hashes []string `json:"hashes"`
			Size   int64    `json:"package_size"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(body, &meta); err != nil {
		t.Fatal(err)
	}
	_, zip := get(t, s, meta.DownloadURL)
	sum := sha256.Sum256(zip)
	if got := hex.EncodeToString(sum[:]); got != meta.Shasum {
		t.Errorf("archive sha256 = %s, metadata says %s", got, meta.Shasum)
	}
	h1, err := hashes.HashZip(bytes.NewReader(zip), int64(len(zip)))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"zh:" + meta.Shasum, string(h1)}
	if diff := cmp.Diff(want, meta.Packages["linux_amd64"].Hashes); diff != "" {
		t.Errorf("packages hashes (-want +got):\n%s", diff)
	}
	if meta.Packages["linux_amd64"].Size != int64(len(zip)) {
		t.Errorf("package_size = %d, want %d", meta.Packages["linux_amd64"].Size, len(zip))
	}
	_, sums := get(t, s, meta.SumsURL)
	if !strings.Contains(string(sums), meta.Shasum+"  "+meta.Filename+"\n") {
		t.Errorf("SHA256SUMS lacks the archive line:\n%s", sums)
	}
	_, sig := get(t, s, meta.SigURL)
	keyring, err := openpgp.ReadArmoredKeyRing(strings.NewReader(meta.Keys.GPG[0].Armor))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := openpgp.CheckDetachedSignature(keyring, bytes.NewReader(sums), bytes.NewReader(sig), nil); err != nil {
		t.Errorf("signature does not verify: %v", err)
	}
}

func TestDeterministicArchives(t *testing.T) {
	a, b := New(t, testOptions()), New(t, testOptions())
	pa, err := a.Package("acme", "widget", "1.0.0", "darwin_arm64")
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := b.Package("acme", "widget", "1.0.0", "darwin_arm64")
	if diff := cmp.Diff(pa, pb); diff != "" {
		t.Errorf("packages differ between servers (-a +b):\n%s", diff)
	}
	sa, _ := Sign(TestKey, []byte("x"))
	sb, _ := Sign(TestKey, []byte("x"))
	if !bytes.Equal(sa, sb) {
		t.Error("signatures are not deterministic")
	}
}

func TestFaults(t *testing.T) {
	tests := []struct {
		name     string
		endpoint Endpoint
		fault    Fault
		path     string
		wantCode int
		wantErr  bool
		check    func(t *testing.T, resp *http.Response, body []byte)
	}{
		{name: "status", endpoint: Versions, fault: Fault{Kind: Status, Status: 503, Header: http.Header{"Retry-After": {"1"}}},
			path: "/v1/providers/acme/widget/versions", wantCode: 503},
		{name: "drop", endpoint: Versions, fault: Fault{Kind: Drop}, path: "/v1/providers/acme/widget/versions", wantErr: true},
		{name: "truncate", endpoint: Archive, fault: Fault{Kind: Truncate},
			path: "/files/acme/widget/1.0.0/terraform-provider-widget_1.0.0_linux_amd64.zip", wantErr: true},
		{name: "content type", endpoint: Discovery, fault: Fault{Kind: WrongContentType}, path: "/.well-known/terraform.json", wantCode: 200,
			check: func(t *testing.T, resp *http.Response, _ []byte) {
				if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
					t.Errorf("Content-Type = %q", ct)
				}
			}},
		{name: "oversized", endpoint: Discovery, fault: Fault{Kind: Oversized}, path: "/.well-known/terraform.json", wantCode: 200,
			check: func(t *testing.T, resp *http.Response, body []byte) {
				if resp.ContentLength != 2<<20 || len(body) != 2<<20 {
					t.Errorf("Content-Length %d, body %d bytes", resp.ContentLength, len(body))
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(t, testOptions())
			s.Inject(tt.endpoint, Fault{Kind: tt.fault.Kind, Status: tt.fault.Status, Header: tt.fault.Header, Times: 1})
			resp, err := s.Client().Get(s.URL() + tt.path)
			var body []byte
			if err == nil {
				body, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			if tt.wantErr {
				if err == nil {
					t.Fatalf("no error; status %d", resp.StatusCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.wantCode {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.wantCode)
			}
			if tt.check != nil {
				tt.check(t, resp, body)
			}
			// Times: 1 — the second request is normal.
			resp2, body2 := get(t, s, s.URL()+tt.path)
			if resp2.StatusCode != 200 || errors.Is(err, io.EOF) {
				t.Errorf("second request: status %d, %d bytes", resp2.StatusCode, len(body2))
			}
			if got := s.CountPath(tt.path); got != 2 {
				t.Errorf("CountPath = %d, want 2", got)
			}
		})
	}
}

func TestTamperedArchiveKeepsSize(t *testing.T) {
	s := New(t, testOptions())
	path := "/files/acme/widget/1.0.0/terraform-provider-widget_1.0.0_linux_amd64.zip"
	_, good := get(t, s, s.URL()+path)
	s.Inject(Archive, Fault{Kind: Tamper})
	_, bad := get(t, s, s.URL()+path)
	if len(good) != len(bad) || bytes.Equal(good, bad) {
		t.Errorf("tampered archive: %d bytes vs %d, equal=%v", len(bad), len(good), bytes.Equal(good, bad))
	}
}

func TestMirror(t *testing.T) {
	s := New(t, testOptions())
	_, idx := get(t, s, s.MirrorBaseURL()+"registry.example.com/acme/widget/index.json")
	if diff := cmp.Diff(`{"versions":{"1.0.0":{},"2.0.0":{}}}`, string(idx)); diff != "" {
		t.Errorf("index.json (-want +got):\n%s", diff)
	}
	_, vj := get(t, s, s.MirrorBaseURL()+"registry.example.com/acme/widget/2.0.0.json")
	info, _ := s.Package("acme", "widget", "2.0.0", "linux_amd64")
	want := `{"archives":{"linux_amd64":{"hashes":["` + info.H1 + `","` + info.ZH() + `"],"url":"terraform-provider-widget_2.0.0_linux_amd64.zip"}}}`
	if diff := cmp.Diff(want, string(vj)); diff != "" {
		t.Errorf("2.0.0.json (-want +got):\n%s", diff)
	}
	resp, zip := get(t, s, s.MirrorBaseURL()+"registry.example.com/acme/widget/"+info.Filename)
	if resp.StatusCode != 200 || int64(len(zip)) != info.Size {
		t.Errorf("mirror archive: status %d, %d bytes, want %d", resp.StatusCode, len(zip), info.Size)
	}
}

func TestStandalone(t *testing.T) {
	dir := t.TempDir()
	sa, err := StartStandalone(dir, testOptions(), "registry.example.com")
	if err != nil {
		t.Fatal(err)
	}
	defer sa.Close()
	want := "host \"registry.example.com\" {\n  services = {\n    \"providers.v1\" = \"" + sa.ProvidersBaseURL() + "\"\n  }\n}\n\n"
	if diff := cmp.Diff(want, sa.CLIConfig("registry.example.com")); diff != "" {
		t.Errorf("CLI config (-want +got):\n%s", diff)
	}
	if len(sa.Env) != 6 || !strings.HasPrefix(sa.Env[0], "SSL_CERT_FILE="+dir) {
		t.Errorf("Env = %q", sa.Env)
	}
}
