package ocitest

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// TestPushModule: a pushed module package is an image manifest of the
// module artifact type, an empty config and one zip layer holding the
// files; equal files give equal digests.
func TestPushModule(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	files := map[string]string{"main.tf": "# main\n", "sub/x.tf": "# x\n"}
	d, err := s.PushModule(ctx, "mods/net", "v1", files)
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, accept string) []byte {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, "https://"+s.Host+"/v2/mods/net/"+path, nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := s.Client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %s", path, resp.Status)
		}
		return b
	}
	body := get("manifests/v1", moduleManifestType)
	if Digest(body) != d {
		t.Fatalf("manifest digest %s, PushModule said %s", Digest(body), d)
	}
	var m struct {
		MediaType, ArtifactType string
		Config                  struct{ MediaType string }
		Layers                  []struct {
			MediaType, Digest string
			Size              int
		}
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if m.MediaType != moduleManifestType || m.ArtifactType != ModuleArtifactType || m.Config.MediaType != moduleConfigType || len(m.Layers) != 1 || m.Layers[0].MediaType != ZipMediaType {
		t.Fatalf("manifest %s", body)
	}
	z := get("blobs/"+m.Layers[0].Digest, "")
	zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
	if err != nil || len(z) != m.Layers[0].Size {
		t.Fatalf("layer: %v (%d bytes, manifest says %d)", err, len(z), m.Layers[0].Size)
	}
	got := map[string]string{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		got[f.Name] = string(b)
	}
	if len(got) != 2 || got["main.tf"] != files["main.tf"] || got["sub/x.tf"] != files["sub/x.tf"] {
		t.Fatalf("layer files %v", got)
	}
	again, err := s.PushModule(ctx, "mods/net", "v2", files)
	if err != nil || again != d {
		t.Fatalf("the same files pushed again: %s %v, want %s", again, err, d)
	}

	tampered := []byte("not the layer")
	s.TamperBlob(m.Layers[0].Digest, tampered)
	if b := get("blobs/"+m.Layers[0].Digest, ""); !bytes.Equal(b, tampered) {
		t.Fatalf("tampered blob served %q", b)
	}
}
