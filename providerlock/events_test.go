package providerlock

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// TestDownloadEvents: each package downloaded reports its bytes, up to
// its size, and its end, on both download paths (in memory, and to a
// file with -download-all); nothing is reported for packages whose hashes
// need no download.
func TestDownloadEvents(t *testing.T) {
	srv := registrytest.New(t, registrytest.Options{NoPackagesMap: true, Providers: []registrytest.Provider{{
		Namespace: "acme", Type: "foo",
		Versions: []registrytest.Version{{Version: "1.0.0", Platforms: []string{"linux_amd64", "darwin_arm64"}, Size: 1 << 20}},
	}}})
	p, err := addrs.ParseProviderSource("registry.opentofu.org/acme/foo")
	if err != nil {
		t.Fatal(err)
	}
	platforms := []addrs.Platform{{OS: "linux", Arch: "amd64"}, {OS: "darwin", Arch: "arm64"}}
	sizes := map[string]int64{}
	for _, pl := range platforms {
		info, err := srv.Package("acme", "foo", "1.0.0", pl.String())
		if err != nil {
			t.Fatal(err)
		}
		sizes[pl.String()] = info.Size
	}
	for _, downloadAll := range []bool{false, true} {
		client := registry.New(registry.Settings{
			Transport: srv.Transport(), Getenv: func(string) string { return "" },
			Environ: func() []string { return nil }, HostServices: srv.HostServices(),
		})
		cache := NewHashCache(t.TempDir())
		newLocker := func() *Locker {
			return &Locker{Source: providersource.NewRegistry(client, nil, nil), Client: client, TempDir: t.TempDir(), DownloadAll: downloadAll, Cache: cache}
		}
		l := newLocker()
		var mu sync.Mutex
		last, ended := map[string]int64{}, map[string]int{}
		ev := &Events{
			DownloadProgress: func(q addrs.Provider, v versions.Version, pl addrs.Platform, done, total int64) {
				mu.Lock()
				defer mu.Unlock()
				if q != p || v.String() != "1.0.0" {
					t.Errorf("progress of %s %s", q, v)
				}
				if done < last[pl.String()] || total > 0 && done > total {
					t.Errorf("%s: %d of %d bytes after %d", pl, done, total, last[pl.String()])
				}
				last[pl.String()] = done
			},
			DownloadEnded: func(_ addrs.Provider, _ versions.Version, pl addrs.Platform) {
				mu.Lock()
				defer mu.Unlock()
				ended[pl.String()]++
			},
		}
		if f := l.Collect(context.Background(), Requirements{p: nil}, nil, platforms, ev).Failed(); f != nil {
			t.Fatal(f.Err)
		}
		if diff := cmp.Diff(sizes, last); diff != "" {
			t.Errorf("download-all %v: bytes reported last (-size +reported):\n%s", downloadAll, diff)
		}
		if diff := cmp.Diff(map[string]int{"linux_amd64": 1, "darwin_arm64": 1}, ended); diff != "" {
			t.Errorf("download-all %v: ends (-want +got):\n%s", downloadAll, diff)
		}
		if downloadAll {
			continue
		}
		// Another run, with the hash cache: nothing downloads.
		last, ended = map[string]int64{}, map[string]int{}
		if f := newLocker().Collect(context.Background(), Requirements{p: nil}, nil, platforms, ev).Failed(); f != nil {
			t.Fatal(f.Err)
		}
		if len(last)+len(ended) != 0 {
			t.Errorf("run with the hash cache reported downloads: %v %v", last, ended)
		}
	}
}
