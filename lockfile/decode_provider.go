package lockfile

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/versions"
)

var providerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "version", Required: true},
		{Name: "constraints"},
		{Name: "hashes"},
	},
}

// decodeProviderBlock decodes one provider block. It returns nil when the
// label is not a lockable, normalised provider address; otherwise the
// selection with whatever decoded, even when there are errors.
// room is the number of diagnostics the block may still add before the
// reader stops (see maxDiagnostics).
func decodeProviderBlock(block *hcl.Block, flavour Flavour, room int) (*ProviderLock, hcl.Diagnostics) {
	addr, diags := decodeProviderLabel(block, flavour)
	if diags.HasErrors() {
		return nil, diags
	}
	lock := &ProviderLock{addr: addr}
	content, diags := block.Body.Content(providerSchema)
	var more hcl.Diagnostics
	lock.version, more = decodeVersion(flavour, addr, content.Attributes["version"])
	diags = append(diags, more...)
	lock.constraints, more = decodeConstraints(flavour, addr, content.Attributes["constraints"])
	diags = append(diags, more...)
	lock.hashes, more = decodeHashes(flavour, content.Attributes["hashes"], room-len(diags))
	diags = append(diags, more...)
	return lock, diags
}

func decodeProviderLabel(block *hcl.Block, flavour Flavour) (addrs.Provider, hcl.Diagnostics) {
	return providerAddress(block.Labels[0], block.LabelRanges[0], flavour)
}

// providerAddress checks the label of a provider block, raw, found at
// subject: a lockable provider address written in normalised form.
func providerAddress(raw string, subject hcl.Range, flavour Flavour) (addrs.Provider, hcl.Diagnostics) {
	if addr, ok := normalisedProvider(raw); ok {
		return addr, nil
	}
	fail := func(summary, detail string) (addrs.Provider, hcl.Diagnostics) {
		return addrs.Provider{}, hcl.Diagnostics{{
			Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject.Ptr(),
		}}
	}
	addr, err := ParseProvider(flavour, raw) // only whether it fails matters: every failure has the same diagnostic
	switch {
	case err != nil:
		return fail("Invalid provider source address",
			`The provider source address for a provider lock must be a valid, fully-qualified address of the form "hostname/namespace/type".`)
	case isBuiltInIn(flavour, addr):
		return fail("Invalid provider source address", fmt.Sprintf(
			"Cannot lock a version for built-in provider %s. Built-in providers are bundled inside %s itself, "+
				"so you can't select a version for them independently of the %s release you are currently running.",
			addr, flavour.Product(), flavour.Product()))
	case addr.IsLegacyIn(flavour):
		return fail("Invalid provider source address", fmt.Sprintf(
			"Provider source address %s is a special provider that is not eligible for dependency locking.", addr))
	case addr.String() != raw:
		return fail("Non-normalized provider source address", fmt.Sprintf(
			"The provider source address for this provider lock must be written as %q, the fully-qualified and normalized form.", addr.String()))
	}
	return addr, nil
}

func decodeVersion(f Flavour, addr addrs.Provider, attr *hcl.Attribute) (versions.Version, hcl.Diagnostics) {
	if attr == nil {
		return versions.Version{}, nil // Content has reported the missing argument
	}
	raw, diags := decodeString(f, attr.Expr)
	if diags.HasErrors() {
		return versions.Version{}, diags
	}
	if raw == nil {
		return versions.Version{}, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing required argument",
			Detail:   `A provider lock block must contain a "version" argument.`,
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	v, more := lockedVersion(f, addr, *raw, attr.Expr.Range())
	return v, append(diags, more...)
}

// lockedVersion checks the selected version raw, the value of the
// expression at rng: a version number in normalised form.
func lockedVersion(f Flavour, addr addrs.Provider, raw string, rng hcl.Range) (versions.Version, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	diag := func(detail string) *hcl.Diagnostic {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider version number", Detail: detail, Subject: rng.Ptr()}
	}
	v, err := parseVersionIn(f, raw)
	if err != nil {
		diags = append(diags, diag(fmt.Sprintf("The selected version number for provider %s is invalid: %s.", addr, err)))
	}
	if canon := v.String(); canon != raw {
		diags = append(diags, diag(fmt.Sprintf("The selected version number for provider %s must be written in normalized form: %q.", addr, canon)))
	}
	return v, diags
}

func decodeConstraints(f Flavour, addr addrs.Provider, attr *hcl.Attribute) (versions.Constraints, hcl.Diagnostics) {
	if attr == nil {
		return nil, nil
	}
	raw, diags := decodeString(f, attr.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	if raw == nil {
		// Decoded into a plain string, as both products do, null fails.
		return nil, append(diags, nullNotAllowed(attr.Expr))
	}
	c, more := lockedConstraints(f, addr, *raw, attr.Expr.Range())
	return c, append(diags, more...)
}

// lockedConstraints checks the recorded constraints raw, the value of the
// expression at rng: version constraints in normalised form.
func lockedConstraints(f Flavour, addr addrs.Provider, raw string, rng hcl.Range) (versions.Constraints, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	diag := func(detail string) *hcl.Diagnostic {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider version constraints", Detail: detail, Subject: rng.Ptr()}
	}
	c, err := parseConstraintsIn(f, raw)
	if err != nil {
		diags = append(diags, diag(fmt.Sprintf("The recorded version constraints for provider %s are invalid: %s.", addr, err)))
	}
	if canon := c.String(); canon != raw {
		diags = append(diags, diag(fmt.Sprintf("The recorded version constraints for provider %s must be written in normalized form: %q.", addr, canon)))
	}
	return c, diags
}

// decodeHashes decodes the hashes argument; it stops with tooManyErrors
// when its elements have given room diagnostics.
func decodeHashes(f Flavour, attr *hcl.Attribute, room int) ([]hashes.Hash, hcl.Diagnostics) {
	if attr == nil {
		return nil, nil
	}
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	if len(exprs) == 0 {
		return nil, append(diags, emptyHashesDiagnostic(attr.Expr.Range()))
	}
	out := make([]hashes.Hash, 0, len(exprs))
	for _, expr := range exprs {
		if len(diags) >= room {
			return out, append(diags, tooManyErrors(attr.Expr.Range()))
		}
		raw, more := decodeString(f, expr)
		diags = append(diags, more...)
		if more.HasErrors() {
			continue
		}
		if raw == nil {
			diags = append(diags, nullNotAllowed(expr))
			continue
		}
		h, diag := lockedHash(*raw, attr.Expr.Range())
		if diag != nil {
			diags = append(diags, diag)
			continue
		}
		out = append(out, h)
	}
	return out, diags
}

func emptyHashesDiagnostic(rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid provider hash set",
		Detail:   `The "hashes" argument must either be omitted or contain at least one hash value.`,
		Subject:  rng.Ptr(),
	}
}

// lockedHash checks one element, raw, of the hash list at rng.
func lockedHash(raw string, rng hcl.Range) (hashes.Hash, *hcl.Diagnostic) {
	h, err := hashes.Parse(raw)
	if err != nil {
		return "", &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider hash string",
			Detail:   fmt.Sprintf("Cannot interpret %q as a provider hash: %s.", raw, err),
			Subject:  rng.Ptr(),
		}
	}
	return h, nil
}

// normalisedProvider recognises, without the address parser (and its
// allocations), the labels that are certainly lockable addresses in
// normalised form: a well-known registry host, then a namespace and a type
// of lower-case ASCII letters, digits and single inner dashes, at most 63
// characters, the type without a product prefix. Every other label goes to
// ParseProvider; both agree on these (TestNormalisedProvider).
func normalisedProvider(raw string) (addrs.Provider, bool) {
	host, rest, ok := strings.Cut(raw, "/")
	if !ok || (host != string(addrs.DefaultProviderRegistryHost) && host != string(TerraformRegistryHost)) {
		return addrs.Provider{}, false
	}
	ns, typ, ok := strings.Cut(rest, "/")
	if !ok || !normalisedPart(ns) || !normalisedPart(typ) ||
		strings.HasPrefix(typ, "terraform-") || strings.HasPrefix(typ, "opentofu-") {
		return addrs.Provider{}, false
	}
	hostname := addrs.DefaultProviderRegistryHost
	if host != string(hostname) {
		hostname = TerraformRegistryHost
	}
	return addrs.NewProvider(hostname, ns, typ), true
}

func normalisedPart(s string) bool {
	if len(s) == 0 || len(s) > 63 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
		case c == '-' && s[i-1] != '-':
		default:
			return false
		}
	}
	return true
}
