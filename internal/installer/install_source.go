package installer

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/versions"
)

// Source is what the installer needs from an installation source (a
// registry, a mirror, or several of them combined). It is owned here, by
// its consumer; the sources package provides implementations and the CLI
// adapts them.
type Source interface {
	// AvailableVersions lists the versions of p the source offers, with any
	// warnings its server returned.
	AvailableVersions(ctx context.Context, p addrs.Provider) (versions.List, []string, error)
	// PackageMeta describes the package of p at version v for platform pl.
	PackageMeta(ctx context.Context, p addrs.Provider, v versions.Version, pl addrs.Platform) (PackageMeta, error)
}

// PackageMeta says where the package of one provider version for one
// platform is and how to authenticate it.
type PackageMeta struct {
	Provider addrs.Provider
	Version  versions.Version
	Platform addrs.Platform
	// Location is a LocalArchive, a LocalDir or an HTTPArchive.
	Location Location
	// Authentication checks a package archive before it is installed; nil
	// means none. It is never run for a LocalDir.
	Authentication Authenticator
}

// Location is where a package is: LocalArchive, LocalDir or HTTPArchive.
type Location interface{ isLocation() }

// LocalArchive is the path of a package's zip archive on local storage (a
// packed filesystem mirror).
type LocalArchive string

// LocalDir is the path of an unpacked package directory (an unpacked
// filesystem mirror or a plugin cache).
type LocalDir string

// HTTPArchive is a package archive to download.
type HTTPArchive struct {
	URL string
	// Retries is the number of extra attempts after a retryable failure;
	// negative means the installer's default.
	Retries int
}

func (LocalArchive) isLocation() {}
func (LocalDir) isLocation()     {}
func (HTTPArchive) isLocation()  {}

// Archive is a package archive on local storage handed to an
// Authenticator: its path, size and "zh:" hash (computed while it was
// downloaded, or on demand).
type Archive struct {
	Path string
	Size int64
	ZH   hashes.Hash
}

// Authenticator checks a package archive and reports what it learned about
// hashes (registry-protocol.md §6, mirrors-and-cli-config.md §2.3).
type Authenticator interface {
	Authenticate(ctx context.Context, a Archive) (*AuthResult, error)
}

// HashDisposition is what is known about one hash after authentication.
type HashDisposition struct {
	Hash                    hashes.Hash
	VerifiedLocally         bool
	ReportedByRegistry      bool
	ReportedByTrustedMirror bool
	// SignedBy lists the GPG key IDs whose signature covers the hash.
	SignedBy []string
}

// AuthResult is the outcome of authenticating a package: every hash it
// learned about, each with its disposition. A nil result means
// "unauthenticated".
type AuthResult struct {
	Hashes []HashDisposition
}

// Merge adds the dispositions of other to r, merging entries for the same
// hash (flags OR-ed, key sets united), and returns r.
func (r *AuthResult) Merge(other *AuthResult) *AuthResult {
	if other == nil {
		return r
	}
	for _, d := range other.Hashes {
		r.add(d)
	}
	return r
}

func (r *AuthResult) add(d HashDisposition) {
	for i := range r.Hashes {
		e := &r.Hashes[i]
		if e.Hash != d.Hash {
			continue
		}
		e.VerifiedLocally = e.VerifiedLocally || d.VerifiedLocally
		e.ReportedByRegistry = e.ReportedByRegistry || d.ReportedByRegistry
		e.ReportedByTrustedMirror = e.ReportedByTrustedMirror || d.ReportedByTrustedMirror
		e.SignedBy = unionStrings(e.SignedBy, d.SignedBy)
		return
	}
	d.SignedBy = slices.Clone(d.SignedBy)
	r.Hashes = append(r.Hashes, d)
}

func unionStrings(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	sort.Strings(out)
	return slices.Compact(out)
}

// any reports whether some disposition satisfies f.
func (r *AuthResult) any(f func(HashDisposition) bool) bool {
	if r == nil {
		return false
	}
	return slices.ContainsFunc(r.Hashes, f)
}

// Signed reports whether any hash is covered by a GPG signature.
func (r *AuthResult) Signed() bool {
	return r.any(func(d HashDisposition) bool { return len(d.SignedBy) > 0 })
}

// SigningSkipped reports whether the result is not signed but hashes were
// reported by the registry or a trusted mirror.
func (r *AuthResult) SigningSkipped() bool {
	return !r.Signed() && r.any(func(d HashDisposition) bool { return d.ReportedByRegistry || d.ReportedByTrustedMirror })
}

// KeyIDs returns every signing key ID of the result, sorted, joined with
// ", ".
func (r *AuthResult) KeyIDs() string {
	var ids []string
	if r != nil {
		for _, d := range r.Hashes {
			ids = unionStrings(ids, d.SignedBy)
		}
	}
	return strings.Join(ids, ", ")
}

// Summary returns OpenTofu's summary of the result: "signed", "signing
// skipped", "verified checksum" or "unauthenticated".
func (r *AuthResult) Summary() string {
	switch {
	case r.Signed():
		return "signed"
	case r.any(func(d HashDisposition) bool { return d.ReportedByRegistry }):
		return "signing skipped"
	case r.any(func(d HashDisposition) bool { return d.VerifiedLocally }):
		return "verified checksum"
	case r.any(func(d HashDisposition) bool { return d.ReportedByTrustedMirror }):
		return "signing skipped"
	}
	return "unauthenticated"
}

// hashesWhere returns the hashes whose disposition satisfies f, in result
// order.
func (r *AuthResult) hashesWhere(f func(HashDisposition) bool) []hashes.Hash {
	var out []hashes.Hash
	if r == nil {
		return out
	}
	for _, d := range r.Hashes {
		if f(d) {
			out = append(out, d.Hash)
		}
	}
	return out
}
