package registry

import "github.com/tfdeps/tfdeps/flavour"

// Signer is who signed a package, as Terraform tells its users.
type Signer int

const (
	// SignerNone: no signature was classified (OpenTofu, mirrors, local
	// packages).
	SignerNone Signer = iota
	// SignerHashiCorp: HashiCorp's release key verified the signature.
	SignerHashiCorp
	// SignerPartner: a registry key with a valid trust signature from
	// HashiCorp's partner key verified it.
	SignerPartner
	// SignerSelf: a registry key without a trust signature verified it
	// (Terraform's community providers).
	SignerSelf
)

// String returns Terraform's words for a signed package.
func (s Signer) String() string {
	switch s {
	case SignerHashiCorp:
		return "signed by HashiCorp"
	case SignerPartner:
		return "signed by a HashiCorp partner"
	case SignerSelf:
		return "self-signed"
	}
	return ""
}

// TerraformSummary returns what Terraform prints for an authentication
// result: "signed by HashiCorp", "signed by a HashiCorp partner",
// "self-signed", "verified checksum" (a package checked against hashes
// only) or "unauthenticated" (nil, or nothing checked).
func (r *AuthResult) TerraformSummary() string {
	switch {
	case r == nil:
		return "unauthenticated"
	case r.Signer != SignerNone:
		return r.Signer.String()
	case r.any(func(d Disposition) bool {
		return d.VerifiedLocally || d.ReportedByRegistry || d.ReportedByTrustedMirror
	}):
		return "verified checksum"
	}
	return "unauthenticated"
}

// SummaryFor returns the summary in the words of flavour f: Summary for
// OpenTofu, TerraformSummary for Terraform.
func (r *AuthResult) SummaryFor(f flavour.Flavour) string {
	if f == flavour.Terraform {
		return r.TerraformSummary()
	}
	return r.Summary()
}

// ThirdPartySigned reports whether a partner's or the provider's own key
// signed the package: the case where Terraform shows the key ID and the
// note about partner and community providers.
func (r *AuthResult) ThirdPartySigned() bool {
	return r != nil && (r.Signer == SignerPartner || r.Signer == SignerSelf)
}
