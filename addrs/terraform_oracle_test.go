package addrs

import (
	"errors"
	"fmt"
	"testing"
	"unicode/utf8"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/tfdeps/tfdeps/flavour"
)

// The Terraform flavour's source parser is compared with the library
// Terraform v1.15.9 parses provider sources with (terraform-registry-address
// v0.4.0 over terraform-svchost v0.2.1, the versions of its go.mod), used
// here as the oracle only.

// terraformOracle returns what Terraform makes of a required_providers
// source: the address as a string (a one-part source gets the "hashicorp"
// namespace, as Terraform's configuration loader gives it), or the error's
// summary and detail.
// Where the library panics (displaying a hostname whose punycode form it
// cannot decode again), summary is "panic".
func terraformOracle(s string) (addr, summary, detail string) {
	defer func() {
		if r := recover(); r != nil {
			addr, summary, detail = "", "panic", fmt.Sprint(r)
		}
	}()
	p, err := tfaddr.ParseProviderSource(s)
	if err != nil {
		var pe *tfaddr.ParserError
		if errors.As(err, &pe) {
			return "", pe.Summary, pe.Detail
		}
		return "", "error", err.Error()
	}
	if p.Namespace == tfaddr.UnknownProviderNamespace {
		p.Namespace = DefaultProviderNamespace
	}
	return p.String(), "", ""
}

func ours(s string) (addr, summary, detail string) {
	p, err := ParseProviderSourceIn(flavour.Terraform, s)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			return "", pe.Summary, pe.Detail
		}
		return "", "error", err.Error()
	}
	return p.String(), "", ""
}

var terraformSourceCases = []string{
	"aws", "hashicorp/aws", "registry.terraform.io/hashicorp/aws", "registry.opentofu.org/hashicorp/aws",
	"-/aws", "registry.terraform.io/-/aws", "registry.opentofu.org/-/aws", "example.com/-/aws", "-/-", "-/", "/-/x", "x/-/",
	"opentofu-foo", "hashicorp/opentofu-foo", "example.com/acme/opentofu-foo", "-/opentofu-x", "opentofu--x",
	"terraform-foo", "hashicorp/terraform-foo", "-/terraform-x", "hashicorp/terraform-provider-aws", "terraform-provider-aws",
	"example.com/acme/terraform-provider-foo", "example.com/acme/terraform-provider-", "hashicorp/terraform-provider-a--b",
	"terraform.io/builtin/terraform", "builtin/terraform", "hashicorp/terraform", "opentofu/terraform",
	"bad host!/-/aws", "bad host!/-/opentofu-x", "a/b/c/d", "", "/", "a//b", "Hashicorp/AWS", "café.fr/Acme/Thing",
	"example.com:8443/acme/thing", "xn--caf-dma.fr/a/b", "a.b/c_d/e", "acme/th.ing", "acme/-thing", "ac--me/thing",
}

func TestParseProviderSourceTerraformOracle(t *testing.T) {
	for _, s := range terraformSourceCases {
		wantAddr, wantSum, wantDetail := terraformOracle(s)
		gotAddr, gotSum, gotDetail := ours(s)
		if gotAddr != wantAddr || gotSum != wantSum || gotDetail != wantDetail {
			t.Errorf("%q:\n got  %q %q %q\n want %q %q %q", s, gotAddr, gotSum, gotDetail, wantAddr, wantSum, wantDetail)
		}
	}
}

// FuzzParseProviderSourceTerraform compares the two parsers on any source.
// Where tfdeps refuses what OpenTofu's parser accepts (parts that normalise
// to nothing, hostnames whose comparison form does not parse again: see
// ParseProviderPart and checkHostnameDisplayable), Terraform's accepts it
// too (and may refuse it later for another part), and only a refusal by
// tfdeps is checked.
func FuzzParseProviderSourceTerraform(f *testing.F) {
	for _, s := range terraformSourceCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			// Not a configuration's string (HCL refuses the file), and the
			// oracle panics on some such hostnames.
			ours(s)
			return
		}
		wantAddr, wantSum, wantDetail := terraformOracle(s)
		gotAddr, gotSum, gotDetail := ours(s)
		if gotAddr == wantAddr && gotSum == wantSum && gotDetail == wantDetail {
			return
		}
		if wantSum == "panic" && gotSum != "" {
			return // terraform would crash; tfdeps refuses the source
		}
		if gotAddr == "" && (checkPartsNotEmpty(s) != nil && wantAddr != "" ||
			gotSum == "Invalid provider source hostname" && wantSum != gotSum) {
			return // tfdeps' own refusal, in both flavours
		}
		t.Fatalf("%q:\n got  %q %q %q\n want %q %q %q", s, gotAddr, gotSum, gotDetail, wantAddr, wantSum, wantDetail)
	})
}
