package registry

import (
	"slices"
	"sort"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
)

// Disposition is what is known about one hash after authenticating a
// package.
type Disposition struct {
	// VerifiedLocally: computed from the downloaded bytes and compared.
	VerifiedLocally bool
	// ReportedByRegistry: stated by the origin registry (packages map or
	// SHA256SUMS).
	ReportedByRegistry bool
	// ReportedByTrustedMirror: stated by a network mirror with
	// trust_all_hashes.
	ReportedByTrustedMirror bool
	// SignedByKeyIDs: key IDs ("%016X") of verified signatures covering the
	// hash, sorted.
	SignedByKeyIDs []string
	// Platform the hash belongs to, zero when unknown.
	Platform addrs.Platform
}

// AuthResult is the outcome of authenticating one package: each hash with
// its disposition. A nil *AuthResult means "no authentication" and
// summarises as "unauthenticated".
type AuthResult struct {
	Hashes map[hashes.Hash]Disposition
	// Warnings are lines init prints to stdout (each followed by a newline),
	// such as the expired-key warning.
	Warnings []string
	// Signer is who signed the package by Terraform's classification
	// (SignerNone in the OpenTofu flavour, which has no trust tiers), and
	// SignerKeyID the primary key ID ("%016X") of the key that verified
	// the signature. See TerraformSummary.
	Signer      Signer
	SignerKeyID string
}

// Add merges d into the disposition of h: flags are OR-ed, key sets
// united, and the first known platform kept.
func (r *AuthResult) Add(h hashes.Hash, d Disposition) {
	if r.Hashes == nil {
		r.Hashes = map[hashes.Hash]Disposition{}
	}
	old, ok := r.Hashes[h]
	if !ok {
		d.SignedByKeyIDs = sortedUnique(d.SignedByKeyIDs)
		r.Hashes[h] = d
		return
	}
	old.VerifiedLocally = old.VerifiedLocally || d.VerifiedLocally
	old.ReportedByRegistry = old.ReportedByRegistry || d.ReportedByRegistry
	old.ReportedByTrustedMirror = old.ReportedByTrustedMirror || d.ReportedByTrustedMirror
	old.SignedByKeyIDs = sortedUnique(append(slices.Clone(old.SignedByKeyIDs), d.SignedByKeyIDs...))
	if old.Platform == (addrs.Platform{}) {
		old.Platform = d.Platform
	}
	r.Hashes[h] = old
}

// Merge adds every hash of other.
func (r *AuthResult) Merge(other *AuthResult) {
	if other == nil {
		return
	}
	for _, h := range other.SortedHashes() {
		r.Add(h, other.Hashes[h])
	}
	r.Warnings = append(r.Warnings, other.Warnings...)
	if r.Signer == SignerNone {
		r.Signer, r.SignerKeyID = other.Signer, other.SignerKeyID
	}
}

// SortedHashes returns the hashes in byte order.
func (r *AuthResult) SortedHashes() []hashes.Hash {
	if r == nil {
		return nil
	}
	out := make([]hashes.Hash, 0, len(r.Hashes))
	for h := range r.Hashes {
		out = append(out, h)
	}
	slices.Sort(out)
	return out
}

// Where returns the sorted hashes whose disposition satisfies keep.
func (r *AuthResult) Where(keep func(Disposition) bool) []hashes.Hash {
	var out []hashes.Hash
	for _, h := range r.SortedHashes() {
		if keep(r.Hashes[h]) {
			out = append(out, h)
		}
	}
	return out
}

func (r *AuthResult) any(pred func(Disposition) bool) bool {
	return len(r.Where(pred)) > 0
}

// Signed reports whether any hash is covered by a verified signature.
func (r *AuthResult) Signed() bool {
	return r.any(func(d Disposition) bool { return len(d.SignedByKeyIDs) > 0 })
}

// SigningSkipped reports the "signature validation was skipped" case: not
// signed, but reported by the registry or a trusted mirror.
func (r *AuthResult) SigningSkipped() bool {
	return !r.Signed() && r.any(func(d Disposition) bool { return d.ReportedByRegistry || d.ReportedByTrustedMirror })
}

// KeyIDs returns every key ID on the result, sorted.
func (r *AuthResult) KeyIDs() []string {
	var ids []string
	for _, h := range r.SortedHashes() {
		ids = append(ids, r.Hashes[h].SignedByKeyIDs...)
	}
	return sortedUnique(ids)
}

// Summary returns "signed", "signing skipped", "verified checksum" or
// "unauthenticated", in OpenTofu's priority order.
func (r *AuthResult) Summary() string {
	switch {
	case r.Signed():
		return "signed"
	case r.any(func(d Disposition) bool { return d.ReportedByRegistry }):
		return "signing skipped"
	case r.any(func(d Disposition) bool { return d.VerifiedLocally }):
		return "verified checksum"
	case r.any(func(d Disposition) bool { return d.ReportedByTrustedMirror }):
		return "signing skipped"
	}
	return "unauthenticated"
}

func sortedUnique(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	out := slices.Clone(ss)
	sort.Strings(out)
	return slices.Compact(out)
}
