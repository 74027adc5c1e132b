// Package ocimanifest reads the manifests of the OCI artifacts OpenTofu
// installs from (provider indexes and images, module package images) with
// OpenTofu's checks and error texts: a size limit before anything is read,
// no more read than the descriptor announces, the content checked against
// the descriptor's digest, and the decoded manifest's media and artifact
// types checked against the descriptor's.
package ocimanifest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"
)

// LimitMiB is the largest manifest read, in MiB (OpenTofu's limit).
const LimitMiB = 4

// Fetch reads the manifest desc names, at most its announced size, and
// checks it against the descriptor's digest.
func Fetch(ctx context.Context, repo content.Fetcher, desc ocispec.Descriptor) ([]byte, error) {
	if desc.Size/1024/1024 > LimitMiB {
		return nil, fmt.Errorf("manifest size exceeds OpenTofu's size limit of %d MiB", LimitMiB)
	}
	rc, err := repo.Fetch(ctx, desc)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	src, err := io.ReadAll(io.LimitReader(rc, desc.Size))
	if err != nil {
		return nil, fmt.Errorf("reading manifest content: %w", err)
	}
	if desc.Digest.Validate() != nil || desc.Digest.Algorithm().FromBytes(src) != desc.Digest {
		return nil, fmt.Errorf("manifest content does not match digest %s", desc.Digest)
	}
	return src, nil
}

// Image fetches and checks the image manifest desc names.
func Image(ctx context.Context, repo content.Fetcher, desc ocispec.Descriptor) (*ocispec.Manifest, error) {
	src, err := Fetch(ctx, repo, desc)
	if err != nil {
		return nil, err
	}
	var image ocispec.Manifest
	if err := json.Unmarshal(src, &image); err != nil {
		var index ocispec.Index
		if json.Unmarshal(src, &index) == nil && index.MediaType == ocispec.MediaTypeImageIndex {
			return nil, errors.New("found index manifest but need image manifest")
		}
		return nil, fmt.Errorf("invalid manifest content: %w", err)
	}
	if err := checkTypes(desc, image.MediaType, image.ArtifactType); err != nil {
		return nil, err
	}
	return &image, nil
}

// Index fetches and checks the index manifest desc names.
func Index(ctx context.Context, repo content.Fetcher, desc ocispec.Descriptor) (*ocispec.Index, error) {
	src, err := Fetch(ctx, repo, desc)
	if err != nil {
		return nil, err
	}
	var index ocispec.Index
	if err := json.Unmarshal(src, &index); err != nil {
		var image ocispec.Manifest
		if json.Unmarshal(src, &image) == nil && image.MediaType == ocispec.MediaTypeImageManifest {
			return nil, errors.New("found image manifest but need index manifest")
		}
		return nil, fmt.Errorf("invalid manifest content: %w", err)
	}
	if err := checkTypes(desc, index.MediaType, index.ArtifactType); err != nil {
		return nil, err
	}
	return &index, nil
}

// checkTypes compares a decoded manifest's types with its descriptor's.
func checkTypes(desc ocispec.Descriptor, mediaType, artifactType string) error {
	if mediaType != desc.MediaType {
		return fmt.Errorf("unexpected manifest media type %q", mediaType)
	}
	if artifactType != desc.ArtifactType {
		return fmt.Errorf("unexpected artifact type %q", artifactType)
	}
	return nil
}
