package providerinstall

import (
	"slices"

	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/providersource"
)

// Reusing an installed package without downloading it.
//
// OpenTofu downloads a package again when the lock file has no hashes for
// it, even if the plugin cache (or the target directory) already holds it,
// and keeps the existing directory only after checking that the download
// has the same content. tfdeps skips that download when the origin
// registry vouches for the directory: its "packages" map lists, for the
// target platform, an "h1:" hash equal to the directory's. The registry's
// authentication then runs on the package as the registry describes it
// (size and checksum from the same answer, SHA256SUMS line, signature),
// so the result — and the hashes recorded in the lock file — are those a
// download of the genuine archive gives. Without a packages map, for
// mirrors, or when anything does not match, the package is downloaded as
// OpenTofu does.

// trustInstalled returns the authentication result and "h1:" hash for the
// package directory dir when the registry vouches for it.
func (pi *packageInstall) trustInstalled(dir string) (*AuthResult, hashes.Hash, bool) {
	ra, ok := pi.meta.Authentication.(*providersource.RegistryAuthentication)
	if !ok || ra.Meta == nil {
		return nil, "", false
	}
	entry, ok := ra.Meta.Packages[pi.task.platform()]
	if !ok || entry.Size <= 0 {
		return nil, "", false
	}
	h1, err := pi.task.run.in.hasher.H1(dir, pi.task.run.in.hasher.memoPath(dir))
	if err != nil || !slices.Contains(entry.Hashes, h1) {
		return nil, "", false
	}
	if _, err := FindExecutable(dir, pi.task.p.Type); err != nil {
		return nil, "", false
	}
	described := &Archive{Size: entry.Size, SHA256: ra.Meta.SHA256}
	res, err := ra.AuthenticateArchive(described)
	if err != nil {
		return nil, "", false
	}
	return res, h1, true
}
