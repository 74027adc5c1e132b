package lockfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/internal/conformance"
)

// samePlainAndParsed fails t unless reading src in the plain syntax gives
// the selections (constraints included) and diagnostics (ranges included)
// of the HCL parser, in both flavours. It reports whether src is plain.
func samePlainAndParsed(t *testing.T, src []byte) bool {
	t.Helper()
	n, _, plain := scanPlain(string(src))
	if !plain {
		return false
	}
	for _, f := range []Flavour{OpenTofu, Terraform} {
		got, gotDiags := readPlain(string(src), "x.hcl", n, f)
		want, _, wantDiags := readParsed(src, "x.hcl", ReadOptions{Flavour: f})
		if diff := cmp.Diff(diagnosticStrings(wantDiags), diagnosticStrings(gotDiags)); diff != "" {
			t.Errorf("%s: diagnostics differ (-parser +plain):\n%s\ninput:\n%s", f, diff, src)
		}
		if diff := cmp.Diff(providersForCompare(want), providersForCompare(got)); diff != "" {
			t.Errorf("%s: selections differ (-parser +plain):\n%s\ninput:\n%s", f, diff, src)
		}
		for _, p := range want.Providers() {
			if g := got.Provider(p.addr); g != nil && g.constraints.String() != p.constraints.String() {
				t.Errorf("%s: constraints of %s: plain %q, parser %q", f, p.addr, g.constraints, p.constraints)
			}
		}
	}
	return true
}

func diagnosticStrings(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		s := d.Summary + "; " + d.Detail
		if d.Subject != nil {
			s = d.Subject.String() + ": " + s
		}
		out = append(out, s)
	}
	return out
}

// TestPlainMatchesParser: every plain file reads the same with and without
// the HCL parser, errors included; files outside the plain syntax are
// recognised as such.
func TestPlainMatchesParser(t *testing.T) {
	const p = "provider \"registry.opentofu.org/hashicorp/null\" {\n"
	tests := []struct {
		name  string
		src   string
		plain bool
	}{
		{"empty", "", true},
		{"comments only", "# a\n// b\n\n", true},
		{"tofu's layout", "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n\n" +
			p + "  version     = \"3.2.1\"\n  constraints = \">= 3.0.0\"\n  hashes = [\n    \"h1:abc=\",\n    \"zh:0123\",\n  ]\n}\n", true},
		{"one-line list without trailing comma", p + "version = \"3.2.1\"\nhashes = [\"h1:a\", \"zh:b\"]\n}", true},
		{"comments everywhere", p + "  version = \"3.2.1\" # v\n  hashes = [ # list\n    \"h1:a\", // one\n    # between\n    \"h1:b\"\n  ] // end\n} # block\n", true},
		{"CRLF", strings.ReplaceAll(p+"  version = \"3.2.1\"\n  hashes = [\n    \"h1:a\",\n  ]\n}\n", "\n", "\r\n"), true},
		{"tabs and no spaces", "provider\t\"registry.opentofu.org/a/b\"{\n\tversion=\"1.0.0\"\n}\n", true},
		{"dollar and percent without brace", p + "  version = \"3.2.1\"\n  hashes = [\"x:$a%b$\", \"y:%\"]\n}\n", true},
		{"empty hash list", p + "  version = \"3.2.1\"\n  hashes = []\n}\n", true},
		{"invalid hashes", p + "  version = \"3.2.1\"\n  hashes = [\"nocolon\", \":x\", \"\", \"h1:ok\"]\n}\n", true},
		{"invalid version", p + "  version = \"v3.2\"\n}\n", true},
		{"non-normalised version", p + "  version = \"3.2\"\n}\n", true},
		{"invalid constraints", p + "  version = \"3.2.1\"\n  constraints = \"=> 1\"\n}\n", true},
		{"non-normalised constraints", p + "  version = \"3.2.1\"\n  constraints = \">=1.0\"\n}\n", true},
		{"invalid address", "provider \"not an address\" {\n  version = \"1.0.0\"\n}\n", true},
		{"short address", "provider \"hashicorp/null\" {\n  version = \"1.0.0\"\n}\n", true},
		{"built-in provider", "provider \"terraform.io/builtin/terraform\" {\n  version = \"1.0.0\"\n}\n", true},
		{"legacy provider", "provider \"registry.opentofu.org/-/null\" {\n  version = \"1.0.0\"\n}\n", true},
		{"upper-case host", "provider \"Registry.OpenTofu.org/a/b\" {\n  version = \"1.0.0\"\n}\n", true},
		{"duplicate provider", p + "  version = \"3.2.1\"\n}\n\n" + p + "  version = \"3.2.2\"\n}\n", true},
		{"no final newline", p + "  version = \"3.2.1\"\n}", true},
		{"1,200 invalid hashes: stops at 1,000", p + "  version = \"3.2.1\"\n  hashes = [" + strings.Repeat("\"\",", 1200) + "]\n}\n", true},
		{"600 invalid hashes twice", strings.Repeat(p+"  version = \"3.2.1\"\n  hashes = ["+strings.Repeat("\"\",", 600)+"]\n}\n", 2), true},
		{"999 invalid hashes then more errors", p + "  version = \"3\"\n  hashes = [" + strings.Repeat("\"\",", 999) + "]\n}\n" + p + "  version = \"3.2.1\"\n}\n", true},
		{"1,100 invalid blocks", strings.Repeat("provider \"x\" {\n  version = \"1.0.0\"\n}\n", 1100), true},

		{"missing version", p + "  hashes = [\"h1:a\"]\n}\n", false},
		{"version is a number", p + "  version = 1\n}\n", false},
		{"hashes is a string", p + "  version = \"3.2.1\"\n  hashes = \"h1:a\"\n}\n", false},
		{"template", p + "  version = \"${\"3.2.1\"}\"\n}\n", false},
		{"escape", p + "  version = \"3.2.\\u0031\"\n}\n", false},
		{"escaped template", p + "  version = \"3.2.1\"\n  hashes = [\"x:$${a}\"]\n}\n", false},
		{"module block", "module \"m\" {\n}\n", false},
		{"unknown block", "thing \"x\" {\n}\n", false},
		{"unknown argument", p + "  version = \"3.2.1\"\n  other = \"x\"\n}\n", false},
		{"repeated argument", p + "  version = \"3.2.1\"\n  version = \"3.2.1\"\n}\n", false},
		{"one-line block", p[:len(p)-1] + " version = \"3.2.1\" }\n", false},
		{"non-ASCII", p + "  version = \"3.2.1\" # é\n}\n", false},
		{"block comment", "/* c */\n", false},
		{"unterminated block", p + "  version = \"3.2.1\"\n", false},
		{"unterminated string", p + "  version = \"3.2.1\n}\n", false},
		{"list without comma", p + "  version = \"3.2.1\"\n  hashes = [\"h1:a\" \"h1:b\"]\n}\n", false},
		{"lone carriage return", p + "  version = \"3.2.1\"\r}\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := samePlainAndParsed(t, []byte(tt.src)); got != tt.plain {
				t.Errorf("plain = %v, want %v", got, tt.plain)
			}
		})
	}
}

// TestPlainMatchesParserOnCorpus compares both readers on the fuzz corpus
// and, when present, the conformance lock files.
func TestPlainMatchesParserOnCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzRead", "*"))
	plain := 0
	for _, path := range files {
		src := fuzzInput(t, path)
		if src != nil && samePlainAndParsed(t, src) {
			plain++
		}
	}
	if plain == 0 {
		t.Fatal("no plain file in the fuzz corpus")
	}
	t.Run("conformance", func(t *testing.T) {
		more, _ := filepath.Glob(filepath.Join(conformance.Dir(t, "lockfiles", "read"), "*.hcl"))
		for _, path := range more {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			samePlainAndParsed(t, src)
		}
	})
}

// fuzzInput returns the []byte value of a one-value fuzz corpus file, or
// nil when it has another form.
func fuzzInput(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(data), "\n", 3)
	if len(lines) < 2 || !strings.HasPrefix(lines[1], "[]byte(") {
		return nil
	}
	s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
	if err != nil {
		return nil
	}
	return []byte(s)
}

// TestNormalisedProvider: the labels normalisedProvider accepts are those
// ParseProvider parses to an address written the same way, and the
// addresses are equal.
func TestNormalisedProvider(t *testing.T) {
	parts := []string{"a", "aws", "hashicorp", "a-b", "a--b", "-a", "a-", "A", "x1", "1x", "a_b", "a.b", "",
		"terraform-x", "opentofu-x", "terraform", "opentofu", "é", "xn--a", strings.Repeat("a", 63), strings.Repeat("a", 64), "-", "builtin"}
	hosts := []string{"registry.opentofu.org", "registry.terraform.io", "Registry.OpenTofu.org", "terraform.io", "example.com", "registry.opentofu.org:443"}
	for _, host := range hosts {
		for _, ns := range parts {
			for _, typ := range parts {
				raw := host + "/" + ns + "/" + typ
				got, ok := normalisedProvider(raw)
				if !ok {
					continue
				}
				for _, f := range []Flavour{OpenTofu, Terraform} {
					want, err := ParseProvider(f, raw)
					if err != nil || want != got || want.String() != raw || want.IsBuiltIn() || want.IsLegacy() {
						t.Errorf("%q (%v): fast %v, ParseProvider %v %v", raw, f, got, want, err)
					}
				}
			}
		}
	}
	for _, raw := range []string{"registry.opentofu.org/hashicorp/aws", "registry.terraform.io/a-b/c1"} {
		if _, ok := normalisedProvider(raw); !ok {
			t.Errorf("%q not recognised", raw)
		}
	}
}

// TestReadLargeFileOutsidePlainSyntax: past maxGeneralSyntaxSize a file
// must be in the plain syntax; otherwise the error names the first
// position outside it. Up to the limit, the HCL parser reads it.
func TestReadLargeFileOutsidePlainSyntax(t *testing.T) {
	const p = "provider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.2.1\"\n  hashes = [\n"
	odd := "    1,\n"
	pad := func(n int) string { return strings.Repeat("    \"h1:abc=\",\n", n/15+1) }
	big := p + pad(maxGeneralSyntaxSize) + odd + "  ]\n}\n"
	_, _, diags := Read([]byte(big), "x.hcl", ReadOptions{})
	line := strings.Count(p+pad(maxGeneralSyntaxSize), "\n") + 1
	want := []string{fmt.Sprintf("x.hcl:%d,5-6: Unsupported syntax in a large dependency lock file; "+
		"The dependency lock file \"x.hcl\" is larger than 256 KiB and is not written as OpenTofu writes lock files "+
		"(provider blocks holding version and constraints strings and a list of hash strings, one argument a line). "+
		"tfdeps reads other syntax only in smaller lock files.", line)}
	if diff := cmp.Diff(want, diagnosticStrings(diags)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	small := p + "    \"h1:abc=\",\n" + odd + "  ]\n}\n"
	_, _, diags = Read([]byte(small), "x.hcl", ReadOptions{})
	if len(diags) != 1 || diags[0].Summary != "Invalid provider hash string" {
		t.Errorf("small file: %v, want the parser's invalid hash error", diags)
	}
}
