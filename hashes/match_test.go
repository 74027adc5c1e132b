package hashes

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	exampleH1    Hash = "h1:M3DR13qgXTa/ivVFH2A1n2e2smmuZ87MJJhJKV3bVxY="
	exampleDirH1 Hash = "h1:I12X7hOKs/g4HD+XXPT3ZQrqIQKDeGAMMIrQWrjrdUI="
	otherH1      Hash = "h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
	otherZH      Hash = "zh:0000000000000000000000000000000000000000000000000000000000000000"
)

// examplePackages returns the worked example (with a "sub/" entry in the
// zip) as a Dir, a ZipFile and a Zip, and the zip's zh hash.
func examplePackages(t *testing.T) (map[string]Package, Hash) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "dir")
	mustWrite(t, filepath.Join(dir, "terraform-provider-foo_v1.0.0"), "hello\n")
	mustWrite(t, filepath.Join(dir, "sub", "README.md"), "doc\n")
	data := buildZip(t, append([]zipEntry{{name: "sub/"}}, workedExample...))
	zipPath := filepath.Join(root, "p.zip")
	if err := os.WriteFile(zipPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	zh, err := ZipHash(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]Package{
		"dir":     Dir(dir),
		"zipfile": ZipFile(zipPath),
		"zip":     Zip{R: bytes.NewReader(data), Size: int64(len(data))},
	}, zh
}

func TestMatches(t *testing.T) {
	pkgs, zh := examplePackages(t)
	tests := []struct {
		pkg     string
		hash    Hash
		want    bool
		wantErr error
	}{
		{pkg: "dir", hash: exampleH1, want: true},
		{pkg: "dir", hash: exampleDirH1, want: false},
		{pkg: "dir", hash: zh, wantErr: ErrZipHashOfDir},
		{pkg: "dir", hash: "test:x", wantErr: ErrUnsupportedScheme},
		{pkg: "zipfile", hash: exampleDirH1, want: true},
		{pkg: "zipfile", hash: exampleH1, want: false},
		{pkg: "zipfile", hash: zh, want: true},
		{pkg: "zipfile", hash: otherZH, want: false},
		{pkg: "zipfile", hash: "test:x", wantErr: ErrUnsupportedScheme},
		{pkg: "zip", hash: exampleDirH1, want: true},
		{pkg: "zip", hash: zh, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.pkg+"/"+string(tt.hash), func(t *testing.T) {
			got, err := Matches(pkgs[tt.pkg], tt.hash)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Errorf("Matches = %v, %v; want %v, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestMatchingRules(t *testing.T) {
	pkgs, zh := examplePackages(t)
	tests := []struct {
		name    string
		pkg     string
		allowed []Hash
		want    []Hash
	}{
		{name: "dir h1", pkg: "dir", allowed: []Hash{otherH1, exampleH1}, want: []Hash{exampleH1}},
		{name: "dir skips zh and unknown", pkg: "dir", allowed: []Hash{zh, "test:x", exampleH1}, want: []Hash{exampleH1}},
		{name: "dir only zh", pkg: "dir", allowed: []Hash{zh}, want: nil},
		{name: "zip zh", pkg: "zipfile", allowed: []Hash{otherZH, zh}, want: []Hash{zh}},
		{name: "zip both", pkg: "zip", allowed: []Hash{exampleDirH1, "x:y", zh, zh}, want: []Hash{exampleDirH1, zh, zh}},
		{name: "zip dir form does not match", pkg: "zip", allowed: []Hash{exampleH1}, want: nil},
		{name: "empty list", pkg: "zip", allowed: nil, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Matching(pkgs[tt.pkg], tt.allowed)
			if err != nil {
				t.Fatalf("Matching: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Matching mismatch (-want +got):\n%s", diff)
			}
			any, err := MatchesAny(pkgs[tt.pkg], tt.allowed)
			if err != nil || any != (len(tt.want) > 0) {
				t.Errorf("MatchesAny = %v, %v; want %v", any, err, len(tt.want) > 0)
			}
		})
	}
}

// countingPackage counts hash computations.
type countingPackage struct {
	Package
	h1, zh int
}

func (c *countingPackage) H1() (Hash, error) { c.h1++; return c.Package.H1() }
func (c *countingPackage) ZH() (Hash, error) { c.zh++; return c.Package.ZH() }

func TestMatchesAnyComputesLazilyOnce(t *testing.T) {
	pkgs, zh := examplePackages(t)
	p := &countingPackage{Package: pkgs["zip"]}
	if _, err := Matching(p, []Hash{otherH1, otherZH, otherH1, otherZH, exampleDirH1}); err != nil {
		t.Fatal(err)
	}
	if p.h1 != 1 || p.zh != 1 {
		t.Errorf("computed h1 %d times and zh %d times, want once each", p.h1, p.zh)
	}
	p = &countingPackage{Package: pkgs["zip"]}
	if ok, _ := MatchesAny(p, []Hash{zh, exampleDirH1}); !ok || p.h1 != 0 {
		t.Errorf("MatchesAny = %v after %d h1 computations; want a match without computing h1", ok, p.h1)
	}
}

func TestMatchesAnyError(t *testing.T) {
	missing := ZipFile(filepath.Join(t.TempDir(), "missing.zip"))
	if _, err := MatchesAny(missing, []Hash{"test:x", exampleH1}); err == nil {
		t.Error("MatchesAny on a missing zip succeeded")
	}
	if ok, err := MatchesAny(missing, []Hash{"test:x"}); ok || err != nil {
		t.Errorf("MatchesAny with only unknown schemes = %v, %v; want false, nil", ok, err)
	}
}

func TestErrorTexts(t *testing.T) {
	tests := map[string]struct {
		err  error
		want string
	}{
		"zh of dir":   {ErrZipHashOfDir, `ziphash scheme ("zh:" prefix) is not supported for unpacked provider packages`},
		"unsupported": {ErrUnsupportedScheme, "unsupported hash format (this may require a newer version of OpenTofu)"},
		"newline":     {ErrNewlineName, "dirhash: filenames with newlines are not supported"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
