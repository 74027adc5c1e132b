package providermirror

import (
	"context"
	"strings"
	"testing"

	"oras.land/oras-go/v2/registry/remote"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/ocitest"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// ociPushFixture is an upstream registry with acme/foo 1.0.0 for two
// platforms and an OCI registry to push into.
type ociPushFixture struct {
	upstream  *registrytest.Server
	oci       *ocitest.Server
	builder   *Builder
	req       Request
	provider  addrs.Provider
	platforms []addrs.Platform
}

func newOCIPushFixture(t *testing.T) *ociPushFixture {
	t.Helper()
	f := &ociPushFixture{platforms: []addrs.Platform{{OS: "linux", Arch: "amd64"}, {OS: "darwin", Arch: "arm64"}}}
	f.upstream = registrytest.New(t, registrytest.Options{Providers: []registrytest.Provider{{
		Namespace: "acme", Type: "foo",
		Versions: []registrytest.Version{{Version: "1.0.0", Platforms: []string{"linux_amd64", "darwin_arm64"}}},
	}}})
	s, err := ocitest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	f.oci = s
	f.provider = addrs.NewProvider(addrs.DefaultProviderRegistryHost, "acme", "foo")
	client := registry.New(registry.Settings{
		Transport: f.upstream.Transport(), Getenv: func(string) string { return "" },
		Environ: func() []string { return nil }, HostServices: f.upstream.HostServices(),
	})
	repoFor := func(p addrs.Provider) (string, string, error) {
		return s.Host, "mirror/" + p.Namespace + "/" + p.Type, nil
	}
	clientFor := func(context.Context, string, string) (remote.Client, error) {
		return providersource.OCIClient(registry.Settings{Transport: s.Client.Transport}, nil), nil
	}
	f.builder = &Builder{
		Source: providersource.NewRegistry(client, nil, nil), Client: client,
		OCI: providersource.NewOCIMirror(repoFor, clientFor),
	}
	f.req = Request{Requirements: map[addrs.Provider]versions.Constraints{f.provider: nil}, Platforms: f.platforms}
	return f
}

func (f *ociPushFixture) build(t *testing.T) ([]providersource.OCIPushResult, []Problem) {
	t.Helper()
	var pushed []providersource.OCIPushResult
	ev := &Events{Pushed: func(p addrs.Provider, v versions.Version, res providersource.OCIPushResult) {
		if p != f.provider || v.String() != "1.0.0" {
			t.Errorf("pushed %s v%s", p, v)
		}
		pushed = append(pushed, res)
	}}
	probs := f.builder.Build(context.Background(), f.req, ev)
	return pushed, probs
}

// TestPushOCI: without a target directory the packages are downloaded into
// a temporary one and pushed; what is pushed carries the upstream's zh:
// hashes; a second run sends no blob.
func TestPushOCI(t *testing.T) {
	f := newOCIPushFixture(t)
	pushed, probs := f.build(t)
	if len(probs) > 0 || len(pushed) != 1 {
		t.Fatalf("problems %v, pushed %v", probs, pushed)
	}
	if got := pushed[0]; got.BlobsPushed != 3 || got.BlobsPresent != 0 || got.Repository != f.oci.Host+"/mirror/acme/foo" {
		t.Errorf("first push: %+v", got)
	}
	if f.builder.Target != "" {
		t.Errorf("temporary target left set: %s", f.builder.Target)
	}
	pushed, probs = f.build(t)
	if len(probs) > 0 || len(pushed) != 1 {
		t.Fatalf("second run: problems %v, pushed %v", probs, pushed)
	}
	if got := pushed[0]; got.BlobsPushed != 0 || got.BlobsPresent != 3 || got.ManifestsPushed != 0 {
		t.Errorf("second push: %+v", got)
	}
	v, err := versions.ParseVersion("1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	for _, pl := range f.platforms {
		meta, err := f.builder.OCI.PackageMeta(context.Background(), f.provider, v, pl)
		if err != nil {
			t.Fatal(err)
		}
		info, err := f.upstream.Package("acme", "foo", "1.0.0", pl.String())
		if err != nil {
			t.Fatal(err)
		}
		if got := meta.Location.(providersource.OCIBlob).ZH(); got != hashes.Hash(info.ZH()) {
			t.Errorf("%s: pushed %s, upstream %s", pl, got, info.ZH())
		}
	}
}

// TestPushOCITampered: an archive that does not match the upstream's
// checksums is refused and nothing reaches the OCI registry.
func TestPushOCITampered(t *testing.T) {
	f := newOCIPushFixture(t)
	f.upstream.Inject(registrytest.Archive, registrytest.Fault{Kind: registrytest.Tamper})
	pushed, probs := f.build(t)
	if len(pushed) != 0 || len(probs) == 0 {
		t.Fatalf("pushed %v, problems %v", pushed, probs)
	}
	if !strings.Contains(probs[0].Detail, "Failed to authenticate") {
		t.Errorf("problem: %+v", probs[0])
	}
	if n := f.oci.Requests(); n != 0 {
		t.Errorf("%d requests reached the OCI registry", n)
	}
}

func TestUpstreamZH(t *testing.T) {
	linux, mac := addrs.Platform{OS: "linux", Arch: "amd64"}, addrs.Platform{OS: "darwin", Arch: "arm64"}
	auth := &registry.AuthResult{}
	auth.Add("zh:aa", registry.Disposition{Platform: linux, SignedByKeyIDs: []string{"K"}})
	auth.Add("h1:bb", registry.Disposition{Platform: linux, VerifiedLocally: true})
	auth.Add("zh:cc", registry.Disposition{Platform: mac, ReportedByRegistry: true})
	auth.Add("zh:dd", registry.Disposition{Platform: addrs.Platform{OS: "windows", Arch: "amd64"}, VerifiedLocally: true})
	for _, tc := range []struct {
		pl   addrs.Platform
		want hashes.Hash
		ok   bool
	}{
		{linux, "zh:aa", true},
		{mac, "zh:cc", true},
		{addrs.Platform{OS: "windows", Arch: "amd64"}, "", false}, // only computed locally
	} {
		got, ok := upstreamZH(auth, tc.pl)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: %q %v, want %q %v", tc.pl, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := upstreamZH(nil, linux); ok {
		t.Error("nil result gave a hash")
	}
}

// TestPushOCIIncomplete: a version one of whose platforms failed is not
// pushed at all.
func TestPushOCIIncomplete(t *testing.T) {
	f := newOCIPushFixture(t)
	f.req.Platforms = append(f.req.Platforms, addrs.Platform{OS: "windows", Arch: "arm64"})
	pushed, probs := f.build(t)
	if len(pushed) != 0 || len(probs) != 1 {
		t.Fatalf("pushed %v, problems %v", pushed, probs)
	}
	if n := f.oci.Requests(); n != 0 {
		t.Errorf("%d requests reached the OCI registry", n)
	}
}
