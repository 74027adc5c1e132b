package lockfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/versions"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".terraform.lock.hcl")
	if err := os.WriteFile(path, []byte("old content"), 0o600); err != nil {
		t.Fatal(err)
	}
	l := New()
	l.SetProvider(addrs.NewDefaultProvider("null"), mustVersion(t, "3.2.2"), nil, nil)
	if diags := WriteFile(path, l, OpenTofu); len(diags) != 0 {
		t.Fatalf("WriteFile: %v", diags)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(l.Bytes(OpenTofu)), string(got)); diff != "" {
		t.Errorf("content mismatch (-want +got):\n%s", diff)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v, want 0644", info.Mode().Perm())
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the lock file", len(entries))
	}
}

func TestWriteFileFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", ".terraform.lock.hcl")
	diags := WriteFile(path, New(), OpenTofu)
	if len(diags) != 1 {
		t.Fatalf("got %v, want one diagnostic", diags)
	}
	d := diags[0]
	prefix := "Error while writing new dependency lock information to " + path + ": "
	if d.Summary != "Failed to update dependency lock file" || !strings.HasPrefix(d.Detail, prefix) || !strings.HasSuffix(d.Detail, ".") || d.Subject != nil {
		t.Errorf("diagnostic = %q / %q", d.Summary, d.Detail)
	}
}

func TestTerraformFlavour(t *testing.T) {
	l := New()
	addr, err := ParseProvider(Terraform, "hashicorp/aws")
	if err != nil {
		t.Fatal(err)
	}
	if addr.String() != "registry.terraform.io/hashicorp/aws" {
		t.Fatalf("Terraform.ParseProvider = %s", addr)
	}
	l.SetProvider(addr, mustVersion(t, "5.0.0"), nil, nil)
	want := `# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/aws" {
  version = "5.0.0"
}
`
	if diff := cmp.Diff(want, string(l.Bytes(Terraform))); diff != "" {
		t.Errorf("Terraform file mismatch (-want +got):\n%s", diff)
	}
	_, _, diags := Read([]byte(`provider "aws" { version = "1.0.0" }`), "t.hcl", ReadOptions{Flavour: Terraform})
	wantDetail := `The provider source address for this provider lock must be written as "registry.terraform.io/hashicorp/aws", the fully-qualified and normalized form.`
	if len(diags) != 1 || diags[0].Detail != wantDetail {
		t.Errorf("Terraform read diagnostics = %v, want detail %q", diags, wantDetail)
	}
	for _, s := range []string{"example.com/a/b", "registry.opentofu.org/hashicorp/aws"} {
		p, err := ParseProvider(Terraform, s)
		if err != nil || p.String() != s {
			t.Errorf("ParseProvider(Terraform, %q) = %s, %v", s, p, err)
		}
	}
	if h := Terraform.DefaultHost(); h != "registry.terraform.io" {
		t.Errorf("Terraform.DefaultHost = %s", h)
	}
	if h := OpenTofu.DefaultHost(); h != "registry.opentofu.org" {
		t.Errorf("OpenTofu.DefaultHost = %s", h)
	}
}

func TestWriteEscaping(t *testing.T) {
	l := New()
	odd := hashes.Hash("test:a\"b\\c\nd\te${x}%{y}é\x01\U0001F600$x%y")
	addr := addrs.NewDefaultProvider("odd")
	l.SetProvider(addr, mustVersion(t, "1.0.0"), versions.MustParseConstraints(">= 1.0"), []hashes.Hash{odd})
	out := l.Bytes(OpenTofu)
	wantLine := `    "test:a\"b\\c\nd\te$${x}%%{y}é\u0001` + "\U0001F600" + `$x%y",` + "\n"
	if !strings.Contains(string(out), wantLine) {
		t.Errorf("written file does not contain %q:\n%s", wantLine, out)
	}
	back, _, diags := Read(out, "x.hcl", ReadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if !back.Equal(l) || back.Provider(addr).Hashes()[0] != odd {
		t.Errorf("re-read locks differ: %v", back.Provider(addr).Hashes())
	}
}

// specExample is the worked example of lockfile.md §2, byte for byte.
const specExample = `# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "example.com:8443/acme/foo" {
  version = "1.1.0"
  hashes = [
    "h1:M3DR13qgXTa/ivVFH2A1n2e2smmuZ87MJJhJKV3bVxY=",
  ]
}

provider "registry.opentofu.org/hashicorp/aws" {
  version     = "5.31.0"
  constraints = ">= 5.0.0, ~> 5.0"
  hashes = [
    "h1:I12X7hOKs/g4HD+XXPT3ZQrqIQKDeGAMMIrQWrjrdUI=",
    "h1:M3DR13qgXTa/ivVFH2A1n2e2smmuZ87MJJhJKV3bVxY=",
    "zh:1577769483a061490bb4564b535602f3fbe8dda528db4de0745673750899666f",
    "zh:5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03",
  ]
}

provider "registry.opentofu.org/hashicorp/null" {
  version = "3.2.1"
}

provider "café.fr/acme/bar" {
  version     = "2.0.0-beta1+meta"
  constraints = "2.0.0-beta1"
  hashes = [
    "h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
  ]
}
`

// TestWriteSpecExample builds the locks of lockfile.md §2 the way the
// installer does (entries added out of order, hashes unsorted and
// duplicated) and checks the written bytes against the spec's text.
func TestWriteSpecExample(t *testing.T) {
	mustAddr := func(s string) addrs.Provider {
		t.Helper()
		p, err := addrs.ParseProviderSource(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	mustHashes := func(ss ...string) []hashes.Hash {
		t.Helper()
		var out []hashes.Hash
		for _, s := range ss {
			h, err := hashes.Parse(s)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, h)
		}
		return out
	}
	l := New()
	l.SetProvider(mustAddr("café.fr/acme/bar"), mustVersion(t, "2.0.0-beta1+meta"),
		versions.MustParseConstraints("2.0.0-beta1"),
		mustHashes("h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="))
	l.SetProvider(mustAddr("hashicorp/null"), mustVersion(t, "3.2.1"), nil, nil)
	l.SetProvider(mustAddr("hashicorp/aws"), mustVersion(t, "5.31.0"),
		versions.MustParseConstraints(">= 5.0.0, ~> 5.0"),
		mustHashes(
			"zh:5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03",
			"h1:M3DR13qgXTa/ivVFH2A1n2e2smmuZ87MJJhJKV3bVxY=",
			"zh:1577769483a061490bb4564b535602f3fbe8dda528db4de0745673750899666f",
			"h1:I12X7hOKs/g4HD+XXPT3ZQrqIQKDeGAMMIrQWrjrdUI=",
			"h1:M3DR13qgXTa/ivVFH2A1n2e2smmuZ87MJJhJKV3bVxY=",
		))
	l.SetProvider(mustAddr("example.com:8443/acme/foo"), mustVersion(t, "1.1.0"), nil,
		mustHashes("h1:M3DR13qgXTa/ivVFH2A1n2e2smmuZ87MJJhJKV3bVxY="))
	if diff := cmp.Diff(specExample, string(l.Bytes(OpenTofu))); diff != "" {
		t.Errorf("written file differs from lockfile.md §2 (-want +got):\n%s", diff)
	}

	// Reading the example and writing it again gives the same bytes.
	back, _, diags := Read([]byte(specExample), ".terraform.lock.hcl", ReadOptions{})
	if len(diags) != 0 {
		t.Fatalf("reading the spec example: %v", diags)
	}
	if diff := cmp.Diff(specExample, string(back.Bytes(OpenTofu))); diff != "" {
		t.Errorf("rewritten example differs (-want +got):\n%s", diff)
	}
	if !back.Equal(l) {
		t.Errorf("read example is not Equal to the built locks")
	}
}

// TestWriteNoProviders: a file without providers is the two header lines.
func TestWriteNoProviders(t *testing.T) {
	want := "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n"
	if got := string(New().Bytes(OpenTofu)); got != want {
		t.Errorf("empty locks written as %q, want %q", got, want)
	}
}
