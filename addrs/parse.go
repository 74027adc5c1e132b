package addrs

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	regaddr "github.com/opentofu/registry-address/v2"
	svchost "github.com/opentofu/svchost"
	"golang.org/x/net/idna"
)

// ParseError is a problem with a provider source string. Summary and Detail
// are OpenTofu's diagnostic texts, byte for byte.
type ParseError struct {
	Summary string
	Detail  string
}

func (e *ParseError) Error() string { return e.Summary + ": " + e.Detail }

// Diagnostic returns the error as an error diagnostic with the given
// subject (the source attribute's value range, or nil).
func (e *ParseError) Diagnostic(subject *hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  e.Summary,
		Detail:   e.Detail,
		Subject:  subject,
	}
}

// ParseProviderSource parses a provider source address
// "[HOSTNAME/][NAMESPACE/]TYPE" as found in required_providers.
//
// A one-part source gets the default namespace "hashicorp" on
// registry.opentofu.org (OpenTofu parses it with an unknown namespace which
// every caller then replaces with "hashicorp"); the prefix checks on the
// type are skipped for one-part sources, as in OpenTofu. The legacy
// namespace "-" is accepted on the default host only.
//
// A failure is always a *ParseError.
func ParseProviderSource(s string) (ret Provider, err error) {
	if !utf8.ValidString(s) {
		// Checked first: OpenTofu's parser panics on some such hostnames
		// (tofu crashes on "\x9c/0/terraform-provider-0").
		if err := checkPartsNotEmpty(s); err != nil {
			return Provider{}, err
		}
	}
	defer func() {
		// Any other panic of the library is an invalid address too.
		if r := recover(); r != nil {
			ret, err = Provider{}, &ParseError{Summary: "Invalid provider source string", Detail: fmt.Sprintf("The source address %q cannot be parsed: %v.", s, r)}
		}
	}()
	p, err := regaddr.ParseProviderSource(s)
	if err != nil {
		var pe *regaddr.ParserError
		if errors.As(err, &pe) {
			return Provider{}, &ParseError{Summary: pe.Summary, Detail: pe.Detail}
		}
		return Provider{}, &ParseError{Summary: "Invalid provider source string", Detail: err.Error()}
	}
	if err := checkPartsNotEmpty(s); err != nil {
		return Provider{}, err
	}
	if err := checkHostnameDisplayable(s, p.Hostname); err != nil {
		return Provider{}, err
	}
	ret = Provider{Type: p.Type, Namespace: p.Namespace, Hostname: p.Hostname}
	if ret.Namespace == regaddr.UnknownProviderNamespace {
		ret.Namespace = DefaultProviderNamespace
	}
	return ret, nil
}

// ParseProviderSourceDiags is ParseProviderSource returning its error as a
// diagnostic with the given subject.
func ParseProviderSourceDiags(s string, subject *hcl.Range) (Provider, hcl.Diagnostics) {
	p, err := ParseProviderSource(s)
	if err != nil {
		var pe *ParseError
		errors.As(err, &pe)
		return Provider{}, hcl.Diagnostics{pe.Diagnostic(subject)}
	}
	return p, nil
}

// ParseProviderPart normalises a namespace or type (or a local name):
// Unicode case folding and IDNA mapping, letters, digits and single dashes
// only, no leading or trailing dash. The error texts are OpenTofu's.
//
// Deviation: OpenTofu maps invalid UTF-8 to U+FFFD and accepts it, giving a
// part that does not parse again, and accepts parts that IDNA maps to the
// empty string (e.g. U+034F); tfdeps rejects both with the "must contain
// only letters..." text.
func ParseProviderPart(s string) (string, error) {
	n, err := regaddr.ParseProviderPart(s)
	if err == nil && (n == "" || !utf8.ValidString(s)) {
		return "", errInvalidPartChars
	}
	return n, err
}

var errInvalidPartChars = errors.New("must contain only letters, digits, and dashes, and may not use leading or trailing dashes")

// checkPartsNotEmpty rejects a source string that OpenTofu would accept
// only by replacing invalid UTF-8 or by mapping a part to nothing (see
// ParseProviderPart), with the error for the part that holds it.
func checkPartsNotEmpty(s string) *ParseError {
	parts := strings.Split(s, "/")
	last := len(parts) - 1
	bad := func(p string) bool {
		if p == "-" {
			return false
		}
		_, err := ParseProviderPart(p)
		return err != nil
	}
	switch {
	case bad(parts[last]):
		return &ParseError{
			Summary: "Invalid provider type",
			Detail:  fmt.Sprintf(`Invalid provider type %q in source %q: %s"`, parts[last], s, errInvalidPartChars),
		}
	case last >= 1 && bad(parts[last-1]):
		return &ParseError{
			Summary: "Invalid provider namespace",
			Detail:  fmt.Sprintf(`Invalid provider namespace %q in source %q: %s"`, "", s, errInvalidPartChars),
		}
	case last == 2 && !utf8.ValidString(parts[0]):
		return &ParseError{
			Summary: "Invalid provider source hostname",
			Detail:  fmt.Sprintf(`Invalid provider source hostname namespace %q in source %q: %s"`, "", s, "hostname is not valid UTF-8"),
		}
	}
	return nil
}

// checkHostnameDisplayable rejects a hostname whose comparison (ASCII)
// form does not convert back to Unicode, so that String would give a form
// that does not parse again: e.g. a label of 1,024 letters and one
// non-ASCII letter, whose punycode label the IDNA decoder refuses; or one
// that is empty in that form.
//
// Deviation: OpenTofu accepts such a hostname and then crashes when it
// displays it ("ForDisplay called on invalid Hostname").
func checkHostnameDisplayable(s string, h svchost.Hostname) *ParseError {
	host, _ := splitPort(string(h))
	if host == "" {
		// E.g. "Xn--", which svchost's punycode check misses (it is
		// case-sensitive) and IDNA maps to nothing.
		return &ParseError{
			Summary: "Invalid provider source hostname",
			Detail:  fmt.Sprintf(`Invalid provider source hostname namespace %q in source %q: %s"`, "", s, "empty string is not a valid hostname"),
		}
	}
	if t := strings.TrimSuffix(host, "."); t == "" || strings.HasPrefix(t, ".") || strings.Contains(t, "..") {
		// E.g. "Xn--.a", whose comparison form ".a" has an empty label and
		// would not parse again.
		return &ParseError{
			Summary: "Invalid provider source hostname",
			Detail:  fmt.Sprintf(`Invalid provider source hostname namespace %q in source %q: %s"`, "", s, "hostname contains empty label (two consecutive periods)"),
		}
	}
	if _, err := idna.Lookup.ToUnicode(host); err != nil {
		// The empty namespace and the trailing quote are as in OpenTofu's
		// other hostname errors.
		return &ParseError{
			Summary: "Invalid provider source hostname",
			Detail:  fmt.Sprintf(`Invalid provider source hostname namespace %q in source %q: %s"`, "", s, errHostnameNotDisplayable),
		}
	}
	return nil
}

var errHostnameNotDisplayable = errors.New("a hostname label is too long for its punycode form to be decoded again")

// IsProviderPartNormalized reports whether s is a valid, already normalised
// namespace, type or local name.
func IsProviderPartNormalized(s string) bool {
	n, err := ParseProviderPart(s)
	return err == nil && n == s
}
