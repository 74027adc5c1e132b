package providersource

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// makeTree creates entries under dir: names ending in "/" are directories,
// "a -> b" is a symlink a pointing at b, anything else an empty file.
func makeTree(t *testing.T, dir string, entries ...string) {
	t.Helper()
	for _, e := range entries {
		if from, to, ok := strings.Cut(e, " -> "); ok {
			p := filepath.Join(dir, from)
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.Symlink(to, p))
			continue
		}
		p := filepath.Join(dir, e)
		if strings.HasSuffix(e, "/") {
			must(t, os.MkdirAll(p, 0o755))
			continue
		}
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte("x"), 0o644))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// found summarises a search result as "PROVIDER VERSION PLATFORM KIND REL".
func found(base string, pkgs map[addrs.Provider][]PackageMeta) []string {
	var out []string
	for _, list := range pkgs {
		for _, p := range list {
			kind := "zip"
			if _, ok := p.Location.(LocalDir); ok {
				kind = "dir"
			}
			rel, _ := filepath.Rel(base, p.Location.String())
			out = append(out, strings.Join([]string{p.Provider.String(), p.Version.String(), p.TargetPlatform.String(), kind, rel, p.Filename}, " "))
		}
	}
	return out
}

func TestSearchLocalDirectory(t *testing.T) {
	tests := []struct {
		name    string
		entries []string
		want    []string
	}{
		{
			name:    "unpacked",
			entries: []string{"registry.opentofu.org/hashicorp/aws/5.31.0/linux_amd64/terraform-provider-aws"},
			want:    []string{"registry.opentofu.org/hashicorp/aws 5.31.0 linux_amd64 dir registry.opentofu.org/hashicorp/aws/5.31.0/linux_amd64 terraform-provider-aws_5.31.0_linux_amd64.zip"},
		},
		{
			name:    "packed, case-insensitive name, extra parts ignored",
			entries: []string{"example.com/acme/foo/Terraform-Provider-FOO_1.0.0_Linux_AMD64_extra.ZIP"},
			want:    []string{"example.com/acme/foo 1.0.0 linux_amd64 zip example.com/acme/foo/Terraform-Provider-FOO_1.0.0_Linux_AMD64_extra.ZIP terraform-provider-foo_1.0.0_linux_amd64_extra.zip"},
		},
		{
			name:    "namespace and type are case-folded",
			entries: []string{"Registry.OpenTofu.org/HashiCorp/AWS/1.0/darwin_arm64/"},
			want:    []string{"registry.opentofu.org/hashicorp/aws 1.0.0 darwin_arm64 dir Registry.OpenTofu.org/HashiCorp/AWS/1.0/darwin_arm64 terraform-provider-aws_1.0.0_darwin_arm64.zip"},
		},
		{
			name:    "unicode hostname with port, build metadata",
			entries: []string{"café.fr:8443/a/b/1.0.0+local/linux_arm64/"},
			want:    []string{"café.fr:8443/a/b 1.0.0+local linux_arm64 dir café.fr:8443/a/b/1.0.0+local/linux_arm64 terraform-provider-b_1.0.0+local_linux_arm64.zip"},
		},
		{
			name:    "legacy namespace only on the default host",
			entries: []string{"registry.opentofu.org/-/null/1.0.0/linux_amd64/", "example.com/-/null/1.0.0/linux_amd64/"},
			want:    []string{"registry.opentofu.org/-/null 1.0.0 linux_amd64 dir registry.opentofu.org/-/null/1.0.0/linux_amd64 terraform-provider-null_1.0.0_linux_amd64.zip"},
		},
		{
			name: "skipped entries",
			entries: []string{
				"xn--caf-dma.fr/a/b/1.0.0/linux_amd64/",                      // punycode hostname
				"example.com/a_b/c/1.0.0/linux_amd64/",                       // invalid namespace
				"example.com/a/b--c/1.0.0/linux_amd64/",                      // invalid type
				"example.com/a/b/v1.0.0/linux_amd64/",                        // invalid version
				"example.com/a/b/1.0.0/linux/",                               // platform without underscore
				"example.com/a/b/1.0.0/linux_amd_64/",                        // three platform parts
				"example.com/a/b/1.0.0/linux amd64_x/",                       // whitespace
				"example.com/a/b/1.0.0/linux_amd64.txt",                      // depth 5 file
				"example.com/a/b/terraform-provider-c_1.0.0_linux_amd64.zip", // other type
				"example.com/a/b/terraform-provider-b_1.0.0_linux.zip",       // two parts
				"example.com/a/b/terraform-provider-b_1.0.0_linux_amd64.tgz", // not a zip
				"example.com/a/b/terraform-provider-b_x_linux_amd64.zip",     // bad version
				"example.com/a/b/1.0.0/linux_amd64/deeper/dir/",              // depth > 5
				"example.com/a/README",                                       // depth 3 file
				"example.com/a/b/notes/",                                     // directory at depth 4
			},
			want: []string{"example.com/a/b 1.0.0 linux_amd64 dir example.com/a/b/1.0.0/linux_amd64 terraform-provider-b_1.0.0_linux_amd64.zip"},
		},
		{
			name: "symlinks at depth 4 and 5 are followed, above not",
			entries: []string{
				"store/pkgdir/", "store/pkg.zip",
				"example.com/a/b/1.0.0/linux_amd64 -> ../../../../store/pkgdir",
				"example.com/a/b/terraform-provider-b_2.0.0_linux_amd64.zip -> ../../../store/pkg.zip",
				"example.com/a/c -> ../../store",
				"linked.example.com -> store",
			},
			want: []string{
				"example.com/a/b 1.0.0 linux_amd64 dir example.com/a/b/1.0.0/linux_amd64 terraform-provider-b_1.0.0_linux_amd64.zip",
				"example.com/a/b 2.0.0 linux_amd64 zip example.com/a/b/terraform-provider-b_2.0.0_linux_amd64.zip terraform-provider-b_2.0.0_linux_amd64.zip",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			makeTree(t, base, tt.entries...)
			pkgs, err := SearchLocalDirectory(base)
			if err != nil {
				t.Fatal(err)
			}
			got := found(base, pkgs)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSearchLocalDirectoryBaseSymlinkAndErrors(t *testing.T) {
	t.Run("base directory may be a symlink", func(t *testing.T) {
		dir := t.TempDir()
		makeTree(t, dir, "real/example.com/a/b/1.0.0/linux_amd64/", "link -> real")
		pkgs, err := SearchLocalDirectory(filepath.Join(dir, "link"))
		if err != nil {
			t.Fatal(err)
		}
		if len(pkgs) != 1 {
			t.Errorf("got %v", pkgs)
		}
	})
	t.Run("missing base", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "nope")
		_, err := SearchLocalDirectory(p)
		want := "cannot search " + p + ": lstat " + p + ": no such file or directory"
		if err == nil || err.Error() != want {
			t.Errorf("got %v, want %s", err, want)
		}
	})
	t.Run("unreadable directory fails the whole source", func(t *testing.T) {
		if os.Getuid() == 0 {
			t.Skip("root can read anything")
		}
		dir := t.TempDir()
		makeTree(t, dir, "example.com/a/b/1.0.0/linux_amd64/", "example.com/locked/")
		must(t, os.Chmod(filepath.Join(dir, "example.com/locked"), 0))
		t.Cleanup(func() { os.Chmod(filepath.Join(dir, "example.com/locked"), 0o755) })
		_, err := SearchLocalDirectory(dir)
		if err == nil || !strings.HasPrefix(err.Error(), "cannot search "+filepath.Join(dir, "example.com/locked")+": ") {
			t.Errorf("got %v", err)
		}
	})
}

func TestFilesystemMirror(t *testing.T) {
	base := t.TempDir()
	makeTree(t, base,
		"registry.opentofu.org/hashicorp/aws/1.0.0/linux_amd64/",
		"registry.opentofu.org/hashicorp/aws/terraform-provider-aws_1.0.0_linux_amd64.zip",
		"registry.opentofu.org/hashicorp/aws/terraform-provider-aws_2.0.0_darwin_arm64.zip",
		"registry.opentofu.org/hashicorp/aws/1.0.0+b/linux_amd64/",
		"registry.opentofu.org/hashicorp/aws/1.0.0+a/linux_amd64/",
		"registry.opentofu.org/hashicorp/zero/0.0.0/linux_amd64/",
		"registry.opentofu.org/hashicorp/zero/1.0.0/linux_amd64/",
	)
	ctx := context.Background()
	aws := addrs.NewDefaultProvider("aws")
	m := NewFilesystemMirror(base)
	linux := addrs.Platform{OS: "linux", Arch: "amd64"}

	t.Run("versions", func(t *testing.T) {
		list, warnings, err := m.AvailableVersions(ctx, aws)
		if err != nil || len(warnings) != 0 {
			t.Fatal(err, warnings)
		}
		var got []string
		for _, v := range list {
			got = append(got, v.String())
		}
		if diff := cmp.Diff([]string{"1.0.0", "1.0.0+a", "1.0.0+b", "2.0.0"}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("unpacked wins over packed", func(t *testing.T) {
		meta, err := m.PackageMeta(ctx, aws, versions.Version{Major: 1}, linux)
		if err != nil {
			t.Fatal(err)
		}
		if want := LocalDir(filepath.Join(base, "registry.opentofu.org/hashicorp/aws/1.0.0/linux_amd64")); meta.Location != want || meta.Authentication != nil {
			t.Errorf("got %#v", meta)
		}
	})
	t.Run("platform not supported", func(t *testing.T) {
		_, err := m.PackageMeta(ctx, aws, versions.Version{Major: 2}, linux)
		want := "provider registry.opentofu.org/hashicorp/aws 2.0.0 is not available for linux_amd64"
		if err == nil || err.Error() != want || !isPlatformUnsupported(err) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("unknown provider has no versions", func(t *testing.T) {
		list, _, err := m.AvailableVersions(ctx, addrs.NewDefaultProvider("nope"))
		if err != nil || len(list) != 0 {
			t.Errorf("got %v %v", list, err)
		}
	})
	t.Run("0.0.0 warning", func(t *testing.T) {
		_, warnings, err := m.AvailableVersions(ctx, addrs.NewDefaultProvider("zero"))
		if err != nil {
			t.Fatal(err)
		}
		want := Warnings{"Provider registry.opentofu.org/hashicorp/zero has an unspecified (0.0.0) version available in the filesystem mirror, source at " + base + ". It will not be used. \n" +
			"If the version 0.0.0 is intended to represent a non-published provider, consider using dev_overrides - https://opentofu.org/docs/cli/config/config-file/#development-overrides-for-provider-developers"}
		if diff := cmp.Diff(want, warnings); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("display name", func(t *testing.T) {
		if got := NewFilesystemMirrorAt("terraform.d/plugins", base).ForDisplay(aws); got != "terraform.d/plugins" {
			t.Errorf("got %q", got)
		}
	})
	t.Run("missing mirror", func(t *testing.T) {
		_, _, err := NewFilesystemMirror(filepath.Join(base, "nope")).AvailableVersions(ctx, aws)
		if err == nil || !strings.HasPrefix(err.Error(), "cannot search ") {
			t.Errorf("got %v", err)
		}
	})
}
