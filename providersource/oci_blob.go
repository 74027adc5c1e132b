package providersource

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"time"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/registry/remote"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/registry"
)

// OCIBlob is a provider zip stored as a blob of an OCI repository (from an
// OCIMirror).
type OCIBlob struct {
	// Domain and Repository name the repository, for messages.
	Domain, Repository string

	repo *remote.Repository
	desc ocispec.Descriptor
	idle time.Duration
}

func (OCIBlob) isLocation() {}

// String is "DOMAIN/REPOSITORY@DIGEST".
func (b OCIBlob) String() string {
	return fmt.Sprintf("%s/%s@%s", b.Domain, b.Repository, b.desc.Digest)
}

// ZH returns the "zh:" hash the blob's digest announces.
func (b OCIBlob) ZH() hashes.Hash {
	h, _ := ociZipHash(b.desc)
	return h
}

// Fetch downloads the blob into a new file in dir, reading no more than the
// descriptor's size, and checks its size and digest. The archive's SHA256
// is set. target is the platform the package was selected for: a layer
// descriptor that names another platform is refused.
func (b OCIBlob) Fetch(ctx context.Context, dir string, target addrs.Platform) (*registry.Archive, error) {
	if b.desc.MediaType != ociZipMediaType {
		return nil, fmt.Errorf("selected OCI artifact manifest has unexpected media type %q", b.desc.MediaType)
	}
	if p := b.desc.Platform; p != nil && (p.OS != target.OS || p.Architecture != target.Arch) {
		got := addrs.Platform{OS: p.OS, Arch: p.Architecture}
		return nil, fmt.Errorf("selected OCI artifact is for %s, but was expected to be for %s", got, target)
	}
	a, err := b.fetch(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("fetching provider package blob %s: %w", b.desc.Digest, err)
	}
	return a, nil
}

func (b OCIBlob) fetch(ctx context.Context, dir string) (*registry.Archive, error) {
	if _, err := ociZipHash(b.desc); err != nil {
		return nil, fmt.Errorf("cannot verify package contents: %w", err)
	}
	idle := b.idle
	if idle <= 0 {
		idle = registry.DefaultDownloadIdleTimeout
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stalled := fmt.Errorf("%s: no data received for %s (the limit %s sets)", b.Domain, idle, registry.EnvDownloadIdleTimeout)
	timer := time.AfterFunc(idle, func() { cancel(stalled) })
	defer timer.Stop()
	rc, err := b.repo.Fetch(ctx, b.desc)
	if err != nil {
		if context.Cause(ctx) == stalled {
			return nil, stalled
		}
		return nil, err
	}
	defer rc.Close()
	f, err := os.CreateTemp(dir, "oci-provider-*.zip")
	if err != nil {
		return nil, fmt.Errorf("failed to open temporary file: %w", err)
	}
	ok := false
	defer func() {
		f.Close()
		if !ok {
			os.Remove(f.Name())
		}
	}()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), &ctxReader{ctx: ctx, r: io.LimitReader(rc, b.desc.Size), timer: timer, idle: idle})
	if err != nil {
		if context.Cause(ctx) == stalled {
			return nil, stalled
		}
		return nil, err
	}
	if n < b.desc.Size {
		return nil, fmt.Errorf("incorrect response size: expected %d bytes, but got %d bytes", b.desc.Size, n)
	}
	a := &registry.Archive{Path: f.Name(), Size: n, URL: b.String()}
	copy(a.SHA256[:], h.Sum(nil))
	if a.ZH() != b.ZH() {
		return nil, fmt.Errorf("provider package does not match digest %s", b.desc.Digest)
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	ok = true
	return a, nil
}

// ctxReader stops reading once ctx is done and restarts the idle timer
// whenever bytes arrive.
type ctxReader struct {
	ctx   context.Context
	r     io.Reader
	timer *time.Timer
	idle  time.Duration
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.r.Read(p)
	if n > 0 {
		c.timer.Reset(c.idle)
	}
	return n, err
}
