package providerinstall

import (
	"slices"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/registry"
)

// recordedHashes are the parts the hashes of a fresh install are recorded
// from (init.md §6).
type recordedHashes struct {
	newHash hashes.Hash   // h1: of the installed directory
	prior   []hashes.Hash // the lock's preferred hashes for this version
	local   []hashes.Hash // verified locally, plus newHash
	signed  []hashes.Hash // signed, or registry/mirror-reported by policy
}

// all returns the recorded hashes: every part, sorted, de-duplicated.
func (h recordedHashes) all() []hashes.Hash {
	all := []hashes.Hash{h.newHash}
	all = append(all, h.prior...)
	all = append(all, h.local...)
	all = append(all, h.signed...)
	return hashes.SortedUnique(all)
}

// incomplete reports whether only local hashes were found: nothing signed
// or reported, and no prior hashes beyond the local ones (init.md §9).
func (h recordedHashes) incomplete() bool {
	if len(hashes.SortedUnique(h.signed)) > 0 {
		return false
	}
	return len(h.prior) == 0 || slices.Equal(hashes.SortedUnique(h.local), h.prior)
}

// recordedHashes collects what a fresh install of p records. Terraform
// counts as local only the hash of the installed directory: the checksum a
// network mirror listed and the download matched is not recorded unless
// signed.
func (r *installRun) recordedHashes(p addrs.Provider, newHash hashes.Hash, prior []hashes.Hash, auth *AuthResult) recordedHashes {
	local := []hashes.Hash{newHash}
	if r.in.Flavour != flavour.Terraform {
		local = append(auth.Where(func(d registry.Disposition) bool { return d.VerifiedLocally }), newHash)
	}
	var signed []hashes.Hash
	if r.signingEnforced(p) {
		signed = auth.Where(hasKeyIDs)
	} else {
		signed = auth.Where(func(d registry.Disposition) bool { return d.ReportedByRegistry || d.ReportedByTrustedMirror })
	}
	return recordedHashes{newHash: newHash, prior: prior, local: local, signed: signed}
}

// signingEnforced reports whether only signed hashes of p count: always
// in the Terraform flavour; in OpenTofu's when p is not on
// registry.opentofu.org, or OPENTOFU_ENFORCE_GPG_VALIDATION is on.
func (r *installRun) signingEnforced(p addrs.Provider) bool {
	return r.in.Flavour == flavour.Terraform || p.Hostname != addrs.DefaultProviderRegistryHost || r.in.EnforceGPG
}

// incompleteProviders lists the fresh installs with only local hashes.
func incompleteProviders(fresh []freshInstall) []addrs.Provider {
	var out []addrs.Provider
	for _, f := range fresh {
		if f.hashes.incomplete() {
			out = append(out, f.provider)
		}
	}
	sortProviders(out)
	return out
}
