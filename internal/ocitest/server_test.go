package ocitest

import (
	"context"
	"io"
	"net/http"
	"testing"
)

func TestPushAndFetch(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	d, err := s.PushBlob(ctx, "acme/thing", []byte("hello"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := s.PushBlob(ctx, "acme/thing", []byte("{}"))
	if err != nil {
		t.Fatal(err)
	}
	manifest := []byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","artifactType":"application/x-test","config":{"mediaType":"application/vnd.oci.empty.v1+json","digest":"` + cfg + `","size":2},"layers":[{"mediaType":"archive/zip","digest":"` + d + `","size":5}]}`)
	if _, err := s.PushManifest(ctx, "acme/thing", "v1", "application/vnd.oci.image.manifest.v1+json", manifest); err != nil {
		t.Fatal(err)
	}
	resp, err := s.Client.Get("https://" + s.Host + "/v2/acme/thing/blobs/" + d)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "hello" || s.BlobGets() != 1 {
		t.Fatalf("blob %q, %d blob gets", body, s.BlobGets())
	}

	s.RequireBasicAuth("u", "p")
	resp, err = s.Client.Get("https://" + s.Host + "/v2/acme/thing/tags/list")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" {
		t.Fatalf("without credentials: %s", resp.Status)
	}
}
