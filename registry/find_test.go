package registry

import (
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/internal/registrytest"
)

const widgetMetaPath = "/v1/providers/acme/widget/1.0.0/download/linux/amd64"

// fakeDoc fetches the fake's own answer for path as a JSON object.
func fakeDoc(t *testing.T, srv *registrytest.Server, path string) map[string]any {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL() + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func serveJSON(doc map[string]any) http.HandlerFunc {
	body, _ := json.Marshal(doc)
	return serveDoc("application/json", string(body))
}

func TestFindPackage(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	c, _ := testClient(t, srv, testEnv{"TF_TOKEN_registry_example_com": "tok"})
	meta, err := c.FindPackage(ctx(t), mustProvider(t, exampleHost+"/acme/widget"), mustVersion(t, "1.0.0"), linuxAMD64)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := srv.Package("acme", "widget", "1.0.0", "linux_amd64")
	sums, _ := srv.SHA256SUMS("acme", "widget", "1.0.0")
	if got := hex.EncodeToString(meta.SHA256[:]); got != info.SHA256 {
		t.Errorf("SHA256 = %s, want %s", got, info.SHA256)
	}
	if meta.Filename != info.Filename || string(meta.SHA256SUMS) != string(sums) || len(meta.Signature) == 0 {
		t.Errorf("meta = %+v", meta)
	}
	if got, want := meta.DownloadURL.String(), srv.URL()+"/files/acme/widget/1.0.0/"+info.Filename; got != want {
		t.Errorf("DownloadURL = %s, want %s", got, want)
	}
	if len(meta.Packages) != 3 || meta.Packages[linuxAMD64].Size != info.Size {
		t.Errorf("Packages = %+v", meta.Packages)
	}
	for _, r := range srv.Requests() {
		wantAuth, wantVersion := "", ""
		if r.Endpoint == registrytest.PackageMeta {
			wantAuth, wantVersion = "Bearer tok", "1.12.6"
		}
		if r.Header.Get("Authorization") != wantAuth || r.Header.Get("X-Terraform-Version") != wantVersion {
			t.Errorf("%s: Authorization %q, X-Terraform-Version %q; want %q, %q", r.Path,
				r.Header.Get("Authorization"), r.Header.Get("X-Terraform-Version"), wantAuth, wantVersion)
		}
	}
}

func TestFindPackageRelativeURLs(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	doc := fakeDoc(t, srv, widgetMetaPath)
	doc["download_url"] = "../../../../../../../files/acme/widget/1.0.0/" + doc["filename"].(string)
	doc["shasums_url"] = "/files/acme/widget/1.0.0/terraform-provider-widget_1.0.0_SHA256SUMS"
	srv.Override(widgetMetaPath, serveJSON(doc))
	c, _ := testClient(t, srv, testEnv{})
	meta, err := c.FindPackage(ctx(t), mustProvider(t, exampleHost+"/acme/widget"), mustVersion(t, "1.0.0"), linuxAMD64)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := meta.DownloadURL.String(), srv.URL()+"/files/acme/widget/1.0.0/"+doc["filename"].(string); got != want {
		t.Errorf("DownloadURL = %s, want %s", got, want)
	}
}

func TestFindPackageErrors(t *testing.T) {
	const q = "could not query provider registry for registry.example.com/acme/widget: "
	const sumsPath = "/files/acme/widget/1.0.0/terraform-provider-widget_1.0.0_SHA256SUMS"
	tests := []struct {
		name     string
		version  string
		platform addrs.Platform
		edit     func(doc map[string]any)
		endpoint registrytest.Endpoint
		fault    *registrytest.Fault
		want     string
	}{
		{name: "platform unknown", platform: addrs.Platform{OS: "linux", Arch: "arm64"},
			want: "provider registry.example.com/acme/widget 1.0.0 is not available for linux_arm64"},
		{name: "protocol unsupported", version: "2.0.0",
			want: "provider registry.example.com/acme/widget 2.0.0 is not supported by this version of OpenTofu"},
		{name: "invalid protocol", edit: func(d map[string]any) { d["protocols"] = []string{"5.0", "five"} },
			want: q + `registry response includes invalid version string "five": invalid specification; required format is three positive integers separated by periods`},
		{name: "empty protocols pass", edit: func(d map[string]any) { d["protocols"] = []string{} }, want: "<nil>"},
		{name: "wrong target", edit: func(d map[string]any) { d["os"] = "darwin" },
			want: "registry response to request for linux_amd64 archive has incorrect target darwin_amd64"},
		{name: "download URL scheme", edit: func(d map[string]any) { d["download_url"] = "ftp://x/y.zip" },
			want: "registry response includes invalid download URL: must use http or https scheme"},
		{name: "download URL parse", edit: func(d map[string]any) { d["download_url"] = "https://x/%zz" },
			want: `registry response includes invalid download URL: parse "https://x/%zz": invalid URL escape "%zz"`},
		{name: "package platform", edit: func(d map[string]any) { d["packages"] = map[string]any{"linux": map[string]any{}} },
			want: q + `registry response includes invalid package platform "linux": must be two words separated by an underscore`},
		{name: "package hash", edit: func(d map[string]any) {
			d["packages"] = map[string]any{"linux_amd64": map[string]any{"hashes": []string{"abc"}}}
		}, want: q + `registry response includes invalid package hash "abc": hash string must start with a scheme keyword followed by a colon`},
		{name: "shasum length", edit: func(d map[string]any) { d["shasum"] = "abc" },
			want: q + `registry response includes invalid SHA256 hash "abc": %!w(<nil>)`},
		{name: "shasum hex", edit: func(d map[string]any) { d["shasum"] = "zz" + d["shasum"].(string)[2:] },
			want: q + `registry response includes invalid SHA256 hash "zz` + "SUFFIX" + `": encoding/hex: invalid byte: U+007A 'z'`},
		{name: "shasums URL", edit: func(d map[string]any) { d["shasums_url"] = "file:///etc/passwd" },
			want: "registry response includes invalid SHASUMS URL: must use http or https scheme"},
		{name: "signature URL", edit: func(d map[string]any) { d["shasums_signature_url"] = "mailto:x@y" },
			want: "registry response includes invalid SHASUMS signature URL: must use http or https scheme"},
		{name: "checksums unavailable", endpoint: registrytest.SHA256SUMS, fault: &registrytest.Fault{Kind: registrytest.Status},
			want: q + "failed to retrieve authentication checksums for provider: request failed after 2 attempts: 500 Internal Server Error returned from https://ADDR" + sumsPath},
		{name: "checksums not found", endpoint: registrytest.SHA256SUMS, fault: &registrytest.Fault{Kind: registrytest.Status, Status: 404},
			want: q + "failed to retrieve authentication checksums for provider: 404 Not Found returned from ADDR"},
		{name: "signature dropped", endpoint: registrytest.Signature, fault: &registrytest.Fault{Kind: registrytest.Drop},
			want: q + `failed to retrieve cryptographic signature for provider: request failed after 2 attempts: Get "https://ADDR` + sumsPath + `.sig": EOF`},
		{name: "metadata JSON", endpoint: registrytest.PackageMeta, fault: &registrytest.Fault{Kind: registrytest.Truncate},
			want: q + "unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := registrytest.New(t, fakeOptions())
			var suffix string
			if tt.edit != nil {
				doc := fakeDoc(t, srv, widgetMetaPath)
				suffix = doc["shasum"].(string)[2:]
				tt.edit(doc)
				srv.Override(widgetMetaPath, serveJSON(doc))
			}
			if tt.fault != nil {
				srv.Inject(tt.endpoint, *tt.fault)
			}
			version, platform := tt.version, tt.platform
			if version == "" {
				version = "1.0.0"
			}
			if platform == (addrs.Platform{}) {
				platform = linuxAMD64
			}
			c, _ := testClient(t, srv, testEnv{})
			meta, err := c.FindPackage(ctx(t), mustProvider(t, exampleHost+"/acme/widget"), mustVersion(t, version), platform)
			want := tt.want
			if suffix != "" {
				want = replaceAll(want, "SUFFIX", suffix)
			}
			if diff := cmp.Diff(want, withAddr(srv, errText(err))); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if err != nil && meta != nil {
				t.Errorf("metadata returned with an error")
			}
		})
	}
}

func TestProtocolSuggestion(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	c, _ := testClient(t, srv, testEnv{})
	_, err := c.FindPackage(ctx(t), mustProvider(t, exampleHost+"/acme/widget"), mustVersion(t, "2.0.0"), linuxAMD64)
	pe, ok := err.(*ProtocolUnsupportedError)
	if !ok {
		t.Fatalf("error %T %v, want *ProtocolUnsupportedError", err, err)
	}
	if got := pe.Suggestion.String(); got != "1.1.0" {
		t.Errorf("suggestion = %s, want 1.1.0", got)
	}
}
