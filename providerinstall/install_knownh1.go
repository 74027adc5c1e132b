package providerinstall

import (
	"slices"

	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/registry"
)

// Skipping the "h1:" of an archive verified by "zh:".
//
// After a fresh install OpenTofu hashes the installed directory and records
// that "h1:" with the other hashes (init.md §6). Hashing every unpacked
// byte is much of the cost of a cold install, and the value is often
// recorded anyway from elsewhere. knownH1 finds such a value; the files
// are then written without being hashed, and the value stands for the
// directory's "h1:" (recorded, and remembered for later runs).
//
// The archive's SHA-256 must have been verified against the registry's
// shasum (a "zh:" hash VerifiedLocally), and the registry's "packages" map
// must give exactly one "h1:" for the target platform — the entry whose
// "zh:" equals that shasum (registry-protocol.md §6 step 1). That "h1:" is
// the registry's claim about the very archive verified. It is used only
// where OpenTofu records it whatever it computes:
//
//   - signing not enforced for the provider (registry.opentofu.org without
//     OPENTOFU_ENFORCE_GPG_VALIDATION): every "packages" hash is recorded
//     as reported by the registry;
//   - the lock already has it for this version and the archive matched
//     the lock by its "zh:": prior hashes are recorded.
//
// A registry may compute that "h1:" from the archive itself (hashes.md
// §3.2), which equals the unpacked directory's only for an archive of
// regular files with clean, distinct names — what provider releases are.
// For any other archive the files are hashed all the same
// (extractFileUnhashed) and the directory's value used.
//
// Everything OpenTofu checks is still checked: the archive against the
// registry's shasum, SHA256SUMS and signature, and against the lock; an
// existing package directory against the archive's content (then the
// "h1:" is computed). What differs is the case of a registry whose
// "packages" map gives a wrong "h1:": OpenTofu records it beside the
// computed one and never notices; tfdeps records it alone. A later
// install from that lock still verifies the archive by "zh:" (OpenTofu,
// running on that lock file, adds the computed "h1:").
func (pi *packageInstall) knownH1(a *Archive, auth *AuthResult) hashes.Hash {
	if auth == nil {
		return ""
	}
	t := pi.task
	zh := a.ZH()
	if d, ok := auth.Hashes[zh]; !ok || !d.VerifiedLocally {
		return ""
	}
	pl := t.platform()
	claimed := auth.Where(func(d registry.Disposition) bool { return d.ReportedByRegistry && d.Platform == pl })
	claimed = slices.DeleteFunc(claimed, func(h hashes.Hash) bool { return h.Scheme() != hashes.SchemeH1 })
	if len(claimed) != 1 {
		return ""
	}
	h1 := claimed[0]
	if slices.Contains(pi.allowed, zh) && slices.Contains(pi.allowed, h1) {
		return h1 // a prior hash, recorded anyway
	}
	if len(pi.allowed) > 0 && !slices.Contains(pi.allowed, zh) {
		return "" // the lock is checked by the archive's content
	}
	if !t.run.signingEnforced(t.p) {
		return h1 // reported by the registry, recorded anyway
	}
	return ""
}
