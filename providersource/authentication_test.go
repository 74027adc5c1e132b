package providersource

import (
	"context"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

func TestMirrorAuthentication(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	ctx := context.Background()
	client := registry.New(registry.Settings{Transport: srv.Transport(), Environ: func() []string { return nil }, Getenv: func(string) string { return "" }})
	info, err := srv.Package("hashicorp", "widget", "1.0.0", "linux_amd64")
	if err != nil {
		t.Fatal(err)
	}
	other, err := srv.Package("hashicorp", "widget", "1.0.0", "darwin_arm64")
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(srv.MirrorBaseURL() + "registry.opentofu.org/hashicorp/widget/" + info.Filename)
	archive, err := client.Download(ctx, registry.DownloadRequest{URL: u, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer archive.Remove()

	h1, zh := hashes.Hash(info.H1), hashes.Hash(info.ZH())
	oh1, ozh := hashes.Hash(other.H1), hashes.Hash(other.ZH())
	verified := registry.Disposition{VerifiedLocally: true, Platform: linux}
	trusted := registry.Disposition{ReportedByTrustedMirror: true, Platform: linux}
	tests := []struct {
		name    string
		auth    MirrorAuthentication
		want    map[hashes.Hash]registry.Disposition
		summary string
		wantErr string
	}{
		{name: "both match", auth: MirrorAuthentication{Platform: linux, Hashes: []hashes.Hash{h1, zh}},
			want: map[hashes.Hash]registry.Disposition{h1: verified, zh: verified}, summary: "verified checksum"},
		{name: "zh only", auth: MirrorAuthentication{Platform: linux, Hashes: []hashes.Hash{zh, "md5:abc"}},
			want: map[hashes.Hash]registry.Disposition{zh: verified}, summary: "verified checksum"},
		{name: "trust all hashes", auth: MirrorAuthentication{Platform: linux, Hashes: []hashes.Hash{oh1, ozh, h1, zh}, TrustAllHashes: true},
			want: map[hashes.Hash]registry.Disposition{h1: verified, zh: verified, oh1: trusted, ozh: trusted}, summary: "verified checksum"},
		{name: "no supported scheme", auth: MirrorAuthentication{Platform: linux, Hashes: []hashes.Hash{"md5:abc"}},
			wantErr: "this version of OpenTofu does not support any of the checksum formats given for this provider"},
		{name: "one wrong hash", auth: MirrorAuthentication{Platform: linux, Hashes: []hashes.Hash{ozh}},
			wantErr: `provider package doesn't match the expected checksum "` + string(ozh) + `"`},
		{name: "several wrong hashes", auth: MirrorAuthentication{Platform: linux, Hashes: []hashes.Hash{ozh, oh1}, TrustAllHashes: true},
			wantErr: "provider package doesn't match the any of the expected checksums"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tt.auth.AuthenticateArchive(archive)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || res != nil {
					t.Fatalf("got %v, %v; want error %s", res, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, res.Hashes); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if res.Summary() != tt.summary {
				t.Errorf("summary %q", res.Summary())
			}
		})
	}
}

func TestRegistrySource(t *testing.T) {
	opts := fakeOptions()
	opts.Warnings = []string{"be careful"}
	srv := registrytest.New(t, opts)
	settings := fakeRegistrySettings(t, srv)
	src := NewRegistry(registry.New(settings), nil, nil)
	ctx := context.Background()

	list, warnings, err := src.AvailableVersions(ctx, widget)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(versions.List{{Major: 1}, {Major: 2}}, list); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Warnings{"be careful"}, warnings); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	meta, err := src.PackageMeta(ctx, widget, versions.Version{Major: 1}, linux)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := meta.Authentication.(*RegistryAuthentication); !ok || meta.Location == nil || len(meta.ProtocolVersions) == 0 {
		t.Errorf("got %#v", meta)
	}
	client := registry.New(settings)
	u := meta.Location.(HTTPURL).URL
	archive, err := client.Download(ctx, registry.DownloadRequest{URL: u, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer archive.Remove()
	res, err := meta.Authentication.AuthenticateArchive(archive)
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary() != "signed" {
		t.Errorf("summary %q", res.Summary())
	}
	if got := src.ForDisplay(widget); got != "registry registry.opentofu.org" {
		t.Errorf("ForDisplay = %q", got)
	}
	_, _, err = src.AvailableVersions(ctx, addrs.NewDefaultProvider("nope"))
	if !isNotKnown(err) {
		t.Errorf("got %v", err)
	}
}

// fakeRegistrySettings returns registry settings that reach srv for the
// default registry host.
func fakeRegistrySettings(t *testing.T, srv *registrytest.Server) registry.Settings {
	t.Helper()
	return registry.Settings{
		Transport:    srv.Transport(),
		Environ:      func() []string { return nil },
		Getenv:       func(string) string { return "" },
		HostServices: map[string]map[string]any{"registry.opentofu.org": {"providers.v1": srv.ProvidersBaseURL()}},
	}
}
