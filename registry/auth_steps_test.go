package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
)

// stepMeta returns metadata for a 10-byte archive "0123456789" whose
// packages map and SHA256SUMS agree, and that archive.
func stepMeta() (*PackageMeta, *Archive) {
	sum := sha256.Sum256([]byte("0123456789"))
	zh := hashes.Hash("zh:" + hexOf(sum))
	meta := &PackageMeta{
		Provider:   addrs.NewDefaultProvider("widget"),
		Platform:   linuxAMD64,
		Filename:   "p_linux_amd64.zip",
		SHA256:     sum,
		SHA256SUMS: []byte(hexOf(sum) + "  p_linux_amd64.zip\n"),
		Packages: map[addrs.Platform]PackageEntry{
			linuxAMD64: {Hashes: []hashes.Hash{zh, "h1:abc", "x1:other"}, Size: 10},
		},
	}
	return meta, &Archive{Size: 10, SHA256: sum}
}

func hexOf(b [32]byte) string { return hex.EncodeToString(b[:]) }

func TestAuthenticationSteps(t *testing.T) {
	tests := []struct {
		name string
		edit func(m *PackageMeta, a *Archive)
		want string
	}{
		{name: "ok", edit: func(*PackageMeta, *Archive) {}, want: "<nil>"},
		{name: "missing platform", edit: func(m *PackageMeta, _ *Archive) {
			m.Packages = map[addrs.Platform]PackageEntry{{OS: "darwin", Arch: "arm64"}: {Size: 1}}
		}, want: `registry response missing package with platform "linux_amd64"`},
		{name: "zero size", edit: func(m *PackageMeta, _ *Archive) { m.Packages[linuxAMD64] = PackageEntry{Size: 0} },
			want: "registry response has invalid package size 0"},
		{name: "size mismatch", edit: func(_ *PackageMeta, a *Archive) { a.Size = 11 },
			want: "registry response indicates a package of size 10, but received a package of size 11"},
		{name: "zh mismatch", edit: func(m *PackageMeta, _ *Archive) {
			m.Packages[linuxAMD64] = PackageEntry{Size: 10, Hashes: []hashes.Hash{"zh:beef"}}
		}, want: `registry response expected sha256sum is "84d89877f0d4041efb6bf91a16f0248f2fd573e6af05c19f96bedb9f882f7882", which does not match the platform's value of "beef"`},
		{name: "no zh", edit: func(m *PackageMeta, _ *Archive) {
			m.Packages[linuxAMD64] = PackageEntry{Size: 10, Hashes: []hashes.Hash{"h1:x"}}
		}, want: "registry response does not contain matching sha256sum package entry and is invalid"},
		{name: "no line for file", edit: func(m *PackageMeta, _ *Archive) { m.SHA256SUMS = []byte("abcd  other.zip\nlonely\n") },
			want: `checksum list has no SHA-256 hash for "p_linux_amd64.zip"`},
		{name: "line not hex", edit: func(m *PackageMeta, _ *Archive) { m.SHA256SUMS = []byte("xyz  p_linux_amd64.zip\n") },
			want: `checksum list has invalid SHA256 hash "xyz": encoding/hex: invalid byte: U+0078 'x'`},
		{name: "first matching line wins", edit: func(m *PackageMeta, _ *Archive) {
			m.SHA256SUMS = append([]byte("abcd p_linux_amd64.zip\n"), m.SHA256SUMS...)
		}, want: "checksum list has unexpected SHA-256 hash abcd (expected 84d89877f0d4041efb6bf91a16f0248f2fd573e6af05c19f96bedb9f882f7882)"},
		{name: "archive checksum", edit: func(_ *PackageMeta, a *Archive) { a.SHA256[0] ^= 1 },
			want: "archive has incorrect checksum zh:85d89877f0d4041efb6bf91a16f0248f2fd573e6af05c19f96bedb9f882f7882 (expected zh:84d89877f0d4041efb6bf91a16f0248f2fd573e6af05c19f96bedb9f882f7882)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			meta, a := stepMeta()
			tt.edit(meta, a)
			res, err := Authenticate(meta, a, testEnv{}.get)
			if diff := cmp.Diff(tt.want, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if err != nil && res != nil {
				t.Error("result returned with an error")
			}
		})
	}
}

func TestAuthenticationDispositionsUnsigned(t *testing.T) {
	meta, a := stepMeta()
	res, err := Authenticate(meta, a, testEnv{}.get)
	if err != nil {
		t.Fatal(err)
	}
	zh := a.ZH()
	want := map[hashes.Hash]Disposition{
		zh:       {VerifiedLocally: true, ReportedByRegistry: true, Platform: linuxAMD64},
		"h1:abc": {ReportedByRegistry: true, Platform: linuxAMD64},
	}
	if diff := cmp.Diff(want, res.Hashes); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSumsHashes(t *testing.T) {
	h64 := "84d89877f0d4041efb6bf91a16f0248f2fd573e6af05c19f96bedb9f882f7882"
	tests := []struct {
		name string
		doc  string
		want []hashes.Hash
	}{
		{"two lines", h64 + "  a.zip\n" + h64 + "  b.zip\n", []hashes.Hash{"zh:" + hashes.Hash(h64), "zh:" + hashes.Hash(h64)}},
		{"upper case normalised", "84D89877F0D4041EFB6BF91A16F0248F2FD573E6AF05C19F96BEDB9F882F7882  a.zip", []hashes.Hash{"zh:" + hashes.Hash(h64)}},
		{"blank lines skipped", "\n" + h64 + "  a.zip\n\n", []hashes.Hash{"zh:" + hashes.Hash(h64)}},
		{"one field poisons all", h64 + "  a.zip\n" + h64 + "\n", nil},
		{"short hash poisons all", h64 + "  a.zip\nabcd  b.zip\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, sumsHashes([]byte(tt.doc))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	p := linuxAMD64
	tests := []struct {
		name        string
		disps       []Disposition
		want        string
		wantSkipped bool
	}{
		{"nothing", nil, "unauthenticated", false},
		{"signed", []Disposition{{SignedByKeyIDs: []string{"K"}}, {VerifiedLocally: true}}, "signed", false},
		{"registry only", []Disposition{{ReportedByRegistry: true}, {VerifiedLocally: true}}, "signing skipped", true},
		{"verified", []Disposition{{VerifiedLocally: true, Platform: p}}, "verified checksum", false},
		{"trusted mirror", []Disposition{{VerifiedLocally: true}, {ReportedByTrustedMirror: true}}, "verified checksum", true},
		{"trusted mirror only", []Disposition{{ReportedByTrustedMirror: true}}, "signing skipped", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var res *AuthResult
			if tt.disps != nil {
				res = &AuthResult{}
				for i, d := range tt.disps {
					res.Add(hashes.Hash("zh:"+string(rune('a'+i))), d)
				}
			}
			if got := res.Summary(); got != tt.want {
				t.Errorf("Summary = %q, want %q", got, tt.want)
			}
			if got := res.SigningSkipped(); got != tt.wantSkipped {
				t.Errorf("SigningSkipped = %v, want %v", got, tt.wantSkipped)
			}
		})
	}
}

func TestAddMerges(t *testing.T) {
	res := &AuthResult{}
	res.Add("zh:a", Disposition{VerifiedLocally: true, Platform: linuxAMD64})
	res.Add("zh:a", Disposition{ReportedByRegistry: true, SignedByKeyIDs: []string{"B", "A"}})
	res.Add("zh:a", Disposition{SignedByKeyIDs: []string{"A", "C"}, Platform: addrs.Platform{OS: "x", Arch: "y"}})
	want := Disposition{VerifiedLocally: true, ReportedByRegistry: true, SignedByKeyIDs: []string{"A", "B", "C"}, Platform: linuxAMD64}
	if diff := cmp.Diff(want, res.Hashes["zh:a"]); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
