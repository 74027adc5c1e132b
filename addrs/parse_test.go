package addrs

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/opentofu/svchost"
)

func TestParseProviderSource(t *testing.T) {
	tests := []struct {
		in          string
		want        string // String()
		wantDisplay string // ForDisplay()
		wantHost    svchost.Hostname
		builtIn     bool
		legacy      bool
	}{
		{in: "aws", want: "registry.opentofu.org/hashicorp/aws", wantDisplay: "hashicorp/aws", wantHost: "registry.opentofu.org"},
		{in: "HashiCorp/AWS", want: "registry.opentofu.org/hashicorp/aws", wantDisplay: "hashicorp/aws", wantHost: "registry.opentofu.org"},
		{in: "Registry.OpenTofu.org/hashicorp/aws", want: "registry.opentofu.org/hashicorp/aws", wantDisplay: "hashicorp/aws", wantHost: "registry.opentofu.org"},
		{in: "example.com:443/foo/bar", want: "example.com/foo/bar", wantDisplay: "example.com/foo/bar", wantHost: "example.com"},
		{in: "example.com:0443/foo/bar", want: "example.com/foo/bar", wantDisplay: "example.com/foo/bar", wantHost: "example.com"},
		{in: "example.com:8443/foo/bar", want: "example.com:8443/foo/bar", wantDisplay: "example.com:8443/foo/bar", wantHost: "example.com:8443"},
		{in: "example.com:08443/foo/bar", want: "example.com:8443/foo/bar", wantDisplay: "example.com:8443/foo/bar", wantHost: "example.com:8443"},
		{in: "café.fr/foo/bar", want: "café.fr/foo/bar", wantDisplay: "café.fr/foo/bar", wantHost: "xn--caf-dma.fr"},
		{in: "CAFÉ.fr/foo/bar", want: "café.fr/foo/bar", wantDisplay: "café.fr/foo/bar", wantHost: "xn--caf-dma.fr"},
		{in: "example.com./foo/bar", want: "example.com./foo/bar", wantDisplay: "example.com./foo/bar", wantHost: "example.com."},
		{in: "-/aws", want: "registry.opentofu.org/-/aws", wantDisplay: "-/aws", wantHost: "registry.opentofu.org", legacy: true},
		{in: "registry.opentofu.org/-/aws", want: "registry.opentofu.org/-/aws", wantDisplay: "-/aws", wantHost: "registry.opentofu.org", legacy: true},
		{in: "terraform", want: "registry.opentofu.org/hashicorp/terraform", wantDisplay: "hashicorp/terraform", wantHost: "registry.opentofu.org"},
		{in: "hashicorp/terraform", want: "registry.opentofu.org/hashicorp/terraform", wantDisplay: "hashicorp/terraform", wantHost: "registry.opentofu.org"},
		{in: "terraform.io/builtin/terraform", want: "terraform.io/builtin/terraform", wantDisplay: "terraform.io/builtin/terraform", wantHost: "terraform.io", builtIn: true},
		{in: "opentofu.org/builtin/terraform", want: "opentofu.org/builtin/terraform", wantDisplay: "opentofu.org/builtin/terraform", wantHost: "opentofu.org", builtIn: true},
		{in: "foo/ﬁ", want: "registry.opentofu.org/foo/fi", wantDisplay: "foo/fi", wantHost: "registry.opentofu.org"},
		{in: "foo/ÄBC", want: "registry.opentofu.org/foo/äbc", wantDisplay: "foo/äbc", wantHost: "registry.opentofu.org"},
		{in: "foo/ß", want: "registry.opentofu.org/foo/ß", wantDisplay: "foo/ß", wantHost: "registry.opentofu.org"},
		// The prefix checks are skipped for one-part sources.
		{in: "terraform-provider-aws", want: "registry.opentofu.org/hashicorp/terraform-provider-aws", wantDisplay: "hashicorp/terraform-provider-aws", wantHost: "registry.opentofu.org"},
		{in: "opentofu-aws", want: "registry.opentofu.org/hashicorp/opentofu-aws", wantDisplay: "hashicorp/opentofu-aws", wantHost: "registry.opentofu.org"},
		{in: "localhost:5000/acme/x", want: "localhost:5000/acme/x", wantDisplay: "localhost:5000/acme/x", wantHost: "localhost:5000"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseProviderSource(tt.in)
			if err != nil {
				t.Fatalf("ParseProviderSource(%q): unexpected error: %v", tt.in, err)
			}
			if got.String() != tt.want {
				t.Errorf("String() = %q, want %q", got.String(), tt.want)
			}
			if got.ForDisplay() != tt.wantDisplay {
				t.Errorf("ForDisplay() = %q, want %q", got.ForDisplay(), tt.wantDisplay)
			}
			if got.Hostname != tt.wantHost {
				t.Errorf("Hostname = %q, want %q", got.Hostname, tt.wantHost)
			}
			if got.IsBuiltIn() != tt.builtIn {
				t.Errorf("IsBuiltIn() = %v, want %v", got.IsBuiltIn(), tt.builtIn)
			}
			if got.IsLegacy() != tt.legacy {
				t.Errorf("IsLegacy() = %v, want %v", got.IsLegacy(), tt.legacy)
			}
			if hasReservedPrefix(got.Type) {
				return // valid only as a one-part source
			}
			again, err := ParseProviderSource(got.String())
			if err != nil || again != got {
				t.Errorf("round trip of %q gave %#v, %v", got.String(), again, err)
			}
		})
	}
}

func TestParseProviderSourceErrors(t *testing.T) {
	const p1 = `The "source" attribute must be in the format "[hostname/][namespace/]name"`
	const invalidChars = `must contain only letters, digits, and dashes, and may not use leading or trailing dashes`
	tests := []struct {
		name, in, summary, detail string
	}{
		{"P1 too many parts", "a/b/c/d", "Invalid provider source string", p1},
		{"P1 empty", "", "Invalid provider source string", p1},
		{"P1 leading slash", "/aws", "Invalid provider source string", p1},
		{"P1 trailing slash", "hashicorp/", "Invalid provider source string", p1},
		{"P1 double slash", "example.com//aws", "Invalid provider source string", p1},
		{"P1 URL", "http://example.com/a/b", "Invalid provider source string", p1},
		{"P2 trailing dash", "foo/aws-", "Invalid provider type",
			`Invalid provider type "aws-" in source "foo/aws-": ` + invalidChars + `"`},
		{"P2 dot", "foo/a.b", "Invalid provider type",
			`Invalid provider type "a.b" in source "foo/a.b": dots are not allowed"`},
		{"P2 double dash", "foo/a--b", "Invalid provider type",
			`Invalid provider type "a--b" in source "foo/a--b": cannot use multiple consecutive dashes"`},
		{"P2 underscore one part", "my_provider", "Invalid provider type",
			`Invalid provider type "my_provider" in source "my_provider": ` + invalidChars + `"`},
		{"P2 before P3", "my_ns/a.b", "Invalid provider type",
			`Invalid provider type "a.b" in source "my_ns/a.b": dots are not allowed"`},
		{"P3 underscore", "my_ns/aws", "Invalid provider namespace",
			`Invalid provider namespace "" in source "my_ns/aws": ` + invalidChars + `"`},
		{"P3 double dash", "foo--bar/aws", "Invalid provider namespace",
			`Invalid provider namespace "" in source "foo--bar/aws": cannot use multiple consecutive dashes"`},
		{"P3 dot", "a.b/aws", "Invalid provider namespace",
			`Invalid provider namespace "" in source "a.b/aws": dots are not allowed"`},
		{"P4 punycode", "xn--caf-dma.fr/foo/bar", "Invalid provider source hostname",
			`Invalid provider source hostname namespace "" in source "xn--caf-dma.fr/foo/bar": hostname label "xn--caf-dma" specified in punycode format; service hostnames must be given in unicode"`},
		{"P4 URL", "https:/a/b", "Invalid provider source hostname",
			`Invalid provider source hostname namespace "" in source "https:/a/b": need just a hostname and optional port number, not a full URL"`},
		{"P4 port letters", "example.com:abc/a/b", "Invalid provider source hostname",
			`Invalid provider source hostname namespace "" in source "example.com:abc/a/b": port portion contains non-digit characters"`},
		{"P4 port too big", "example.com:70000/a/b", "Invalid provider source hostname",
			`Invalid provider source hostname namespace "" in source "example.com:70000/a/b": port number is greater than 65535"`},
		{"P4 empty host", ":8080/a/b", "Invalid provider source hostname",
			`Invalid provider source hostname namespace "" in source ":8080/a/b": empty string is not a valid hostname"`},
		{"P4 empty label", "a..b/c/d", "Invalid provider source hostname",
			`Invalid provider source hostname namespace "" in source "a..b/c/d": hostname contains empty label (two consecutive periods)"`},
		{"P4 idna", "ex_ample.com/c/d", "Invalid provider source hostname",
			`Invalid provider source hostname namespace "" in source "ex_ample.com/c/d": idna: disallowed rune U+005F"`},
		// Deviations: OpenTofu accepts these (invalid UTF-8 becomes U+FFFD,
		// U+034F maps to nothing).
		{"invalid UTF-8 type", "foo/a\x90", "Invalid provider type",
			`Invalid provider type "a\x90" in source "foo/a\x90": ` + invalidChars + `"`},
		{"type maps to nothing", "\u034f", "Invalid provider type",
			"Invalid provider type \"\u034f\" in source \"\u034f\": " + invalidChars + `"`},
		{"invalid UTF-8 namespace", "\x90/aws", "Invalid provider namespace",
			`Invalid provider namespace "" in source "\x90/aws": ` + invalidChars + `"`},
		// Deviation: OpenTofu accepts it and crashes displaying it.
		{"label punycode does not decode", strings.Repeat("a", 1024) + "\u00e9.com/a/b", "Invalid provider source hostname",
			`Invalid provider source hostname namespace "" in source "` + strings.Repeat("a", 1024) + "\u00e9.com/a/b" + `": a hostname label is too long for its punycode form to be decoded again"`},
		// Deviation: OpenTofu crashes on it (in the prefix error's text).
		{"invalid UTF-8 hostname, prefixed type", "\x9c/0/terraform-provider-0", "Invalid provider source hostname",
			`Invalid provider source hostname namespace "" in source "\x9c/0/terraform-provider-0": hostname is not valid UTF-8"`},
		{"hostname maps to nothing", "Xn--/0/0", "Invalid provider source hostname",
			`Invalid provider source hostname namespace "" in source "Xn--/0/0": empty string is not a valid hostname"`},
		{"hostname label maps to nothing", "Xn--./0/0", "Invalid provider source hostname",
			`Invalid provider source hostname namespace "" in source "Xn--./0/0": hostname contains empty label (two consecutive periods)"`},
		{"inner hostname label maps to nothing", "a.Xn--.b/0/0", "Invalid provider source hostname",
			`Invalid provider source hostname namespace "" in source "a.Xn--.b/0/0": hostname contains empty label (two consecutive periods)"`},
		{"P5", "example.com/-/aws", "Invalid provider namespace",
			`The legacy provider namespace "-" can be used only with hostname registry.opentofu.org.`},
		{"P6", "foo/terraform-provider-aws", "Invalid provider type",
			"Provider source \"foo/terraform-provider-aws\" has a type with the prefix \"terraform-provider-\", which isn't valid. Although that prefix is often used in the names of version control repositories for Terraform providers, provider source strings should not include it.\n\nDid you mean \"foo/aws\"?"},
		{"P6 host", "example.com/foo/terraform-provider-aws", "Invalid provider type",
			"Provider source \"example.com/foo/terraform-provider-aws\" has a type with the prefix \"terraform-provider-\", which isn't valid. Although that prefix is often used in the names of version control repositories for Terraform providers, provider source strings should not include it.\n\nDid you mean \"example.com/foo/aws\"?"},
		{"P7", "foo/terraform-aws", "Invalid provider type",
			`Provider source "registry.opentofu.org/foo/terraform-aws" has a type with the prefix "terraform-", which isn't allowed because it would be redundant to name a Terraform provider with that prefix. If you are the author of this provider, rename it to not include the prefix.`},
		{"P7 provider dash only", "foo/terraform-provider-", "Invalid provider type",
			`Invalid provider type "terraform-provider-" in source "foo/terraform-provider-": ` + invalidChars + `"`},
		{"P8", "foo/opentofu-provider-aws", "Invalid provider type",
			"Provider source \"foo/opentofu-provider-aws\" has a type with the prefix \"opentofu-provider-\", which isn't valid. Although that prefix is sometimes used in the names of version control repositories for OpenTofu providers, provider source strings should not include it.\n\nDid you mean \"foo/aws\"?"},
		{"P9", "foo/opentofu-aws", "Invalid provider type",
			`Provider source "registry.opentofu.org/foo/opentofu-aws" has a type with the prefix "opentofu-", which isn't allowed because it would be redundant to name an OpenTofu provider with that prefix. If you are the author of this provider, rename it to not include the prefix.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseProviderSource(tt.in)
			if err == nil {
				t.Fatalf("ParseProviderSource(%q) = %s, want error", tt.in, got)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError", err)
			}
			if diff := cmp.Diff(ParseError{Summary: tt.summary, Detail: tt.detail}, *pe); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseProviderSourceDiags(t *testing.T) {
	subject := &hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 3, Column: 5, Byte: 10}, End: hcl.Pos{Line: 3, Column: 9, Byte: 14}}
	_, diags := ParseProviderSourceDiags("example.com/-/aws", subject)
	if len(diags) != 1 || diags[0].Subject != subject || diags[0].Severity != hcl.DiagError {
		t.Fatalf("unexpected diagnostics %#v", diags)
	}
	p, diags := ParseProviderSourceDiags("aws", subject)
	if diags.HasErrors() || p != NewDefaultProvider("aws") {
		t.Fatalf("got %v, %v", p, diags)
	}
}

func TestParseProviderPart(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{in: "aws", want: "aws"},
		{in: "AWS", want: "aws"},
		{in: "ﬁ", want: "fi"},
		{in: "ÄBC", want: "äbc"},
		{in: "google-beta", want: "google-beta"},
		{in: "", err: "must have at least one character"},
		{in: "a.b", err: "dots are not allowed"},
		{in: "xn--abc", err: "cannot use multiple consecutive dashes"},
		{in: "my_provider", err: "must contain only letters, digits, and dashes, and may not use leading or trailing dashes"},
		{in: "-aws", err: "must contain only letters, digits, and dashes, and may not use leading or trailing dashes"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseProviderPart(tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("ParseProviderPart(%q) error = %v, want %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseProviderPart(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
			if !IsProviderPartNormalized(tt.want) {
				t.Errorf("IsProviderPartNormalized(%q) = false", tt.want)
			}
		})
	}
}
