package providerlock

import (
	"context"
	"slices"
	"testing"

	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/ocitest"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/versions"
)

// TestFromOCI: the hash platform's package is downloaded (h1: and zh:);
// another platform gets the zh: of its manifest without a download, unless
// DownloadAll; a second lock with the hash cache downloads nothing.
func TestFromOCI(t *testing.T) {
	s, err := ocitest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	linux, mac := addrs.Platform{OS: "linux", Arch: "amd64"}, addrs.Platform{OS: "darwin", Arch: "arm64"}
	zips := map[addrs.Platform][]byte{linux: ocitest.ProviderZip("thing", "linux"), mac: ocitest.ProviderZip("thing", "mac")}
	pkgs := []ocitest.ProviderPackage{{OS: "linux", Arch: "amd64", Zip: zips[linux]}, {OS: "darwin", Arch: "arm64", Zip: zips[mac]}}
	if _, err := s.PushProvider(context.Background(), "acme/thing", "1.0.0", pkgs, ocitest.ProviderOptions{}); err != nil {
		t.Fatal(err)
	}
	src := providersource.NewOCIMirror(
		func(p addrs.Provider) (string, string, error) { return s.Host, p.Namespace + "/" + p.Type, nil },
		func(context.Context, string, string) (remote.Client, error) {
			return &auth.Client{Client: s.Client, Cache: auth.NewCache()}, nil
		})
	p := addrs.NewProvider(addrs.DefaultProviderRegistryHost, "acme", "thing")
	v, err := versions.ParseVersion("1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	zh := func(pl addrs.Platform) hashes.Hash {
		return hashes.Hash("zh:" + ocitest.Digest(zips[pl])[len("sha256:"):])
	}
	lock := func(l *Locker, pl addrs.Platform) []hashes.Hash {
		t.Helper()
		l.Source, l.OCIHashPlatform, l.TempDir = src, linux, t.TempDir()
		o := l.fetch(context.Background(), p, v, pl, nil, nil)
		if o.err != nil {
			t.Fatal(o.err)
		}
		r := o.only
		if r == nil {
			r = l.recorded(p, o.dirH1, o.auth)
		}
		return r
	}
	hasH1 := func(hs []hashes.Hash) bool {
		return slices.ContainsFunc(hs, func(h hashes.Hash) bool { return h.Scheme() == hashes.SchemeH1 })
	}
	cache := NewHashCache(t.TempDir())

	got := lock(&Locker{Cache: cache}, linux)
	if !hasH1(got) || !slices.Contains(got, zh(linux)) || len(got) != 2 || s.BlobGets() != 1 {
		t.Errorf("linux: %v after %d blob downloads", got, s.BlobGets())
	}
	got = lock(&Locker{Cache: cache}, mac)
	if !slices.Equal(got, []hashes.Hash{zh(mac)}) || s.BlobGets() != 1 {
		t.Errorf("darwin: %v after %d blob downloads", got, s.BlobGets())
	}
	got = lock(&Locker{Cache: cache}, linux)
	if !hasH1(got) || s.BlobGets() != 1 {
		t.Errorf("linux from the cache: %v after %d blob downloads", got, s.BlobGets())
	}
	got = lock(&Locker{DownloadAll: true}, mac)
	if !hasH1(got) || !slices.Contains(got, zh(mac)) || s.BlobGets() != 2 {
		t.Errorf("darwin, DownloadAll: %v after %d blob downloads", got, s.BlobGets())
	}
}
