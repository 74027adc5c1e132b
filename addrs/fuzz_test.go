package addrs

import (
	"errors"
	"strings"
	"testing"
)

// hasReservedPrefix reports whether a type is accepted only in a one-part
// source, where OpenTofu skips its prefix checks.
func hasReservedPrefix(typ string) bool {
	return strings.HasPrefix(typ, "terraform-") || strings.HasPrefix(typ, "opentofu-")
}

func FuzzParseProviderSource(f *testing.F) {
	for _, s := range []string{
		"aws", "hashicorp/aws", "example.com:8443/foo/bar", "café.fr/foo/bar",
		"-/aws", "foo/terraform-provider-aws", "xn--caf-dma.fr/a/b", "a/b/c/d", "",
		"\x9c/0/terraform-provider-0", "Xn--.a/0/terraform-provider-0", "xn--a.b/c/terraform-provider-d",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseProviderSource(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Summary == "" || pe.Detail == "" {
				t.Fatalf("error %#v is not a complete *ParseError", err)
			}
			return
		}
		if p.IsZero() || p.Type == "" || p.Namespace == "" || p.Hostname == "" {
			t.Fatalf("ParseProviderSource(%q) = %#v has empty parts", s, p)
		}
		_ = p.ForDisplay()
		if p.IsLegacy() || hasReservedPrefix(p.Type) {
			return
		}
		again, err := ParseProviderSource(p.String())
		if err != nil {
			t.Fatalf("re-parsing %q (from %q): %v", p.String(), s, err)
		}
		if again != p {
			t.Fatalf("round trip of %q: got %#v, want %#v", s, again, p)
		}
	})
}
