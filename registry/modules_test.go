package registry

import (
	"bytes"
	"errors"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/moduleaddr"
)

var moduleFiles = map[string]string{"main.tf": "# root\n", "modules/sub/main.tf": "# sub\n", "scripts/run.sh*": "#!/bin/sh\n"}

func moduleOptions() registrytest.Options {
	return registrytest.Options{Modules: []registrytest.Module{
		{Namespace: "acme", Name: "net", System: "aws", Versions: []registrytest.ModuleVersion{
			{Version: "1.0.0", Files: moduleFiles},
			{Version: "v1.1", Files: moduleFiles, Location: registrytest.JSONLocation},
			{Version: "2.0.0", Files: moduleFiles, Location: registrytest.DirectLocation, Format: "tar.gz"},
			{Version: "2.1.0", Files: moduleFiles, Location: registrytest.DirectLocation, UseCredentials: true, Format: "tar.xz"},
			{Version: "3.0.0", Files: moduleFiles, RelativeLocation: true, Prefix: "net-3.0.0"},
			{Version: "4.0.0", Files: moduleFiles, RawLocation: "acme/other/aws"},
			{Version: "5.0.0", Files: moduleFiles, RawLocation: "./local"},
			{Version: "6.0.0", Files: moduleFiles, ViaPage: true, Format: "tgz"},
			{Version: "7.0.0", Files: moduleFiles, Location: registrytest.DirectLocation, RawLocation: "ftp://x/y.zip"},
			{Version: "8.0.0", Files: moduleFiles, Location: registrytest.DirectLocation, RawLocation: "https://x/y.zip#frag"},
		}},
		{Namespace: "acme", Name: "empty", System: "aws"},
	}}
}

// moduleClient returns a client whose registry.example.com and
// registry.opentofu.org host blocks name the fake's modules.v1 service.
func moduleClient(t *testing.T, srv *registrytest.Server, env testEnv) *Client {
	c, _ := testClient(t, srv, env, func(s *Settings) {
		s.HostServices = srv.ModuleHostServices(exampleHost, "registry.opentofu.org")
		s.Credentials = map[string]string{exampleHost: "secret"}
	})
	return c
}

func mustRegistry(t *testing.T, s string) moduleaddr.Registry {
	t.Helper()
	r, err := moduleaddr.ParseRegistry(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestModuleVersions(t *testing.T) {
	srv := registrytest.New(t, moduleOptions())
	c := moduleClient(t, srv, testEnv{})
	got, err := c.ModuleVersions(ctx(t), mustRegistry(t, exampleHost+"/acme/net/aws//ignored"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1.0.0", "v1.1", "2.0.0", "2.1.0", "3.0.0", "4.0.0", "5.0.0", "6.0.0", "7.0.0", "8.0.0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	reqs := srv.Requests()
	if h := reqs[len(reqs)-1].Header; h.Get("Authorization") != "Bearer secret" || h.Get("X-Terraform-Version") != "1.12.6" {
		t.Errorf("headers: %v", h)
	}
}

func TestModuleVersionsErrors(t *testing.T) {
	tests := []struct {
		name, addr string
		fault      *registrytest.Fault
		services   map[string]any
		override   string
		wantErr    string
		check      func(error) bool
		flavour    flavour.Flavour
	}{
		{name: "not found", addr: exampleHost + "/acme/nope/aws", wantErr: "module registry.example.com/acme/nope/aws not found",
			check: func(err error) bool { var e *ModuleNotFoundError; return errors.As(err, &e) }},
		{name: "empty list", addr: exampleHost + "/acme/empty/aws", override: `{"modules":[]}`, wantErr: ErrNoModulesListed.Error(),
			check: func(err error) bool { return errors.Is(err, ErrNoModulesListed) }},
		{name: "unauthorized", addr: exampleHost + "/acme/net/aws", fault: &registrytest.Fault{Kind: registrytest.Status, Status: 401},
			wantErr: "error looking up module versions: 401 Unauthorized"},
		{name: "retries exhausted", addr: exampleHost + "/acme/net/aws", fault: &registrytest.Fault{Kind: registrytest.Status, Status: 500},
			wantErr: "request failed after 2 attempts: 500 Internal Server Error returned from https://HOST/v1/modules/acme/net/aws/versions"},
		// Terraform's module registry client names the URL too (its
		// provider registry client only the host; observed with 1.15.9).
		{name: "retries exhausted terraform", addr: exampleHost + "/acme/net/aws", fault: &registrytest.Fault{Kind: registrytest.Status, Status: 500}, flavour: flavour.Terraform,
			wantErr: "the request failed after 2 attempts, please try again later: 500 Internal Server Error returned from https://HOST/v1/modules/acme/net/aws/versions"},
		{name: "no modules service", addr: exampleHost + "/acme/net/aws", services: map[string]any{"providers.v1": "/v1/providers/"},
			wantErr: "host registry.example.com does not provide a modules service",
			check:   func(err error) bool { var e *ModuleServiceError; return errors.As(err, &e) }},
		{name: "other modules version", addr: exampleHost + "/acme/net/aws", services: map[string]any{"modules.v2": "/v2/"},
			wantErr: "host registry.example.com does not support modules version 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := registrytest.New(t, moduleOptions())
			if tt.fault != nil {
				srv.Inject(registrytest.ModuleVersions, *tt.fault)
			}
			if tt.override != "" {
				srv.Override("/v1/modules/acme/empty/aws/versions", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(tt.override)) })
			}
			c, _ := testClient(t, srv, testEnv{}, func(s *Settings) {
				s.HostServices = srv.ModuleHostServices(exampleHost)
				if tt.services != nil {
					s.HostServices[exampleHost] = tt.services
				}
				s.Flavour = tt.flavour
			})
			_, err := c.ModuleVersions(ctx(t), mustRegistry(t, tt.addr))
			if diff := cmp.Diff(tt.wantErr, strings.ReplaceAll(modErr(err), srv.Host(), "HOST")); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if tt.check != nil && !tt.check(err) {
				t.Errorf("error %T has the wrong type", err)
			}
		})
	}
}

func TestModuleVersionsMemo(t *testing.T) {
	srv := registrytest.New(t, moduleOptions())
	memo := &ModuleVersionsMemo{Client: moduleClient(t, srv, testEnv{})}
	for _, a := range []string{"acme/net/aws", "acme/net/aws//modules/sub", "registry.opentofu.org/acme/net/aws"} {
		if _, err := memo.Versions(ctx(t), mustRegistry(t, a)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := memo.Versions(ctx(t), mustRegistry(t, exampleHost+"/acme/net/aws")); err != nil {
		t.Fatal(err)
	}
	if got := srv.CountPath("/v1/modules/acme/net/aws/versions"); got != 2 {
		t.Errorf("versions requests = %d, want 2 (one per host)", got)
	}
}

func TestModuleLocation(t *testing.T) {
	srv := registrytest.New(t, moduleOptions())
	c := moduleClient(t, srv, testEnv{})
	base := srv.URL()
	tests := []struct {
		version, call string
		want          string // Label()
		wantErr       string
	}{
		{"1.0.0", "acme/net/aws", `{"URL/modfiles/acme/net/aws/1.0.0.zip"}`, ""},
		{"1.0.0", "acme/net/aws//modules/sub", `{"URL/modfiles/acme/net/aws/1.0.0.zip//modules/sub"}`, ""},
		{"v1.1", "acme/net/aws", `{"URL/modfiles/acme/net/aws/v1.1.zip"}`, ""},
		{"2.0.0", "acme/net/aws//modules/sub", `{{"registry.opentofu.org" "acme" "net" "aws"} "modules/sub" "URL/modfiles/acme/net/aws/2.0.0.tar.gz" false}`, ""},
		{"3.0.0", "acme/net/aws//modules/sub", `{"URL/modfiles/acme/net/aws/3.0.0.zip//net-3.0.0/modules/sub"}`, ""},
		{"6.0.0", "acme/net/aws", `{"URL/modpage/acme/net/aws/6.0.0"}`, ""},
		{"4.0.0", "acme/net/aws", "", `registry returned invalid package location "acme/other/aws": must be a direct remote package address`},
		{"5.0.0", "acme/net/aws", `{"URL/v1/modules/acme/net/aws/5.0.0/local"}`, ""},
		{"7.0.0", "acme/net/aws", "", `registry returned invalid package URL "ftp://x/y.zip": must be http or https URL`},
		{"8.0.0", "acme/net/aws", "", `registry returned invalid package URL "https://x/y.zip#frag": must not include fragment part`},
		{"9.9.9", "acme/net/aws", "", `module "registry.opentofu.org/acme/net/aws" version "9.9.9" not found`},
	}
	for _, tt := range tests {
		t.Run(tt.version+" "+tt.call, func(t *testing.T) {
			loc, err := c.ModuleLocation(ctx(t), mustRegistry(t, tt.call), tt.version)
			if diff := cmp.Diff(tt.wantErr, strings.ReplaceAll(modErr(err), base, "URL")); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.want, strings.ReplaceAll(loc.Label(), base, "URL")); diff != "" {
				t.Errorf("Label (-want +got):\n%s", diff)
			}
		})
	}
}

func TestModuleLocationAnswers(t *testing.T) {
	pkg := mustRegistry(t, "acme/net/aws//sub")
	tests := []struct {
		name   string
		status int
		header string
		body   string
		want   string
		err    string
	}{
		{name: "204 header", status: 204, header: "https://x.test/a.zip", want: `{"https://x.test/a.zip//sub"}`},
		{name: "204 no header", status: 204, err: "registry did not return a location for this package"},
		{name: "200 empty location uses header", status: 200, header: "git::https://x.test/r.git?ref=v1", body: `{"location":""}`, want: `{"git::https://x.test/r.git//sub?ref=v1"}`},
		{name: "200 empty location no header", status: 200, body: `{}`, err: "registry did not return a location for this package"},
		{name: "200 shorthand", status: 200, body: `{"location":"github.com/a/b"}`, want: `{"git::https://github.com/a/b.git//sub"}`},
		{name: "200 relative", status: 200, body: `{"location":"../x.tar.gz//top"}`, want: `{"https://HOST/v1/modules/acme/net/aws/x.tar.gz//top/sub"}`},
		{name: "200 not json", status: 200, body: `<html>`, err: `module "registry.opentofu.org/acme/net/aws" version "1.0.0" failed to deserialize response body <html>: invalid character '<' looking for beginning of value`},
		{name: "200 credentials not bool", status: 200, body: `{"location":"/a.zip","use_registry_credentials":"yes"}`,
			err: `module "registry.opentofu.org/acme/net/aws" version "1.0.0" failed to deserialize response body {"location":"/a.zip","use_registry_credentials":"yes"}: json: cannot unmarshal string into Go struct field .use_registry_credentials of type bool`},
		{name: "200 direct relative", status: 200, body: `{"location":"/a.zip","use_registry_credentials":true}`, want: `{{"registry.opentofu.org" "acme" "net" "aws"} "sub" "https://HOST/a.zip" true}`},
		{name: "200 direct empty", status: 200, body: `{"location":"","use_registry_credentials":false}`, want: `{{"registry.opentofu.org" "acme" "net" "aws"} "sub" "https://HOST/v1/modules/acme/net/aws/1.0.0/download" false}`},
		{name: "404", status: 404, err: `module "registry.opentofu.org/acme/net/aws" version "1.0.0" not found`},
		{name: "403", status: 403, body: "denied", err: `error getting download location for "registry.opentofu.org/acme/net/aws": 403 Forbidden resp:denied`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := registrytest.New(t, moduleOptions())
			srv.Override("/v1/modules/acme/net/aws/1.0.0/download", func(w http.ResponseWriter, r *http.Request) {
				if tt.header != "" {
					w.Header().Set("X-Terraform-Get", tt.header)
				}
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			})
			c := moduleClient(t, srv, testEnv{})
			loc, err := c.ModuleLocation(ctx(t), pkg, "1.0.0")
			if diff := cmp.Diff(tt.err, strings.ReplaceAll(modErr(err), srv.Host(), "HOST")); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if err == nil {
				if diff := cmp.Diff(tt.want, strings.ReplaceAll(loc.Label(), srv.Host(), "HOST")); diff != "" {
					t.Errorf("Label (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestFetchModulePackage(t *testing.T) {
	for _, format := range []string{"zip", "tar.gz", "tgz", "tar.xz", "tar.bz2"} {
		t.Run(format, func(t *testing.T) {
			if format == "tar.bz2" {
				if _, err := execLookPath("bzip2"); err != nil {
					t.Skip("bzip2 command not available to build the archive")
				}
			}
			opts := moduleOptions()
			opts.Modules[0].Versions = []registrytest.ModuleVersion{{Version: "1.0.0", Files: moduleFiles, Format: format, Location: registrytest.DirectLocation, Prefix: "top"}}
			srv := registrytest.New(t, opts)
			c := moduleClient(t, srv, testEnv{})
			loc, err := c.ModuleLocation(ctx(t), mustRegistry(t, exampleHost+"/acme/net/aws//top/modules/sub"), "1.0.0")
			if err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(t.TempDir(), "pkg")
			dir, err := c.FetchModulePackage(ctx(t), loc.Direct, t.TempDir(), target)
			if err != nil {
				t.Fatal(err)
			}
			if dir != filepath.Join(target, "top", "modules", "sub") {
				t.Errorf("dir = %s", dir)
			}
			got, err := os.ReadFile(filepath.Join(dir, "main.tf"))
			if err != nil || string(got) != "# sub\n" {
				t.Errorf("sub/main.tf = %q, %v", got, err)
			}
			info, err := os.Stat(filepath.Join(target, "top", "scripts", "run.sh"))
			if err != nil || info.Mode().Perm()&0o100 == 0 {
				t.Errorf("run.sh mode: %v %v", info, err)
			}
			req := srv.Requests()[len(srv.Requests())-1]
			if diff := cmp.Diff([]string{"application/zip, application/x-tar; *;q=0.1", "identity, gzip, *;q=0.1", "1.12.6", ""},
				[]string{req.Header.Get("Accept"), req.Header.Get("Accept-Encoding"), req.Header.Get("X-Terraform-Version"), req.Header.Get("Authorization")}); diff != "" {
				t.Errorf("download headers (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDownloadModulePackage(t *testing.T) {
	tests := []struct {
		name      string
		useCreds  bool
		fault     *registrytest.Fault
		override  http.HandlerFunc
		wantErr   string
		wantToken string
	}{
		{name: "credentials asked", useCreds: true, wantToken: "Bearer secret"},
		{name: "credentials not asked"},
		{name: "404", fault: &registrytest.Fault{Kind: registrytest.Status, Status: 404}, wantErr: "failed to download module package: server returned 404 Not Found"},
		{name: "short body", override: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "10")
			w.(http.Flusher).Flush()
			w.Write([]byte("abc"))
		}, wantErr: "copying module package to temporary file: unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := moduleOptions()
			opts.Modules[0].Versions = []registrytest.ModuleVersion{{Version: "1.0.0", Files: moduleFiles, Location: registrytest.DirectLocation, UseCredentials: tt.useCreds}}
			srv := registrytest.New(t, opts)
			if tt.fault != nil {
				srv.Inject(registrytest.ModuleArchive, *tt.fault)
			}
			if tt.override != nil {
				srv.Override("/modfiles/acme/net/aws/1.0.0.zip", tt.override)
			}
			c := moduleClient(t, srv, testEnv{})
			loc, err := c.ModuleLocation(ctx(t), mustRegistry(t, exampleHost+"/acme/net/aws"), "1.0.0")
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			_, err = c.DownloadModulePackage(ctx(t), loc.Direct, &buf)
			if diff := cmp.Diff(tt.wantErr, modErr(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if f, err := SniffModulePackage(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil || f != FormatZip {
				t.Errorf("sniffed %q, %v", f, err)
			}
			req := srv.Requests()[len(srv.Requests())-1]
			if got := req.Header.Get("Authorization"); got != tt.wantToken {
				t.Errorf("Authorization = %q, want %q", got, tt.wantToken)
			}
		})
	}
}

func TestSniffModulePackage(t *testing.T) {
	tests := []struct {
		name    string
		content []byte
		want    ModulePackageFormat
		wantErr string
	}{
		{name: "bzip2 magic", content: []byte("BZh91AY&SY"), want: FormatTarBz2},
		{name: "xz magic", content: []byte{0xfd, '7', 'z', 'X', 'Z', 0, 0, 4, 0xe6, 0xd6, 0xb4, 0x46}, want: FormatTarXz},
		{name: "text", content: []byte("hello world"), wantErr: ErrUnknownModulePackage.Error()},
		{name: "empty", wantErr: ErrUnknownModulePackage.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SniffModulePackage(bytes.NewReader(tt.content), int64(len(tt.content)))
			if diff := cmp.Diff(tt.wantErr, modErr(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if got != tt.want {
				t.Errorf("format = %q, want %q", got, tt.want)
			}
		})
	}
}

func execLookPath(name string) (string, error) { return exec.LookPath(name) }

// modErr is the error's text, "" for none.
func modErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// FuzzModuleRegistryAnswers feeds arbitrary bodies to the versions decoder
// and the download-location table: they must never panic, and a location
// they accept is either an indirect remote address or an http(s) URL.
func FuzzModuleRegistryAnswers(f *testing.F) {
	f.Add([]byte(`{"modules":[{"versions":[{"version":"1.0.0"}]}]}`), 200, "")
	f.Add([]byte(`{"location":"../x.tar.gz//sub","use_registry_credentials":true}`), 200, "")
	f.Add([]byte(``), 204, "git::https://example.com/x.git?ref=1")
	base, _ := url.Parse("https://registry.test/v1/modules/acme/net/aws/1.0.0/download")
	offline := moduleaddr.Parser{HTTPClient: &http.Client{Transport: noNetwork{}}}
	src := moduleaddr.Registry{Host: "registry.test", Namespace: "acme", Name: "net", System: "aws", Subdir: "sub"}
	f.Fuzz(func(t *testing.T, body []byte, status int, header string) {
		DecodeModuleVersions(bytes.NewReader(body))
		h := http.Header{}
		h.Set("X-Terraform-Get", header)
		loc, err := decodeModuleLocation(status, "STATUS", h, body, src, "1.0.0", base, offline)
		if err != nil {
			return
		}
		switch {
		case loc.Indirect != nil && loc.Direct == nil:
		case loc.Direct != nil && loc.Indirect == nil:
			if s := loc.Direct.URL.Scheme; s != "http" && s != "https" {
				t.Fatalf("direct location with scheme %q", s)
			}
		default:
			t.Fatalf("location %+v", loc)
		}
		_ = loc.Label()
	})
}

// noNetwork refuses every request.
type noNetwork struct{}

func (noNetwork) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("no network in tests")
}
