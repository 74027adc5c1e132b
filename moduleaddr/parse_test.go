package moduleaddr

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// offline is a transport that refuses every request, as a machine without
// network would.
type offline struct{}

func (offline) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, errors.New("dial tcp: lookup " + r.URL.Hostname() + ": no such host")
}

// cannedBitBucket answers BitBucket's repository API with a fixed SCM.
type cannedBitBucket struct {
	status int
	body   string
	seen   *[]string
}

func (c cannedBitBucket) RoundTrip(r *http.Request) (*http.Response, error) {
	*c.seen = append(*c.seen, r.URL.String())
	return &http.Response{StatusCode: c.status, Body: io.NopCloser(strings.NewReader(c.body)), Header: http.Header{}, Request: r}, nil
}

var offlineParser = Parser{HTTPClient: &http.Client{Transport: offline{}}}

func TestParseLocal(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"./modules//b/", "./modules/b"},
		{"./modules/a/../c", "./modules/c"},
		{`.\modules\c`, "./modules/c"},
		{"../x//y/", "../x/y"},
		{"./", "./."},
		{"../", "./.."},
		{"./..", "./.."},
		{"../../a", "../../a"},
		{`..\up`, "../up"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			src, err := offlineParser.Parse(tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := src.(Local); !ok {
				t.Fatalf("got %T, want Local", src)
			}
			if diff := cmp.Diff(tt.want, src.String()); diff != "" {
				t.Errorf("String() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseNotLocal(t *testing.T) {
	tests := []struct{ raw, wantErr string }{
		{".", "OpenTofu cannot detect a supported external module source type for ."},
		{"..", "OpenTofu cannot detect a supported external module source type for .."},
		{"modules/x", "OpenTofu cannot detect a supported external module source type for modules/x"},
		{"foo::bar", "OpenTofu cannot detect a supported external module source type for bar"},
		{"gitlab.com/org/repo", "OpenTofu cannot detect a supported external module source type for gitlab.com/org/repo"},
		{"app.example.com/Org/Name/AWS", "OpenTofu cannot detect a supported external module source type for app.example.com/Org/Name/AWS"},
		{"ns/name/sys-tem", "OpenTofu cannot detect a supported external module source type for ns/name/sys-tem"},
		{"github.com/hashicorp", "GitHub URLs should be github.com/username/repo"},
		{"example.com/x//../y", `subdirectory path "../y" leads outside of the module package`},
		{"", "invalid source string: "},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			src, err := offlineParser.Parse(tt.raw)
			if err == nil {
				t.Fatalf("got %T %q, want error", src, src)
			}
			if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMaybeRelativePathError(t *testing.T) {
	_, err := offlineParser.Parse("foo::bar//sub")
	e, ok := IsMaybeRelativePath(err)
	if !ok {
		t.Fatalf("got %v, want a MaybeRelativePathError", err)
	}
	if e.Addr != "bar" {
		t.Errorf("Addr = %q, want %q", e.Addr, "bar")
	}
	if _, ok := IsMaybeRelativePath(errors.New("x")); ok {
		t.Error("a plain error is not a MaybeRelativePathError")
	}
}

func TestParseRegistry(t *testing.T) {
	tests := []struct {
		raw                    string
		want                   Registry
		str, display, protocol string
	}{
		{"hashicorp/consul/aws", Registry{Host: "registry.opentofu.org", Namespace: "hashicorp", Name: "consul", System: "aws"},
			"registry.opentofu.org/hashicorp/consul/aws", "hashicorp/consul/aws", "hashicorp/consul/aws"},
		{"acme/kit/aws//modules/./sub/", Registry{Host: "registry.opentofu.org", Namespace: "acme", Name: "kit", System: "aws", Subdir: "modules/sub"},
			"registry.opentofu.org/acme/kit/aws//modules/sub", "acme/kit/aws//modules/sub", "acme/kit/aws"},
		{"App.Example.COM/Org/Name/aws", Registry{Host: "app.example.com", Namespace: "Org", Name: "Name", System: "aws"},
			"app.example.com/Org/Name/aws", "app.example.com/Org/Name/aws", "Org/Name/aws"},
		{"127.0.0.1:8443/ns/name/sys", Registry{Host: "127.0.0.1:8443", Namespace: "ns", Name: "name", System: "sys"},
			"127.0.0.1:8443/ns/name/sys", "127.0.0.1:8443/ns/name/sys", "ns/name/sys"},
		{"registry.terraform.io/a/b/c", Registry{Host: "registry.terraform.io", Namespace: "a", Name: "b", System: "c"},
			"registry.terraform.io/a/b/c", "registry.terraform.io/a/b/c", "a/b/c"},
		{"registry.opentofu.org/a/b/c", Registry{Host: "registry.opentofu.org", Namespace: "a", Name: "b", System: "c"},
			"registry.opentofu.org/a/b/c", "a/b/c", "a/b/c"},
		{"xn--caf-dma.example.com/a/b/c", Registry{}, "", "", ""}, // refused below
	}
	for _, tt := range tests[:len(tests)-1] {
		t.Run(tt.raw, func(t *testing.T) {
			for _, parse := range []func(string) (Source, error){
				offlineParser.Parse,
				func(s string) (Source, error) { return offlineParser.ParseRegistry(s) },
			} {
				src, err := parse(tt.raw)
				if err != nil {
					t.Fatal(err)
				}
				got, ok := src.(Registry)
				if !ok {
					t.Fatalf("got %T, want Registry", src)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("address (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff([]string{tt.str, tt.display, tt.protocol, tt.str}, []string{got.String(), got.ForDisplay(), got.ProtocolPath(), got.Package().String() + subSuffix(got.Subdir)}); diff != "" {
					t.Errorf("String, ForDisplay, ProtocolPath, Package (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func subSuffix(s string) string {
	if s == "" {
		return ""
	}
	return "//" + s
}

func TestParseRegistryErrors(t *testing.T) {
	const nameRule = "must be between one and 64 characters, including ASCII letters, digits, dashes, and underscores, where dashes and underscores may not be the prefix or suffix"
	tests := []struct{ raw, wantErr string }{
		{"./local", `can't use local directory "./local" as a module registry address`},
		{`..\up`, `can't use local directory "..\\up" as a module registry address`},
		{"git::https://x/y.git", `invalid module registry hostname "git::https:"`},
		{"a/b", "a module registry source address must have either three or four slash-separated components"},
		{"h.com/a/b/c/d", "a module registry source address must have either three or four slash-separated components"},
		{"localhost/a/b/c", "invalid module registry hostname: must contain at least one dot"},
		{"xn--caf-dma.example.com/a/b/c", `invalid module registry hostname "xn--caf-dma.example.com"; internationalized domain names must be given as direct unicode characters, not in punycode`},
		{"github.com/a/b/c", `can't use "github.com" as a module registry host, because it's reserved for installing directly from version control repositories`},
		{"bitbucket.org/a/b/c", `can't use "bitbucket.org" as a module registry host, because it's reserved for installing directly from version control repositories`},
		{"-ns/name/aws", `invalid namespace "-ns": ` + nameRule},
		{"example.com/name/aws", "source address must have three more components after the hostname: the namespace, the name, and the target system"},
		{"ns/na_/aws", `invalid module name "na_": ` + nameRule},
		{"ns/name/AWS", `invalid target system "AWS": must be between one and 64 ASCII letters or digits`},
		{"ns/name/sys-tem", `invalid target system "sys-tem": must be between one and 64 ASCII letters or digits`},
		{"ns/name/aws?ref=1", "module registry addresses may not include a query string portion"},
		{"ns/name/aws//../x", `subdirectory path "../x" leads outside of the module package`},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got, err := ParseRegistry(tt.raw)
			if err == nil {
				t.Fatalf("got %v, want error", got)
			}
			if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseRemote(t *testing.T) {
	tests := []struct{ raw, pkg, subdir, str string }{
		{"github.com/hashicorp/example//sub/dir?ref=v1.2.0", "git::https://github.com/hashicorp/example.git?ref=v1.2.0", "sub/dir", "git::https://github.com/hashicorp/example.git//sub/dir?ref=v1.2.0"},
		{"github.com/hashicorp/example.git", "git::https://github.com/hashicorp/example.git", "", "git::https://github.com/hashicorp/example.git"},
		{"github.com/hashicorp/example/modules/x//y", "git::https://github.com/hashicorp/example.git", "modules/x/y", "git::https://github.com/hashicorp/example.git//modules/x/y"},
		{"git@github.com:hashicorp/example.git", "git::ssh://git@github.com/hashicorp/example.git", "", "git::ssh://git@github.com/hashicorp/example.git"},
		{"git::https://example.com/vpc.git?ref=v1.2.0&depth=1", "git::https://example.com/vpc.git?ref=v1.2.0&depth=1", "", "git::https://example.com/vpc.git?ref=v1.2.0&depth=1"},
		{"https://example.com/x.tar.gz//sub", "https://example.com/x.tar.gz", "sub", "https://example.com/x.tar.gz//sub"},
		{"bucket.s3-eu-west-1.amazonaws.com/path/vpc.zip", "s3::https://s3-eu-west-1.amazonaws.com/bucket/path/vpc.zip", "", "s3::https://s3-eu-west-1.amazonaws.com/bucket/path/vpc.zip"},
		{"www.googleapis.com/storage/v1/modules/m.zip", "gcs::https://www.googleapis.com/storage/v1/modules/m.zip", "", "gcs::https://www.googleapis.com/storage/v1/modules/m.zip"},
		{"/abs/path//sub", "file:///abs/path", "sub", "file:///abs/path//sub"},
		{"oci://example.com/repo//sub?digest=sha256:abc", "oci://example.com/repo?digest=sha256:abc", "sub", "oci://example.com/repo//sub?digest=sha256:abc"},
		{"foo::https://example.com/x", "foo::https://example.com/x", "", "foo::https://example.com/x"},
		{"git::file:///srv/repos/net.git//modules/a/../b?ref=v1", "git::file:///srv/repos/net.git?ref=v1", "modules/b", "git::file:///srv/repos/net.git//modules/b?ref=v1"},
		{"https://example.com/x.zip//*", "https://example.com/x.zip", "*", "https://example.com/x.zip//*"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			src, err := offlineParser.Parse(tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := src.(Remote)
			if !ok {
				t.Fatalf("got %T, want Remote", src)
			}
			if diff := cmp.Diff(Remote{Package: tt.pkg, Subdir: tt.subdir}, got); diff != "" {
				t.Errorf("address (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{tt.str, tt.str}, []string{got.String(), got.ForDisplay()}); diff != "" {
				t.Errorf("String, ForDisplay (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseRemoteWithVersionIsError(t *testing.T) {
	_, err := offlineParser.ParseRegistry("github.com/hashicorp/example")
	if err == nil {
		t.Fatal("a GitHub address is not a registry address")
	}
}

func TestBitBucket(t *testing.T) {
	t.Run("offline", func(t *testing.T) {
		_, err := offlineParser.Parse("bitbucket.org/acme/repo")
		want := `error looking up BitBucket URL: Get "https://api.bitbucket.org/2.0/repositories/acme/repo": dial tcp: lookup api.bitbucket.org: no such host`
		if err == nil || err.Error() != want {
			t.Fatalf("got error %v, want %s", err, want)
		}
	})
	tests := []struct {
		name, body string
		status     int
		want       string
		wantErr    string
	}{
		{"git", `{"scm":"git"}`, 200, "git::https://bitbucket.org/acme/repo.git", ""},
		{"hg", `{"scm":"hg"}`, 200, "hg::https://bitbucket.org/acme/repo", ""},
		{"private", ``, 403, "", "shorthand BitBucket URL can't be used for private repos, please use a full URL"},
		{"other", `{"scm":"svn"}`, 200, "", "unknown BitBucket SCM type: svn"},
		{"not json", `<html>`, 200, "", "error looking up BitBucket URL: invalid character '<' looking for beginning of value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seen []string
			p := Parser{HTTPClient: &http.Client{Transport: cannedBitBucket{status: tt.status, body: tt.body, seen: &seen}}}
			src, err := p.Parse("bitbucket.org/acme/repo")
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("got error %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, src.String()); diff != "" {
				t.Errorf("String() (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"https://api.bitbucket.org/2.0/repositories/acme/repo"}, seen); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParseModuleSource(f *testing.F) {
	for _, s := range []string{"./a//b/", "../x", "hashicorp/consul/aws", "acme/kit/aws//sub", "github.com/a/b//c?ref=1",
		"git@github.com:a/b.git", "https://x.test/a.zip//*", "/abs//sub", "bucket.s3.amazonaws.com/k", "git::https://x/y.git?ref=a&depth=1",
		"www.googleapis.com/storage/v1/b/o.zip", "oci://r.test/repo//s?tag=1", "foo::bar", "bitbucket.org/a/b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		src, err := offlineParser.Parse(raw)
		if err != nil {
			return
		}
		again, err := offlineParser.Parse(src.String())
		if err != nil && unparseableURL(src) {
			// OpenTofu quirk, reproduced: the SCP detector can build a URL
			// that url.Parse refuses ("git@ :0" gives "ssh://git@%20/0"),
			// so the canonical form does not parse again.
			return
		}
		if err != nil {
			t.Fatalf("Parse(%q) = %q, which does not parse: %v", raw, src.String(), err)
		}
		if again.String() != src.String() {
			t.Fatalf("Parse(%q) = %q, parsed again %q", raw, src.String(), again.String())
		}
	})
}

// unparseableURL reports whether src is a remote address whose package
// (forced getter removed) is not a URL that net/url accepts.
// forcedGetterPrefix matches a forced getter ("git::"); a "::" later in
// the address (an absolute path "/%::" becomes "file:///%::") is not one.
var forcedGetterPrefix = regexp.MustCompile(`^[A-Za-z0-9]+::(.+)$`)

func unparseableURL(src Source) bool {
	rem, ok := src.(Remote)
	if !ok {
		return false
	}
	pkg := rem.Package
	if m := forcedGetterPrefix.FindStringSubmatch(pkg); m != nil {
		pkg = m[1]
	}
	_, err := url.Parse(pkg)
	return err != nil
}
