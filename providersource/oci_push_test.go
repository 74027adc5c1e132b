package providersource

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/ocitest"
)

func TestOCIMirrorPushThenInstall(t *testing.T) {
	s := startOCI(t)
	ctx := context.Background()
	dir := t.TempDir()
	linuxZip := ocitest.ProviderZip("thing", "linux")
	macZip := ocitest.ProviderZip("thing", "mac")
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	zh := func(b []byte) hashes.Hash {
		return hashes.Hash("zh:" + strings.TrimPrefix(ocitest.Digest(b), "sha256:"))
	}
	pkgs := []OCIPushPackage{
		{Platform: linuxAMD64, Path: write("l.zip", linuxZip), ZH: zh(linuxZip)},
		{Platform: addrs.Platform{OS: "darwin", Arch: "arm64"}, Path: write("m.zip", macZip)},
	}
	m := ociMirrorFor(s, nil)
	provider := addrs.NewProvider(addrs.DefaultProviderRegistryHost, "acme", "thing")
	v := mustVersion(t, "1.2.3+b1")

	// A zip that does not match its expected hash stops the push first.
	bad := append([]OCIPushPackage(nil), pkgs...)
	bad[1].ZH = zh(linuxZip)
	before := s.Requests()
	if _, err := m.Push(ctx, provider, v, bad); err == nil || !strings.Contains(err.Error(), "does not match the expected checksum") {
		t.Fatalf("bad zip: %v", err)
	}
	if s.Requests() != before {
		t.Errorf("a refused push contacted the registry")
	}

	res, err := m.Push(ctx, provider, v, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	if res.BlobsPushed != 3 || res.ManifestsPushed != 3 || res.BlobsPresent != 0 {
		t.Errorf("first push: %+v", res)
	}
	res, err = m.Push(ctx, provider, v, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	if res.BlobsPushed != 0 || res.ManifestsPushed != 0 || res.BlobsPresent != 3 || res.ManifestsSeen != 3 {
		t.Errorf("second push: %+v", res)
	}

	// What was pushed is read back as OpenTofu's layout.
	list, _, err := m.AvailableVersions(ctx, provider)
	if err != nil || len(list) != 1 || list[0].String() != "1.2.3+b1" {
		t.Fatalf("versions %v, %v", list, err)
	}
	meta, err := m.PackageMeta(ctx, provider, list[0], linuxAMD64)
	if err != nil {
		t.Fatal(err)
	}
	a, err := meta.Location.(OCIBlob).Fetch(ctx, t.TempDir(), linuxAMD64)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Remove()
	if a.ZH() != zh(linuxZip) {
		t.Errorf("read back %s", a.ZH())
	}

	// Pushing one platform again keeps the other in the version's index.
	if _, err := m.Push(ctx, provider, v, pkgs[:1]); err != nil {
		t.Fatal(err)
	}
	mac := addrs.Platform{OS: "darwin", Arch: "arm64"}
	if meta, err := m.PackageMeta(ctx, provider, v, mac); err != nil || meta.Location.(OCIBlob).ZH() != zh(macZip) {
		t.Errorf("darwin_arm64 after pushing linux_amd64 alone: %v, %v", meta.Location, err)
	}
}
