package modules

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseSource checks the normalisations of modules.md §2 (the
// verified table of §2.4 included).
func TestParseSource(t *testing.T) {
	tests := []struct {
		name, raw     string
		version       bool
		kind          SourceKind
		pkg, str, err string
	}{
		{name: "local double slash", raw: "./modules//b/", kind: KindLocal, str: "./modules/b"},
		{name: "local dotdot", raw: "./modules/a/../c", kind: KindLocal, str: "./modules/c"},
		{name: "local backslash", raw: `.\modules\c`, kind: KindLocal, str: "./modules/c"},
		{name: "local parent", raw: "../x//y/", kind: KindLocal, str: "../x/y"},
		{name: "local dot", raw: "./", kind: KindLocal, str: "./."},
		{name: "registry", raw: "acme/net/aws", kind: KindRegistry, str: "registry.opentofu.org/acme/net/aws"},
		{name: "registry subdir", raw: "app.example.com/acme/net/aws//modules/x", kind: KindRegistry, str: "app.example.com/acme/net/aws//modules/x"},
		{name: "registry port", raw: "127.0.0.1:8443/ns/name/sys", kind: KindRegistry, str: "127.0.0.1:8443/ns/name/sys"},
		{name: "github", raw: "github.com/hashicorp/example//sub/dir?ref=v1.2.0", kind: KindRemote, pkg: "git::https://github.com/hashicorp/example.git?ref=v1.2.0", str: "git::https://github.com/hashicorp/example.git//sub/dir?ref=v1.2.0"},
		{name: "scp git", raw: "git@github.com:hashicorp/example.git", kind: KindRemote, pkg: "git::ssh://git@github.com/hashicorp/example.git", str: "git::ssh://git@github.com/hashicorp/example.git"},
		{name: "git query kept", raw: "git::https://example.com/vpc.git?ref=v1.2.0&depth=1", kind: KindRemote, pkg: "git::https://example.com/vpc.git?ref=v1.2.0&depth=1", str: "git::https://example.com/vpc.git?ref=v1.2.0&depth=1"},
		{name: "https archive subdir", raw: "https://example.com/x.tar.gz//sub", kind: KindRemote, pkg: "https://example.com/x.tar.gz", str: "https://example.com/x.tar.gz//sub"},
		{name: "s3", raw: "bucket.s3-eu-west-1.amazonaws.com/path/vpc.zip", kind: KindRemote, pkg: "s3::https://s3-eu-west-1.amazonaws.com/bucket/path/vpc.zip", str: "s3::https://s3-eu-west-1.amazonaws.com/bucket/path/vpc.zip"},
		{name: "gcs", raw: "www.googleapis.com/storage/v1/modules/m.zip", kind: KindRemote, pkg: "gcs::https://www.googleapis.com/storage/v1/modules/m.zip", str: "gcs::https://www.googleapis.com/storage/v1/modules/m.zip"},
		{name: "absolute path", raw: "/abs/path//sub", kind: KindRemote, pkg: "file:///abs/path", str: "file:///abs/path//sub"},
		{name: "oci", raw: "oci://example.com/repo//sub?digest=sha256:abc", kind: KindRemote, pkg: "oci://example.com/repo?digest=sha256:abc", str: "oci://example.com/repo//sub?digest=sha256:abc"},
		{name: "unknown getter kept", raw: "foo::https://example.com/x", kind: KindRemote, pkg: "foo::https://example.com/x", str: "foo::https://example.com/x"},
		{name: "upper-case system", raw: "app.example.com/Org/Name/AWS", err: "OpenTofu cannot detect a supported external module source type for app.example.com/Org/Name/AWS"},
		{name: "relative without dot", raw: "modules/x", err: "OpenTofu cannot detect a supported external module source type for modules/x"},
		{name: "gitlab", raw: "gitlab.com/org/repo", err: "OpenTofu cannot detect a supported external module source type for gitlab.com/org/repo"},
		{name: "subdir escapes", raw: "git::https://example.com/x.git//../x", err: `subdirectory path "../x" leads outside of the module package`},
		{name: "version on local", raw: "./modules/x", version: true, err: `can't use local directory "./modules/x" as a module registry address`},
		{name: "version on git", raw: "git::https://example.com/x.git", version: true, err: `invalid module registry hostname "git::https:"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSource(tt.raw, tt.version)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Kind != tt.kind || got.String() != tt.str || got.Package != tt.pkg {
				t.Errorf("got kind %d %q package %q, want kind %d %q package %q", got.Kind, got.String(), got.Package, tt.kind, tt.str, tt.pkg)
			}
		})
	}
}

// TestManifestEncode: records sorted by key, Version only when set, &
// escaped the Go way, no trailing newline; reading gives the same bytes.
func TestManifestEncode(t *testing.T) {
	m := Manifest{
		"":    {Dir: "."},
		"b":   {Source: "git::https://example.com/x.git?ref=v1&depth=1", Dir: ".terraform/modules/b"},
		"a":   {Source: "registry.opentofu.org/acme/net/aws", Version: "1.0.0", Dir: ".terraform/modules/a"},
		"a.c": {Source: "../x", Dir: ""},
	}
	want := `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"a","Source":"registry.opentofu.org/acme/net/aws","Version":"1.0.0","Dir":".terraform/modules/a"},{"Key":"a.c","Source":"../x","Dir":""},{"Key":"b","Source":"git::https://example.com/x.git?ref=v1\u0026depth=1","Dir":".terraform/modules/b"}]}`
	if diff := cmp.Diff(want, string(m.Encode())); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	dir := t.TempDir()
	if err := m.Write(dir); err != nil {
		t.Fatal(err)
	}
	back, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(back.Encode())); diff != "" {
		t.Errorf("after reading (-want +got):\n%s", diff)
	}
}

// TestSelectVersion: the prerelease rule of modules.md §3.3.
func TestSelectVersion(t *testing.T) {
	listed := []string{"1.0.0", "v1.1", "1.2.0-beta1", "2.0.0", "not-a-version"}
	tests := []struct{ constraint, match, newest string }{
		{"", "2.0.0", "2.0.0"},
		{"~> 1.0", "1.1.0", "2.0.0"},
		{"1.2.0-beta1", "1.2.0-beta1", "2.0.0"},
		{"=1.2.0-beta1", "1.2.0-beta1", "2.0.0"},
		{"v1.2.0-beta1", "1.2.0-beta1", "2.0.0"},
		{">= 1.2.0-beta1", "2.0.0", "2.0.0"},
		{"3.0.0", "", "2.0.0"},
	}
	for _, tt := range tests {
		t.Run(tt.constraint, func(t *testing.T) {
			s := selectVersion(listed, tt.constraint)
			str := func(v interface{ String() string }, ok bool) string {
				if !ok {
					return ""
				}
				return v.String()
			}
			if got := str(s.match, s.match != nil); got != tt.match {
				t.Errorf("match %q, want %q", got, tt.match)
			}
			if got := str(s.newest, s.newest != nil); got != tt.newest {
				t.Errorf("newest %q, want %q", got, tt.newest)
			}
			if diff := cmp.Diff([]string{"not-a-version"}, s.invalid); diff != "" {
				t.Errorf("invalid (-want +got):\n%s", diff)
			}
		})
	}
}
