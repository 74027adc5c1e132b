package providersource

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/registry"
)

// Authentication checks a downloaded archive before anything uses it. A nil
// error means the result may be trusted; the result says which hashes are
// known and how (registry.AuthResult.Summary gives init's wording).
type Authentication interface {
	AuthenticateArchive(a *registry.Archive) (*registry.AuthResult, error)
}

var (
	_ Authentication = (*RegistryAuthentication)(nil)
	_ Authentication = (*MirrorAuthentication)(nil)
)

// RegistryAuthentication is the origin registry's plan: package data,
// SHA256SUMS line, archive checksum and OpenPGP signature, in that order.
type RegistryAuthentication struct {
	Meta *registry.PackageMeta
	// Getenv reads OPENTOFU_ENFORCE_GPG_VALIDATION and
	// OPENTOFU_ENFORCE_GPG_EXPIRATION.
	Getenv func(string) string
}

// AuthenticateArchive runs the registry's checks.
func (r *RegistryAuthentication) AuthenticateArchive(a *registry.Archive) (*registry.AuthResult, error) {
	return registry.Authenticate(r.Meta, a, r.Getenv)
}

// MirrorAuthentication checks an archive against the hashes a network
// mirror reported.
type MirrorAuthentication struct {
	// Platform is the package's target platform.
	Platform addrs.Platform
	// Hashes are the requested platform's hashes or, with TrustAllHashes,
	// those of every platform in the mirror's document.
	Hashes []hashes.Hash
	// TrustAllHashes records the hashes that do not match this archive as
	// reported by a trusted mirror (trust_all_hashes = true).
	TrustAllHashes bool
	// Flavour selects the product the errors name.
	Flavour flavour.Flavour
}

// AuthenticateArchive keeps the preferred hashes (h1:, zh:), marks each one
// the archive matches as verified locally, fails when none matches, and
// with TrustAllHashes marks the others as reported by a trusted mirror.
func (m *MirrorAuthentication) AuthenticateArchive(a *registry.Archive) (*registry.AuthResult, error) {
	preferred := hashes.Preferred(m.Hashes)
	if len(preferred) == 0 {
		return nil, fmt.Errorf("this version of %s does not support any of the checksum formats given for this provider", m.Flavour.Product())
	}
	pkg := &archivePackage{archive: a}
	res := &registry.AuthResult{}
	var unmatched []hashes.Hash
	for _, h := range preferred {
		ok, err := hashes.Matches(pkg, h)
		if err != nil {
			return nil, fmt.Errorf("failed to verify provider package checksums: %w", err)
		}
		if ok {
			res.Add(h, registry.Disposition{VerifiedLocally: true, Platform: m.Platform})
		} else {
			unmatched = append(unmatched, h)
		}
	}
	if len(unmatched) == len(preferred) {
		if len(preferred) == 1 {
			return nil, fmt.Errorf("provider package doesn't match the expected checksum %q", string(preferred[0]))
		}
		return nil, errors.New("provider package doesn't match the any of the expected checksums")
	}
	if m.TrustAllHashes {
		for _, h := range unmatched {
			res.Add(h, registry.Disposition{ReportedByTrustedMirror: true, Platform: m.Platform})
		}
	}
	return res, nil
}

// archivePackage is a downloaded archive as a hashes.Package: its zh: hash
// was computed during the download, its h1: hash is computed once on use.
type archivePackage struct {
	archive *registry.Archive
	h1      hashes.Hash
	h1Err   error
	h1Done  bool
}

func (p *archivePackage) ZH() (hashes.Hash, error) { return p.archive.ZH(), nil }

func (p *archivePackage) H1() (hashes.Hash, error) {
	if !p.h1Done {
		if a := p.archive; a.Data != nil {
			p.h1, p.h1Err = hashes.Zip{R: bytes.NewReader(a.Data), Size: int64(len(a.Data))}.H1()
		} else {
			p.h1, p.h1Err = hashes.ZipFile(a.Path).H1()
		}
		p.h1Done = true
	}
	return p.h1, p.h1Err
}
