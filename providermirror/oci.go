package providermirror

import (
	"context"
	"fmt"
	"os"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// Pushing into an OCI registry (Builder.OCI), which OpenTofu cannot do.
//
// A provider version is pushed only when every requested platform was
// mirrored and authenticated; each zip goes with the zh: hash the origin
// registry reported (and signed) for its platform, and Push compares the
// zip with it before anything is sent, so a package that does not match
// the upstream's checksums never reaches the registry. Push skips blobs
// and manifests already there, so a second run sends no blob.

// pushVersion pushes p v for the platforms whose outcomes are given.
func (b *Builder) pushVersion(ctx context.Context, p addrs.Provider, v versions.Version, platforms []addrs.Platform, outs []platformOutcome, ev *Events) *Problem {
	pkgs := make([]providersource.OCIPushPackage, 0, len(platforms))
	for i, pl := range platforms {
		zh, ok := upstreamZH(outs[i].auth, pl)
		if !ok {
			return &Problem{"Provider not pushed", fmt.Sprintf("Not pushing %s v%s to the OCI registry: its origin registry reported no zh: checksum for %s, so the package cannot be checked against it.", p, v, pl)}
		}
		pkgs = append(pkgs, providersource.OCIPushPackage{Platform: pl, Path: b.archivePath(p, v, pl), ZH: zh})
	}
	res, err := b.OCI.Push(ctx, p, v, pkgs)
	if err != nil {
		return &Problem{"Failed to push provider to OCI registry", fmt.Sprintf("Failed to push %s v%s: %s.", p, v, err)}
	}
	ev.Pushed(p, v, res)
	return nil
}

// upstreamZH is the zh: hash of the platform that the origin registry
// reported or signed.
func upstreamZH(auth *registry.AuthResult, pl addrs.Platform) (hashes.Hash, bool) {
	if auth == nil {
		return "", false
	}
	zhs := auth.Where(func(d registry.Disposition) bool {
		return d.Platform == pl && (d.ReportedByRegistry || len(d.SignedByKeyIDs) > 0)
	})
	var found hashes.Hash
	for _, h := range zhs {
		if h.Scheme() != hashes.SchemeZip {
			continue
		}
		if found != "" && found != h {
			return "", false
		}
		found = h
	}
	return found, found != ""
}

// temporaryTarget gives a builder without a target directory (pushing
// only) a temporary one; the returned function removes it.
func (b *Builder) temporaryTarget() (func(), error) {
	if b.Target != "" {
		return func() {}, nil
	}
	dir, err := os.MkdirTemp("", "tfdeps-oci-push")
	if err != nil {
		return nil, err
	}
	b.Target = dir
	return func() {
		os.RemoveAll(dir)
		b.Target = ""
	}, nil
}
