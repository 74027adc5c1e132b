package ocitest

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"sort"
)

// Artifact and layer types of OpenTofu's module packages: an image
// manifest (no index: a module package is the same on every platform)
// whose artifact type names a module package, an empty config, and one
// zip archive of the package as its layer.
const (
	ModuleArtifactType = "application/vnd.opentofu.modulepkg"
	ZipMediaType       = "archive/zip"

	moduleManifestType = "application/vnd.oci.image.manifest.v1+json"
	moduleConfigType   = "application/vnd.oci.empty.v1+json"
)

// ModulePackage describes a module package artifact to push. The zero
// values of the fields other than Files give the layout OpenTofu expects.
type ModulePackage struct {
	// Files are the package's files: slash path → content.
	Files map[string]string
	// ArtifactType replaces ModuleArtifactType ("": the right one).
	ArtifactType string
	// Layers, when not nil, replace the single zip layer of Files: each is
	// pushed as a blob of media type ZipMediaType (more than one makes a
	// package OpenTofu refuses).
	Layers [][]byte
	// LayerMediaType replaces ZipMediaType for every layer.
	LayerMediaType string
}

// Zip returns a zip archive of files (slash path → content), its entries
// in name order with a fixed time, so that equal inputs give equal bytes.
func Zip(files map[string]string) ([]byte, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Deflate})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write([]byte(files[n])); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type moduleDescriptor struct {
	MediaType string `json:"mediaType"`
	Digest    string `json:"digest"`
	Size      int    `json:"size"`
}

// PushModule pushes a module package of files into repo under tag and
// returns the manifest's digest.
func (s *Server) PushModule(ctx context.Context, repo, tag string, files map[string]string) (string, error) {
	return s.PushModulePackage(ctx, repo, tag, ModulePackage{Files: files})
}

// PushModulePackage pushes p into repo under tag (or, when tag is "",
// only by its digest) and returns the manifest's digest.
func (s *Server) PushModulePackage(ctx context.Context, repo, tag string, p ModulePackage) (string, error) {
	layers := p.Layers
	if layers == nil {
		z, err := Zip(p.Files)
		if err != nil {
			return "", err
		}
		layers = [][]byte{z}
	}
	mediaType := p.LayerMediaType
	if mediaType == "" {
		mediaType = ZipMediaType
	}
	artifactType := p.ArtifactType
	if artifactType == "" {
		artifactType = ModuleArtifactType
	}
	empty := []byte("{}")
	cfg, err := s.PushBlob(ctx, repo, empty)
	if err != nil {
		return "", err
	}
	m := struct {
		SchemaVersion int                `json:"schemaVersion"`
		MediaType     string             `json:"mediaType"`
		ArtifactType  string             `json:"artifactType"`
		Config        moduleDescriptor   `json:"config"`
		Layers        []moduleDescriptor `json:"layers"`
	}{2, moduleManifestType, artifactType, moduleDescriptor{moduleConfigType, cfg, len(empty)}, []moduleDescriptor{}}
	for _, l := range layers {
		d, err := s.PushBlob(ctx, repo, l)
		if err != nil {
			return "", err
		}
		m.Layers = append(m.Layers, moduleDescriptor{mediaType, d, len(l)})
	}
	body, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	ref := tag
	if ref == "" {
		ref = Digest(body)
	}
	return s.PushManifest(ctx, repo, ref, moduleManifestType, body)
}
