package serve

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// upstream is the origin registries the mirror fills from: the "direct"
// source of package sources over a registry client whose connections go
// through the dial guard.
type upstream struct {
	client *registry.Client
	source *providersource.Registry
	getenv func(string) string
}

func newUpstream(client *registry.Client, getenv func(string) string) *upstream {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return &upstream{client: client, source: providersource.NewRegistry(client, getenv, nil), getenv: getenv}
}

// versions lists the provider's versions with their platforms.
func (u *upstream) versions(ctx context.Context, p addrs.Provider) (*registry.VersionPlatforms, error) {
	return u.client.ListVersionPlatforms(ctx, p)
}

// registryMeta finds one package and returns the registry's metadata.
func (u *upstream) registryMeta(ctx context.Context, p addrs.Provider, v versions.Version, pl addrs.Platform) (providersource.PackageMeta, *registry.PackageMeta, error) {
	meta, err := u.source.PackageMeta(ctx, p, v, pl)
	if err != nil {
		return meta, nil, err
	}
	ra, ok := meta.Authentication.(*providersource.RegistryAuthentication)
	if !ok || ra.Meta == nil {
		return meta, nil, fmt.Errorf("registry source gave no registry metadata for %s %s %s", p, v, pl)
	}
	return meta, ra.Meta, nil
}

// platformHashes finds, without downloading anything, the hashes of every
// platform of a version that the server can vouch for: the "packages" map
// when the registry sends one, else the shasum of each platform's package.
// Each answer is first checked as init checks a package before trusting
// its hashes: the SHA256SUMS line of the package, and the OpenPGP
// signature over SHA256SUMS, through registry.Authenticate with the
// archive's digest and size as the registry stated them. Then, per
// platform (vouchedHashes): a zh: only when the signed SHA256SUMS lists
// it, an h1: only when the entry has exactly one and all its zh: hashes
// are signed.
func (u *upstream) platformHashes(ctx context.Context, p addrs.Provider, v versions.Version, platforms []addrs.Platform) (map[addrs.Platform][]hashes.Hash, error) {
	if len(platforms) == 0 {
		return nil, &registry.PlatformUnsupportedError{Provider: p, Version: v}
	}
	first := platforms[0]
	if i := slices.Index(platforms, addrs.Platform{OS: "linux", Arch: "amd64"}); i >= 0 {
		first = platforms[i]
	}
	_, meta, err := u.registryMeta(ctx, p, v, first)
	if err != nil {
		return nil, err
	}
	res, err := u.checkMeta(meta)
	if err != nil {
		return nil, err
	}
	out := map[addrs.Platform][]hashes.Hash{}
	if len(meta.Packages) > 0 {
		for pl := range meta.Packages {
			reported := res.Where(func(d registry.Disposition) bool { return d.Platform == pl && d.ReportedByRegistry })
			out[pl] = vouchedHashes(reported, res)
		}
		// The requested platform's shasum passed every check.
		out[first] = hashes.SortedUnique(append(out[first], zhOf(meta)))
		return out, nil
	}
	out[first] = []hashes.Hash{zhOf(meta)}
	for _, pl := range platforms {
		if pl == first {
			continue
		}
		_, m, err := u.registryMeta(ctx, p, v, pl)
		if err != nil {
			if isPlatformUnsupported(err) {
				continue
			}
			return nil, err
		}
		if _, err := u.checkMeta(m); err != nil {
			return nil, err
		}
		out[pl] = []hashes.Hash{zhOf(m)}
	}
	return out, nil
}

// vouchedHashes keeps, of the hashes a registry's "packages" map reports
// for one platform, those the server lists in VERSION.json before the
// archive is here: when the SHA256SUMS signature was verified, the zh:
// hashes it covers (others are dropped); and the entry's h1: when it has
// exactly one and no zh: of the entry was dropped. An h1: cannot be checked
// without the archive: it is the registry's statement in the response
// whose checksums the signature covers, the one tofu init records from
// registry.opentofu.org. Once the archive is stored, the hashes computed
// from it replace these (serveMirrorVersion).
func vouchedHashes(reported []hashes.Hash, res *registry.AuthResult) []hashes.Hash {
	var h1s, zhs []hashes.Hash
	dropped := false
	for _, h := range reported {
		switch h.Scheme() {
		case hashes.SchemeH1:
			h1s = append(h1s, h)
		case hashes.SchemeZip:
			if res.Signed() && len(res.Hashes[h].SignedByKeyIDs) == 0 {
				dropped = true
				continue
			}
			zhs = append(zhs, h)
		}
	}
	if len(h1s) == 1 && !dropped {
		zhs = append(zhs, h1s[0])
	}
	return hashes.SortedUnique(zhs)
}

// checkMeta authenticates the registry's statements about a package
// (package data, SHA256SUMS line, signature) using the digest and size the
// registry gave, before any archive exists.
func (u *upstream) checkMeta(meta *registry.PackageMeta) (*registry.AuthResult, error) {
	stated := &registry.Archive{SHA256: meta.SHA256}
	if e, ok := meta.Packages[meta.Platform]; ok {
		stated.Size = e.Size
	}
	res, err := registry.Authenticate(meta, stated, u.getenv)
	if err != nil {
		return nil, &AuthenticationError{Provider: meta.Provider, Version: meta.Version, Platform: meta.Platform, Err: err}
	}
	return res, nil
}

func zhOf(meta *registry.PackageMeta) hashes.Hash {
	a := registry.Archive{SHA256: meta.SHA256}
	return a.ZH()
}

// fetched is an archive downloaded from upstream and authenticated.
type fetched struct {
	archive *registry.Archive
	auth    *registry.AuthResult
	h1      hashes.Hash
}

// fetch downloads one package into dir and authenticates it exactly as
// init does; on failure nothing is left in dir.
func (u *upstream) fetch(ctx context.Context, p addrs.Provider, v versions.Version, pl addrs.Platform, dir string) (*fetched, error) {
	meta, _, err := u.registryMeta(ctx, p, v, pl)
	if err != nil {
		return nil, err
	}
	loc, ok := meta.Location.(providersource.HTTPURL)
	if !ok {
		return nil, fmt.Errorf("unexpected package location %T", meta.Location)
	}
	noRetries := 0 // retryTransport retries
	a, err := u.client.Download(ctx, registry.DownloadRequest{URL: loc.URL, Dir: dir, Retries: &noRetries})
	if err != nil {
		return nil, &DownloadError{Provider: p, Version: v, Platform: pl, Err: err}
	}
	auth, err := meta.Authentication.AuthenticateArchive(a)
	if err != nil {
		a.Remove()
		return nil, &AuthenticationError{Provider: p, Version: v, Platform: pl, Err: err}
	}
	h1, err := hashes.HashZipFile(a.Path)
	if err != nil {
		a.Remove()
		return nil, &AuthenticationError{Provider: p, Version: v, Platform: pl, Err: fmt.Errorf("hashing the archive: %w", err)}
	}
	return &fetched{archive: a, auth: auth, h1: h1}, nil
}

// AuthenticationError: an upstream package or its metadata failed the
// checks init applies; nothing was stored.
type AuthenticationError struct {
	Provider addrs.Provider
	Version  versions.Version
	Platform addrs.Platform
	Err      error
}

func (e *AuthenticationError) Error() string {
	return fmt.Sprintf("failed to authenticate %s v%s for %s: %s", e.Provider, e.Version, e.Platform, e.Err)
}
func (e *AuthenticationError) Unwrap() error { return e.Err }

// DownloadError: the archive could not be downloaded from upstream.
type DownloadError struct {
	Provider addrs.Provider
	Version  versions.Version
	Platform addrs.Platform
	Err      error
}

func (e *DownloadError) Error() string {
	return fmt.Sprintf("failed to download %s v%s for %s: %s", e.Provider, e.Version, e.Platform, e.Err)
}
func (e *DownloadError) Unwrap() error { return e.Err }

func isPlatformUnsupported(err error) bool {
	var pu *registry.PlatformUnsupportedError
	return errors.As(err, &pu)
}
