package providerlock

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
)

// TestDownloadUnwritten: without a packages map every package is
// downloaded and hashed; the archive is kept in memory (or spills to a
// file when the budget is small) and the recorded hashes are the same.
// A tampered archive is still refused by its checksum, as OpenTofu does.
func TestDownloadUnwritten(t *testing.T) {
	srv := registrytest.New(t, registrytest.Options{NoPackagesMap: true, Providers: []registrytest.Provider{{
		Namespace: "acme", Type: "foo",
		Versions: []registrytest.Version{{Version: "1.0.0", Platforms: []string{"linux_amd64", "darwin_arm64"}, Size: 5 << 20, Deflate: true}},
	}}})
	p, err := addrs.ParseProviderSource("registry.opentofu.org/acme/foo")
	if err != nil {
		t.Fatal(err)
	}
	platforms := []addrs.Platform{{OS: "linux", Arch: "amd64"}, {OS: "darwin", Arch: "arm64"}}
	var want [][]hashes.Hash
	var zhs []hashes.Hash
	for _, pl := range []string{"linux_amd64", "darwin_arm64"} {
		info, err := srv.Package("acme", "foo", "1.0.0", pl)
		if err != nil {
			t.Fatal(err)
		}
		zhs = append(zhs, hashes.Hash(info.ZH()))
		want = append(want, []hashes.Hash{hashes.Hash(info.H1)})
	}
	for i := range want {
		want[i] = hashes.SortedUnique(append(want[i], zhs...))
	}
	tests := []struct {
		name    string
		budget  int64
		tamper  bool
		wantErr string
	}{
		{name: "in memory"},
		{name: "spilled to a file", budget: spillChunk},
		{name: "no memory", budget: -1},
		{name: "tampered archive", tamper: true, wantErr: "archive has incorrect checksum"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.ClearFaults()
			if tt.tamper {
				srv.Inject(registrytest.Archive, registrytest.Fault{Kind: registrytest.Tamper})
			}
			client := registry.New(registry.Settings{
				Transport:    srv.Transport(),
				Getenv:       func(string) string { return "" },
				Environ:      func() []string { return nil },
				HostServices: srv.HostServices(),
			})
			l := &Locker{Source: providersource.NewRegistry(client, nil, nil), Client: client, TempDir: t.TempDir(), MemoryBudget: tt.budget}
			res := l.Collect(context.Background(), Requirements{p: nil}, nil, platforms, nil)
			if tt.wantErr != "" {
				f := res.Failed()
				if f == nil || !strings.Contains(f.Err.Providers[p].Error(), tt.wantErr) {
					t.Fatalf("result %+v, want the error %q", res, tt.wantErr)
				}
				return
			}
			if f := res.Failed(); f != nil {
				t.Fatal(f.Err)
			}
			for i, pr := range res.Platforms {
				if diff := cmp.Diff(want[i], pr.Packages[0].Hashes); diff != "" {
					t.Errorf("%s hashes (-want +got):\n%s", pr.Platform, diff)
				}
			}
		})
	}
}
