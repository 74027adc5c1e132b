package providermirror

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// mirrorPackage places one package: the registry's metadata, then the
// archive already in the target when it passes authentication, else a
// download into a staging file beside the target, authenticated before it
// is renamed into place.
func (b *Builder) mirrorPackage(ctx context.Context, p addrs.Provider, v versions.Version, pl addrs.Platform, ev *Events) platformOutcome {
	fail := func(summary, format string, args ...any) platformOutcome {
		return platformOutcome{problem: &Problem{summary, fmt.Sprintf(format, args...)}}
	}
	meta, err := b.Source.PackageMeta(ctx, p, v, pl)
	if err != nil {
		return fail("Provider release not available", "Failed to download %s v%s for %s: %s.", p, v, pl, err)
	}
	loc, ok := meta.Location.(providersource.HTTPURL)
	if !ok {
		return fail("Provider release not available", "Failed to download %s v%s for %s: %[4]s's provider registry client returned unexpected location type %[5]T. This is a bug in %[4]s.", p, v, pl, b.product(), meta.Location)
	}
	target := b.archivePath(p, v, pl)
	if auth, ok := existingArchive(target, meta.Authentication); ok {
		return platformOutcome{auth: auth}
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return fail("Cannot download provider release", "Failed to download %s v%s for %s: %s.", p, v, pl, err)
	}
	var progress func(done, total int64)
	if ev.DownloadProgress != nil {
		progress = func(done, total int64) { ev.DownloadProgress(p, v, pl, done, total) }
	}
	a, err := b.Client.Download(ctx, registry.DownloadRequest{URL: loc.URL, Dir: filepath.Dir(target), Retries: meta.DownloadRetries, Progress: progress})
	ev.DownloadEnded(p, v, pl)
	if err != nil {
		return fail("Cannot download provider release", "Failed to download %s v%s for %s: %s.", p, v, pl, err)
	}
	defer os.Remove(a.Path)
	var auth *registry.AuthResult
	if meta.Authentication != nil {
		if auth, err = meta.Authentication.AuthenticateArchive(a); err != nil {
			return fail("Invalid provider package", "Failed to authenticate %s v%s for %s: %s.", p, v, pl, err)
		}
	}
	if err := os.Chmod(a.Path, 0o644); err != nil {
		return fail("Cannot download provider release", "Failed to place %s package into mirror directory: %s.", p, err)
	}
	os.Remove(target)
	if err := os.Rename(a.Path, target); err != nil {
		return fail("Cannot download provider release", "Failed to place %s package into mirror directory: %s.", p, err)
	}
	return platformOutcome{auth: auth}
}

// existingArchive authenticates an archive left by an earlier run; it is
// kept only when the source's checks pass on its bytes.
func existingArchive(path string, authn providersource.Authentication) (*registry.AuthResult, bool) {
	if authn == nil {
		return nil, false
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return nil, false
	}
	a := &registry.Archive{Path: path, Size: n}
	copy(a.SHA256[:], h.Sum(nil))
	auth, err := authn.AuthenticateArchive(a)
	return auth, err == nil
}

// product names the flavour of the builder's registry client.
func (b *Builder) product() string {
	if b.Client == nil {
		return flavour.OpenTofu.Product()
	}
	return b.Client.Settings().Flavour.Product()
}
