package ocitest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

func TestPushProviderLayout(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	zip := ProviderZip("thing", "x")
	if _, err := s.PushProvider(context.Background(), "acme/thing", "1.0.0", []ProviderPackage{{OS: "linux", Arch: "amd64", Zip: zip}}, ProviderOptions{}); err != nil {
		t.Fatal(err)
	}
	get := func(path, accept string, v any) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, "https://"+s.Host+path, nil)
		req.Header.Set("Accept", accept)
		resp, err := s.Client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v: %s", path, err, b)
		}
	}
	var index struct {
		MediaType, ArtifactType string
		Manifests               []struct {
			Digest, ArtifactType string
			Platform             struct{ OS, Architecture string }
		}
	}
	get("/v2/acme/thing/manifests/1.0.0", MediaTypeIndex, &index)
	if index.MediaType != MediaTypeIndex || index.ArtifactType != ProviderArtifact || len(index.Manifests) != 1 ||
		index.Manifests[0].ArtifactType != TargetArtifact || index.Manifests[0].Platform.OS != "linux" {
		t.Fatalf("index %+v", index)
	}
	var manifest struct {
		ArtifactType string
		Layers       []struct{ MediaType, Digest string }
	}
	get("/v2/acme/thing/manifests/"+index.Manifests[0].Digest, MediaTypeManifest, &manifest)
	if manifest.ArtifactType != TargetArtifact || len(manifest.Layers) != 1 || manifest.Layers[0].MediaType != "archive/zip" || manifest.Layers[0].Digest != Digest(zip) {
		t.Fatalf("manifest %+v", manifest)
	}
}
