package addrs

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestImpliedProviderForUnqualifiedType(t *testing.T) {
	tests := []struct{ in, want string }{
		{"aws", "registry.opentofu.org/hashicorp/aws"},
		{"terraform", "terraform.io/builtin/terraform"},
		{"nonexistingprov", "registry.opentofu.org/hashicorp/nonexistingprov"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := ImpliedProviderForUnqualifiedType(tt.in).String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	if !ImpliedProviderForUnqualifiedType("terraform").IsBuiltIn() {
		t.Error("terraform is not built in")
	}
	if !NewDefaultProvider("aws").IsDefault() || NewBuiltInProvider("terraform").IsDefault() {
		t.Error("IsDefault wrong")
	}
}

func TestProviderZero(t *testing.T) {
	var p Provider
	if !p.IsZero() || p.String() != "" || p.ForDisplay() != "" || p.IsBuiltIn() || p.IsLegacy() {
		t.Errorf("zero provider misbehaves: %#v", p)
	}
}

func TestProviderOrder(t *testing.T) {
	in := []string{
		"café.example.com/a/b",
		"registry.opentofu.org/hashicorp/aws",
		"example.com:8443/z/z",
		"registry.opentofu.org/acme/zz",
		"registry.opentofu.org/hashicorp/archive",
		"terraform.io/builtin/terraform",
	}
	var ps []Provider
	for _, s := range in {
		p, err := ParseProviderSource(s)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	slices.SortFunc(ps, Provider.Compare)
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	want := []string{
		"example.com:8443/z/z",
		"registry.opentofu.org/acme/zz",
		"registry.opentofu.org/hashicorp/archive",
		"registry.opentofu.org/hashicorp/aws",
		"terraform.io/builtin/terraform",
		"café.example.com/a/b", // compared as xn--caf-dma.example.com
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order mismatch (-want +got):\n%s", diff)
	}
	for i := 1; i < len(ps); i++ {
		if !ps[i-1].LessThan(ps[i]) || ps[i].LessThan(ps[i-1]) {
			t.Errorf("LessThan inconsistent at %d", i)
		}
	}
}

func TestParsePlatform(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{in: "linux_amd64", want: "linux_amd64"},
		{in: "darwin_arm64", want: "darwin_arm64"},
		{in: "Linux_AMD64", want: "Linux_AMD64"},
		{in: "_amd64", want: "_amd64"},
		{in: "linux", err: "must be two words separated by an underscore"},
		{in: "linux_amd64_v2", err: "must be two words separated by an underscore"},
		{in: "", err: "must be two words separated by an underscore"},
		{in: "li nux_amd64", err: "OS portion must not contain whitespace"},
		{in: "linux_amd\t64", err: "architecture portion must not contain whitespace"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParsePlatform(tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("ParsePlatform(%q) error = %v, want %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil || got.String() != tt.want {
				t.Fatalf("ParsePlatform(%q) = %v, %v", tt.in, got, err)
			}
		})
	}
	if cur := CurrentPlatform(); cur.OS == "" || cur.Arch == "" {
		t.Errorf("CurrentPlatform() = %v", cur)
	}
	if !(Platform{"darwin", "arm64"}).LessThan(Platform{"linux", "amd64"}) {
		t.Error("Platform.LessThan wrong")
	}
}

func BenchmarkParseProviderSource(b *testing.B) {
	for b.Loop() {
		if _, err := ParseProviderSource("registry.example.com:8443/acme/widget"); err != nil {
			b.Fatal(err)
		}
	}
}
