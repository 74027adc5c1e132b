package lockfile

import (
	"fmt"

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
func decodeProviderBlock(block *hcl.Block, flavour Flavour) (*ProviderLock, hcl.Diagnostics) {
	addr, diags := decodeProviderLabel(block, flavour)
	if diags.HasErrors() {
		return nil, diags
	}
	lock := &ProviderLock{addr: addr}
	content, diags := block.Body.Content(providerSchema)
	var more hcl.Diagnostics
	lock.version, more = decodeVersion(addr, content.Attributes["version"])
	diags = append(diags, more...)
	lock.constraints, more = decodeConstraints(addr, content.Attributes["constraints"])
	diags = append(diags, more...)
	lock.hashes, more = decodeHashes(content.Attributes["hashes"])
	diags = append(diags, more...)
	return lock, diags
}

func decodeProviderLabel(block *hcl.Block, flavour Flavour) (addrs.Provider, hcl.Diagnostics) {
	raw := block.Labels[0]
	subject := block.LabelRanges[0].Ptr()
	fail := func(summary, detail string) (addrs.Provider, hcl.Diagnostics) {
		return addrs.Provider{}, hcl.Diagnostics{{
			Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject,
		}}
	}
	addr, err := ParseProvider(flavour, raw)
	switch {
	case err != nil:
		return fail("Invalid provider source address",
			`The provider source address for a provider lock must be a valid, fully-qualified address of the form "hostname/namespace/type".`)
	case addr.IsBuiltIn():
		return fail("Invalid provider source address", fmt.Sprintf(
			"Cannot lock a version for built-in provider %s. Built-in providers are bundled inside OpenTofu itself, "+
				"so you can't select a version for them independently of the OpenTofu release you are currently running.", addr))
	case addr.IsLegacy():
		return fail("Invalid provider source address", fmt.Sprintf(
			"Provider source address %s is a special provider that is not eligible for dependency locking.", addr))
	case addr.String() != raw:
		return fail("Non-normalized provider source address", fmt.Sprintf(
			"The provider source address for this provider lock must be written as %q, the fully-qualified and normalized form.", addr.String()))
	}
	return addr, nil
}

func decodeVersion(addr addrs.Provider, attr *hcl.Attribute) (versions.Version, hcl.Diagnostics) {
	if attr == nil {
		return versions.Version{}, nil // Content has reported the missing argument
	}
	raw, diags := decodeString(attr.Expr)
	if diags.HasErrors() {
		return versions.Version{}, diags
	}
	diag := func(detail string) *hcl.Diagnostic {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider version number", Detail: detail, Subject: attr.Expr.Range().Ptr()}
	}
	if raw == nil {
		return versions.Version{}, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing required argument",
			Detail:   `A provider lock block must contain a "version" argument.`,
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	v, err := versions.ParseVersion(*raw)
	if err != nil {
		diags = append(diags, diag(fmt.Sprintf("The selected version number for provider %s is invalid: %s.", addr, err)))
	}
	if canon := v.String(); canon != *raw {
		diags = append(diags, diag(fmt.Sprintf("The selected version number for provider %s must be written in normalized form: %q.", addr, canon)))
	}
	return v, diags
}

func decodeConstraints(addr addrs.Provider, attr *hcl.Attribute) (versions.Constraints, hcl.Diagnostics) {
	if attr == nil {
		return nil, nil
	}
	raw, diags := decodeString(attr.Expr)
	if diags.HasErrors() || raw == nil {
		return nil, diags
	}
	diag := func(detail string) *hcl.Diagnostic {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider version constraints", Detail: detail, Subject: attr.Expr.Range().Ptr()}
	}
	c, err := versions.ParseConstraints(*raw)
	if err != nil {
		diags = append(diags, diag(fmt.Sprintf("The recorded version constraints for provider %s are invalid: %s.", addr, err)))
	}
	if canon := c.String(); canon != *raw {
		diags = append(diags, diag(fmt.Sprintf("The recorded version constraints for provider %s must be written in normalized form: %q.", addr, canon)))
	}
	return c, diags
}

func decodeHashes(attr *hcl.Attribute) ([]hashes.Hash, hcl.Diagnostics) {
	if attr == nil {
		return nil, nil
	}
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	if len(exprs) == 0 {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider hash set",
			Detail:   `The "hashes" argument must either be omitted or contain at least one hash value.`,
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	out := make([]hashes.Hash, 0, len(exprs))
	for _, expr := range exprs {
		raw, more := decodeString(expr)
		diags = append(diags, more...)
		if more.HasErrors() {
			continue
		}
		if raw == nil {
			// gohcl decoding a null into a plain string fails.
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsuitable value type",
				Detail:   "Unsuitable value: null value is not allowed",
				Subject:  expr.StartRange().Ptr(),
				Context:  expr.Range().Ptr(),
			})
			continue
		}
		h, err := hashes.Parse(*raw)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider hash string",
				Detail:   fmt.Sprintf("Cannot interpret %q as a provider hash: %s.", *raw, err),
				Subject:  attr.Expr.Range().Ptr(),
			})
			continue
		}
		out = append(out, h)
	}
	return out, diags
}
