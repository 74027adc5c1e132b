package providermirror

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

// TestDownloadEvents: each package downloaded reports its bytes up to its
// size and its end; a second build finds the packages in place and
// downloads nothing.
func TestDownloadEvents(t *testing.T) {
	srv := registrytest.New(t, registrytest.Options{Providers: []registrytest.Provider{{
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
	client := registry.New(registry.Settings{
		Transport: srv.Transport(), Getenv: func(string) string { return "" },
		Environ: func() []string { return nil }, HostServices: srv.HostServices(),
	})
	b := &Builder{Source: providersource.NewRegistry(client, nil, nil), Client: client, Target: t.TempDir()}
	req := Request{Requirements: map[addrs.Provider]versions.Constraints{p: nil}, Platforms: platforms}
	var mu sync.Mutex
	var last map[string]int64
	var ended map[string]int
	ev := &Events{
		DownloadProgress: func(_ addrs.Provider, v versions.Version, pl addrs.Platform, done, total int64) {
			mu.Lock()
			defer mu.Unlock()
			if done < last[pl.String()] {
				t.Errorf("%s: %d bytes after %d", pl, done, last[pl.String()])
			}
			last[pl.String()] = done
		},
		DownloadEnded: func(_ addrs.Provider, _ versions.Version, pl addrs.Platform) {
			mu.Lock()
			defer mu.Unlock()
			ended[pl.String()]++
		},
	}
	for run, want := range []map[string]int{{"linux_amd64": 1, "darwin_arm64": 1}, {}} {
		last, ended = map[string]int64{}, map[string]int{}
		if probs := b.Build(context.Background(), req, ev); len(probs) > 0 {
			t.Fatal(probs)
		}
		if diff := cmp.Diff(want, ended); diff != "" {
			t.Errorf("run %d: ends (-want +got):\n%s", run, diff)
		}
		if run == 0 {
			if diff := cmp.Diff(sizes, last); diff != "" {
				t.Errorf("bytes reported last (-size +reported):\n%s", diff)
			}
		} else if len(last) > 0 {
			t.Errorf("run %d: bytes reported: %v", run, last)
		}
	}
}
