package providerinstall

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/versions"
)

var linuxAMD64 = addrs.Platform{OS: "linux", Arch: "amd64"}

func mustProvider(t testing.TB, s string) addrs.Provider {
	t.Helper()
	p, err := addrs.ParseProviderSource(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustVersion(t testing.TB, s string) versions.Version {
	t.Helper()
	v, err := versions.ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestPackagePaths(t *testing.T) {
	tests := []struct {
		name     string
		dir      Dir
		provider string
		version  string
		wantDir  string
		wantLock string
	}{
		{
			name:     "default data dir",
			dir:      ProvidersDir(""),
			provider: "hashicorp/aws",
			version:  "5.31.0",
			wantDir:  ".terraform/providers/registry.opentofu.org/hashicorp/aws/5.31.0/linux_amd64",
			wantLock: ".terraform/providers/registry.opentofu.org/hashicorp/aws/5.31.0/linux_amd64.lock",
		},
		{
			name:     "TF_DATA_DIR, unicode host with port, short version",
			dir:      ProvidersDir("/data/tf"),
			provider: "CAFÉ.example.com:8443/Acme/Foo",
			version:  "1.0",
			wantDir:  "/data/tf/providers/café.example.com:8443/acme/foo/1.0.0/linux_amd64",
			wantLock: "/data/tf/providers/café.example.com:8443/acme/foo/1.0.0/linux_amd64.lock",
		},
		{
			name:     "plugin cache, prerelease with metadata",
			dir:      NewDir("/cache/"),
			provider: "example.com:443/acme/foo",
			version:  "2.0.0-beta.1+local",
			wantDir:  "/cache/example.com/acme/foo/2.0.0-beta.1+local/linux_amd64",
			wantLock: "/cache/example.com/acme/foo/2.0.0-beta.1+local/linux_amd64.lock",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, v := mustProvider(t, tt.provider), mustVersion(t, tt.version)
			got := []string{tt.dir.PackageDir(p, v, linuxAMD64), tt.dir.LockFile(p, v, linuxAMD64)}
			want := []string{filepath.FromSlash(tt.wantDir), filepath.FromSlash(tt.wantLock)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("paths (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPackagesScan(t *testing.T) {
	base := t.TempDir()
	mirror := t.TempDir()
	mustWrite(t, filepath.Join(mirror, "terraform-provider-linked_v1"), "l")
	files := map[string]string{
		"registry.opentofu.org/hashicorp/aws/5.31.0/linux_amd64/terraform-provider-aws_v5.31.0_x5":  "a",
		"registry.opentofu.org/hashicorp/aws/5.31.0/darwin_arm64/terraform-provider-aws_v5.31.0_x5": "a",
		"registry.opentofu.org/hashicorp/aws/5.4/linux_amd64/terraform-provider-aws":                "a",
		"registry.opentofu.org/-/legacy/1.0.0/linux_amd64/terraform-provider-legacy":                "x",
		"example.com/-/legacy/1.0.0/linux_amd64/terraform-provider-legacy":                          "skipped: legacy off the default host",
		"café.fr/Acme/Foo/0.1.0/linux_amd64/terraform-provider-foo":                                 "f",
		"xn--caf-dma.fr/acme/foo/0.2.0/linux_amd64/terraform-provider-foo":                          "skipped: punycode host",
		"example.com/acme/foo/not-a-version/linux_amd64/terraform-provider-foo":                     "skipped",
		"example.com/acme/foo/1.0.0/linux_amd64_extra/terraform-provider-foo":                       "skipped",
		"example.com/acme/foo/1.0.0/.linux-amd64.tfdeps-tmp-42/terraform-provider-foo":              "skipped: staging",
		"example.com/acme/foo/1.0.0/linux_arm64":                                                    "skipped: a file",
		"example.com/acme/foo/1.0.0/linux_amd64.lock":                                               "",
		"example.com/acme/foo/1.0.0/linux_amd64.tfdeps-h1":                                          "{}",
		"example.com/acme/foo/1.0.0/linux_amd64.tfdeps-h1.tmp123":                                   "skipped: memo temp file",
		"example.com/acme/foo/terraform-provider-foo_1.0.0_linux_amd64.zip":                         "skipped: packed",
		"example.com/acme/bad_type!/1.0.0/linux_amd64/x":                                            "skipped",
	}
	for name, content := range files {
		mustWrite(t, filepath.Join(base, filepath.FromSlash(name)), content)
	}
	mustMkdir(t, filepath.Join(base, "example.com/acme/linked/1.0.0"))
	if err := os.Symlink(mirror, filepath.Join(base, "example.com/acme/linked/1.0.0/linux_amd64")); err != nil {
		t.Fatal(err)
	}
	got, err := NewDir(base).Packages()
	if err != nil {
		t.Fatal(err)
	}
	var gotNames []string
	for _, pkg := range got {
		rel, _ := filepath.Rel(base, pkg.PackageDir)
		gotNames = append(gotNames, pkg.Provider.String()+" "+pkg.Version.String()+" "+pkg.Platform.String()+" "+filepath.ToSlash(rel))
	}
	want := []string{
		"example.com/acme/linked 1.0.0 linux_amd64 example.com/acme/linked/1.0.0/linux_amd64",
		"registry.opentofu.org/-/legacy 1.0.0 linux_amd64 registry.opentofu.org/-/legacy/1.0.0/linux_amd64",
		"registry.opentofu.org/hashicorp/aws 5.4.0 linux_amd64 registry.opentofu.org/hashicorp/aws/5.4/linux_amd64",
		"registry.opentofu.org/hashicorp/aws 5.31.0 darwin_arm64 registry.opentofu.org/hashicorp/aws/5.31.0/darwin_arm64",
		"registry.opentofu.org/hashicorp/aws 5.31.0 linux_amd64 registry.opentofu.org/hashicorp/aws/5.31.0/linux_amd64",
		// Sorted by the host's comparison form, xn--caf-dma.fr.
		"café.fr/acme/foo 0.1.0 linux_amd64 café.fr/Acme/Foo/0.1.0/linux_amd64",
	}
	if diff := cmp.Diff(want, gotNames); diff != "" {
		t.Errorf("packages (-want +got):\n%s", diff)
	}
}

func TestPackagesMissingBase(t *testing.T) {
	got, err := NewDir(filepath.Join(t.TempDir(), "absent")).Packages()
	if err != nil || len(got) != 0 {
		t.Errorf("Packages() = %v, %v; want none, nil", got, err)
	}
}

func TestLookupAndLazyHash(t *testing.T) {
	d := NewDir(t.TempDir())
	p, v := mustProvider(t, "hashicorp/foo"), mustVersion(t, "1.0.0")
	if _, ok := d.Lookup(p, v, linuxAMD64); ok {
		t.Fatal("Lookup found a package in an empty directory")
	}
	dir := d.PackageDir(p, v, linuxAMD64)
	mustWrite(t, filepath.Join(dir, "terraform-provider-foo_v1.0.0"), "hello\n")
	mustWrite(t, filepath.Join(dir, "sub", "README.md"), "doc\n")
	pkg, ok := d.Lookup(p, v, linuxAMD64)
	if !ok {
		t.Fatal("Lookup did not find the package")
	}
	const want = hashes.Hash("h1:M3DR13qgXTa/ivVFH2A1n2e2smmuZ87MJJhJKV3bVxY=")
	if got, err := pkg.H1(); err != nil || got != want {
		t.Fatalf("H1() = %s, %v; want %s", got, err, want)
	}
	// The hash is remembered: changing the files does not change it.
	mustWrite(t, filepath.Join(dir, "extra"), "x")
	if got, _ := pkg.H1(); got != want {
		t.Errorf("second H1() = %s, want the remembered %s", got, want)
	}
	for _, tt := range []struct {
		allowed []hashes.Hash
		want    bool
	}{
		{[]hashes.Hash{"zh:abc", want}, true},
		{[]hashes.Hash{"zh:abc", "h1:other"}, false},
		{nil, false},
	} {
		if got, err := pkg.MatchesAny(tt.allowed); err != nil || got != tt.want {
			t.Errorf("MatchesAny(%v) = %v, %v; want %v", tt.allowed, got, err, tt.want)
		}
	}
}

func TestFindExecutable(t *testing.T) {
	tests := []struct {
		name    string
		files   []string
		want    string
		wantErr string
	}{
		{name: "exact", files: []string{"LICENSE", "terraform-provider-aws"}, want: "terraform-provider-aws"},
		{name: "versioned", files: []string{"terraform-provider-aws_v5.31.0_x5"}, want: "terraform-provider-aws_v5.31.0_x5"},
		{name: "exe", files: []string{"terraform-provider-aws.exe"}, want: "terraform-provider-aws.exe"},
		{name: "first in name order", files: []string{"terraform-provider-aws_b", "terraform-provider-aws.a"}, want: "terraform-provider-aws.a"},
		{name: "other type prefix", files: []string{"terraform-provider-awscc"}, wantErr: "could not find executable file starting with terraform-provider-aws"},
		{name: "directory skipped", files: []string{"terraform-provider-aws/x"}, wantErr: "could not find executable file starting with terraform-provider-aws"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tt.files {
				mustWrite(t, filepath.Join(dir, filepath.FromSlash(f)), "")
			}
			got, err := FindExecutable(dir, "aws")
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != filepath.Join(dir, tt.want) {
				t.Errorf("FindExecutable = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	_, err := FindExecutable(filepath.Join(t.TempDir(), "absent"), "aws")
	if err == nil || err.Error()[:len("could not read package directory: ")] != "could not read package directory: " {
		t.Errorf("missing directory: error = %v", err)
	}
}
