package providersource

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/registry/remote"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/ocimanifest"
	"github.com/tfdeps/tfdeps/versions"
)

// NewOCIPushTarget returns the OCIMirror to push into the repositories the
// repository template names (checked by cliconfig.OCIMirrorTemplate; what
// names where it was given, e.g. "-oci"), with credentials from
// opts.Config (oci_credentials, oci_default_credentials, Docker-style auth
// files) as an oci_mirror installation method has. An empty template is no
// target: nil, no diagnostics.
func NewOCIPushTarget(what, template string, opts BuildOptions) (*OCIMirror, hcl.Diagnostics) {
	if template == "" {
		return nil, nil
	}
	method, diags := cliconfig.OCIMirrorTemplate(what, template)
	if diags.HasErrors() {
		return nil, diags
	}
	m := NewOCIMirror(method.OCIRepository, ociClients(opts))
	if opts.Registry != nil {
		m.Idle = opts.Registry.Settings().DownloadIdleTimeout()
	}
	return m, diags
}

// OCIPushPackage is one platform's zip to push.
type OCIPushPackage struct {
	Platform addrs.Platform
	// Path is the zip archive on local storage.
	Path string
	// ZH, when set, is the hash the zip must have (e.g. from the origin
	// registry's signed checksums); a zip that differs is not pushed.
	ZH hashes.Hash
}

// OCIPushResult counts what a push sent and what the repository already
// had.
type OCIPushResult struct {
	Repository                     string
	BlobsPushed, BlobsPresent      int
	ManifestsPushed, ManifestsSeen int
}

// Push stores one provider version in its repository in OpenTofu's layout
// (the layout OCIMirror reads): each zip as an archive/zip layer of a
// per-platform image manifest, the manifests listed by an index manifest
// tagged with the version ("+" written "_"). The platforms the version's
// index already lists and pkgs does not have are kept in the new index. Blobs and manifests the
// repository already has (by digest) are not sent again, so pushing twice
// changes nothing. Every zip is checked against its ZH before anything is
// sent.
func (m *OCIMirror) Push(ctx context.Context, provider addrs.Provider, version versions.Version, pkgs []OCIPushPackage) (OCIPushResult, error) {
	var res OCIPushResult
	type layer struct {
		pkg  OCIPushPackage
		desc ocispec.Descriptor
	}
	layers := make([]layer, 0, len(pkgs))
	for _, p := range pkgs {
		d, size, err := fileDigest(p.Path)
		if err != nil {
			return res, err
		}
		if p.ZH != "" && hashes.Hash("zh:"+d.Encoded()) != p.ZH {
			return res, fmt.Errorf("package %s for %s does not match the expected checksum %s", p.Path, p.Platform, p.ZH)
		}
		plat := &ocispec.Platform{OS: p.Platform.OS, Architecture: p.Platform.Arch}
		layers = append(layers, layer{pkg: p, desc: ocispec.Descriptor{MediaType: ociZipMediaType, Digest: d, Size: size, Platform: plat, ArtifactType: "application/vnd.opentofu.providerpkg"}})
	}
	r, err := m.repository(ctx, provider)
	if err != nil {
		return res, err
	}
	repo := r.repo
	res.Repository = r.domain + "/" + r.name
	empty := []byte("{}")
	emptyDesc := ocispec.Descriptor{MediaType: ocispec.MediaTypeEmptyJSON, Digest: digest.FromBytes(empty), Size: 2, Data: empty}
	if err := pushBlob(ctx, repo, emptyDesc, func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(empty)), nil }, &res); err != nil {
		return res, err
	}
	index := ocispec.Index{MediaType: ocispec.MediaTypeImageIndex, ArtifactType: ociProviderArtifact}
	index.SchemaVersion = 2
	for _, l := range layers {
		path := l.pkg.Path
		if err := pushBlob(ctx, repo, l.desc, func() (io.ReadCloser, error) { return os.Open(path) }, &res); err != nil {
			return res, err
		}
		manifest := ocispec.Manifest{MediaType: ocispec.MediaTypeImageManifest, ArtifactType: ociTargetArtifact, Config: emptyDesc, Layers: []ocispec.Descriptor{l.desc}}
		manifest.SchemaVersion = 2
		md, err := pushManifest(ctx, repo, ocispec.MediaTypeImageManifest, manifest, "", &res)
		if err != nil {
			return res, err
		}
		md.ArtifactType, md.Platform = ociTargetArtifact, l.desc.Platform
		index.Manifests = append(index.Manifests, md)
	}
	index.Manifests = append(index.Manifests, otherPlatforms(ctx, repo, version, pkgs)...)
	tag := strings.ReplaceAll(version.String(), "+", "_")
	if _, err := pushManifest(ctx, repo, ocispec.MediaTypeImageIndex, index, tag, &res); err != nil {
		return res, err
	}
	return res, nil
}

// otherPlatforms are the entries of the version's current index (if any,
// and readable) for platforms not among pkgs.
func otherPlatforms(ctx context.Context, repo *remote.Repository, version versions.Version, pkgs []OCIPushPackage) []ocispec.Descriptor {
	desc, err := ociResolveVersion(ctx, repo, version)
	if err != nil {
		return nil
	}
	old, err := ocimanifest.Index(ctx, repo, desc)
	if err != nil {
		return nil
	}
	var keep []ocispec.Descriptor
	for _, d := range old.Manifests {
		if d.Platform == nil || slices.ContainsFunc(pkgs, func(p OCIPushPackage) bool {
			return p.Platform.OS == d.Platform.OS && p.Platform.Arch == d.Platform.Architecture
		}) {
			continue
		}
		keep = append(keep, d)
	}
	return keep
}

func fileDigest(path string) (digest.Digest, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return digest.Digest("sha256:" + hex.EncodeToString(h.Sum(nil))), n, nil
}

func pushBlob(ctx context.Context, repo *remote.Repository, desc ocispec.Descriptor, open func() (io.ReadCloser, error), res *OCIPushResult) error {
	if ok, err := repo.Blobs().Exists(ctx, desc); err == nil && ok {
		res.BlobsPresent++
		return nil
	}
	rc, err := open()
	if err != nil {
		return err
	}
	defer rc.Close()
	if err := repo.Blobs().Push(ctx, desc, rc); err != nil {
		return fmt.Errorf("pushing blob %s: %w", desc.Digest, err)
	}
	res.BlobsPushed++
	return nil
}

// pushManifest stores v (JSON) and, when tag is set, tags it; a manifest
// already present is only tagged.
func pushManifest(ctx context.Context, repo *remote.Repository, mediaType string, v any, tag string, res *OCIPushResult) (ocispec.Descriptor, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	desc := ocispec.Descriptor{MediaType: mediaType, Digest: digest.FromBytes(b), Size: int64(len(b))}
	present, err := repo.Manifests().Exists(ctx, desc)
	switch {
	case err == nil && present && tag == "":
		res.ManifestsSeen++
	case err == nil && present:
		res.ManifestsSeen++
		if err := repo.Manifests().Tag(ctx, desc, tag); err != nil {
			return desc, fmt.Errorf("tagging %s: %w", tag, err)
		}
	case tag == "":
		if err := repo.Manifests().Push(ctx, desc, bytes.NewReader(b)); err != nil {
			return desc, fmt.Errorf("pushing manifest %s: %w", desc.Digest, err)
		}
		res.ManifestsPushed++
	default:
		if err := repo.Manifests().PushReference(ctx, desc, bytes.NewReader(b), tag); err != nil {
			return desc, fmt.Errorf("pushing manifest %s as %s: %w", desc.Digest, tag, err)
		}
		res.ManifestsPushed++
	}
	return desc, nil
}
