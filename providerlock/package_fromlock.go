package providerlock

import (
	"slices"

	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
)

// A package the old lock entry already covers.
//
// OpenTofu downloads every package, and the new entry is the old one plus
// what the download gave: the signed (or registry-reported) zh: hashes,
// which the registry's metadata and SHA256SUMS give without a download,
// and the h1: of the unpacked package, which only the content gives. When
// the old entry (same version) already holds the package's h1:, the
// download adds nothing. Which of the entry's h1: hashes belongs to which
// platform is not recorded, so tfdeps counts: the entry must hold the
// archive's zh:, signed in SHA256SUMS, and at least as many h1: hashes as
// it holds signed zh: hashes of SHA256SUMS, one per platform. An entry
// written by "init" on one platform (every zh:, one h1:) or by "providers
// lock" for fewer platforms than the new run asks for does not qualify, and
// its packages are downloaded as OpenTofu does. Only an entry with an
// h1: for every platform it locks, one of which is false, makes the result
// differ from OpenTofu's (which would add the true h1: beside the false
// one); installs still check the archive against the entry's zh:.
//
// The registry's authentication runs on the package as the metadata
// describes it, so a checksum list that does not list the archive, a
// signature that does not verify, or an archive checksum the lock does not
// hold leads to the download, and to OpenTofu's error or result.

// fromLock records the package from the registry's metadata when lock
// already covers it (see above).
func (l *Locker) fromLock(meta providersource.PackageMeta, lock *lockfile.ProviderLock) (obtained, bool) {
	a, ok := meta.Authentication.(*providersource.RegistryAuthentication)
	if !ok || a.Meta == nil || lock == nil || lock.Version() != meta.Version {
		return obtained{}, false
	}
	locked := lock.Hashes()
	if !slices.Contains(locked, hashOfSum(a.Meta.SHA256)) {
		return obtained{}, false
	}
	described := &registry.Archive{SHA256: a.Meta.SHA256}
	if entry, ok := a.Meta.Packages[meta.TargetPlatform]; ok {
		described.Size = entry.Size
	}
	auth, err := a.AuthenticateArchive(described)
	if err != nil || !auth.Signed() {
		return obtained{}, false
	}
	signedLocked := 0
	for _, h := range auth.Where(func(d registry.Disposition) bool { return len(d.SignedByKeyIDs) > 0 }) {
		if h.Scheme() == hashes.SchemeZip && slices.Contains(locked, h) {
			signedLocked++
		}
	}
	h1s := 0
	for _, h := range locked {
		if h.Scheme() == hashes.SchemeH1 {
			h1s++
		}
	}
	if h1s == 0 || h1s < signedLocked {
		return obtained{}, false
	}
	return obtained{auth: auth, via: FromLock}, true
}
