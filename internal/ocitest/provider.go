package ocitest

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// Media and artifact types of OpenTofu's provider layout.
const (
	MediaTypeIndex    = "application/vnd.oci.image.index.v1+json"
	MediaTypeManifest = "application/vnd.oci.image.manifest.v1+json"
	MediaTypeEmpty    = "application/vnd.oci.empty.v1+json"
	ProviderArtifact  = "application/vnd.opentofu.provider"
	TargetArtifact    = "application/vnd.opentofu.provider-target"
	PackageArtifact   = "application/vnd.opentofu.providerpkg"
)

// ProviderPackage is one platform's package of a provider version.
type ProviderPackage struct {
	OS, Arch string
	// Zip is the package archive (see ProviderZip).
	Zip []byte
}

// ProviderOptions vary the layout, to build bad artifacts; the zero value
// is OpenTofu's layout.
type ProviderOptions struct {
	// IndexArtifactType replaces the index's artifact type when set.
	IndexArtifactType string
	// ExtraZipLayer adds a second archive/zip layer to every platform's
	// manifest.
	ExtraZipLayer bool
	// IndexPadding adds an annotation of this many bytes to the index.
	IndexPadding int
}

// ProviderZip returns a zip holding terraform-provider-TYPE (with the
// given content) as a provider package does.
func ProviderZip(typ, content string) []byte {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	h := &zip.FileHeader{Name: "terraform-provider-" + typ, Method: zip.Deflate}
	h.SetMode(0o755)
	f, _ := w.CreateHeader(h)
	_, _ = f.Write([]byte(content))
	_ = w.Close()
	return buf.Bytes()
}

type descriptor struct {
	MediaType    string            `json:"mediaType"`
	Digest       string            `json:"digest"`
	Size         int               `json:"size"`
	Data         []byte            `json:"data,omitempty"`
	Platform     *platform         `json:"platform,omitempty"`
	ArtifactType string            `json:"artifactType,omitempty"`
	Annotations  map[string]string `json:"annotations,omitempty"`
}

type platform struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
}

// PushProvider stores one provider version in repository repo under tag
// in OpenTofu's layout: an index manifest of artifact type
// application/vnd.opentofu.provider listing, per package, an image manifest
// of artifact type application/vnd.opentofu.provider-target whose single
// archive/zip layer is the package. It returns the index's digest.
func (s *Server) PushProvider(ctx context.Context, repo, tag string, pkgs []ProviderPackage, opts ProviderOptions) (string, error) {
	empty := []byte("{}")
	emptyDigest, err := s.PushBlob(ctx, repo, empty)
	if err != nil {
		return "", err
	}
	var manifests []descriptor
	for _, p := range pkgs {
		zd, err := s.PushBlob(ctx, repo, p.Zip)
		if err != nil {
			return "", err
		}
		pl := &platform{Architecture: p.Arch, OS: p.OS}
		layer := descriptor{MediaType: "archive/zip", Digest: zd, Size: len(p.Zip), Platform: pl, ArtifactType: PackageArtifact}
		layers := []descriptor{layer}
		if opts.ExtraZipLayer {
			layers = append(layers, layer)
		}
		m, _ := json.Marshal(map[string]any{
			"schemaVersion": 2,
			"mediaType":     MediaTypeManifest,
			"artifactType":  TargetArtifact,
			"config":        descriptor{MediaType: MediaTypeEmpty, Digest: emptyDigest, Size: 2, Data: empty},
			"layers":        layers,
		})
		md, err := s.PushManifest(ctx, repo, Digest(m), MediaTypeManifest, m)
		if err != nil {
			return "", err
		}
		manifests = append(manifests, descriptor{MediaType: MediaTypeManifest, Digest: md, Size: len(m), Platform: pl, ArtifactType: TargetArtifact})
	}
	artifact := ProviderArtifact
	if opts.IndexArtifactType != "" {
		artifact = opts.IndexArtifactType
	}
	index := map[string]any{
		"schemaVersion": 2,
		"mediaType":     MediaTypeIndex,
		"artifactType":  artifact,
		"manifests":     manifests,
	}
	if opts.IndexPadding > 0 {
		index["annotations"] = map[string]string{"padding": string(bytes.Repeat([]byte("x"), opts.IndexPadding))}
	}
	ib, _ := json.Marshal(index)
	if tag == "" {
		return "", fmt.Errorf("ocitest: empty tag")
	}
	return s.PushManifest(ctx, repo, tag, MediaTypeIndex, ib)
}
