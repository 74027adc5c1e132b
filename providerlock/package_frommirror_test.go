package providerlock

import (
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/providersource"
)

func TestFromMirror(t *testing.T) {
	const (
		h1a = hashes.Hash("h1:hlyM+yZpyaslSgZu8xhN+jVRvnSG+i6z1/yyfL5dNec=")
		h1b = hashes.Hash("h1:wj9I60q1LBOEyBaHHMj4TBM4DWiCQE36I/geLulTp3U=")
		zha = hashes.Hash("zh:4ac30e3fab8fbb1ae749f8355b89a9d331dd0f8275e35974ef20f5a646a88ac6")
		zhb = hashes.Hash("zh:5397426f1e8fb2e1fe21c81f7958395bda3f1c99a3762ea013df2ab9f92ff5b0")
	)
	pl := addrs.Platform{OS: "linux", Arch: "amd64"}
	archive := providersource.HTTPURL{URL: mustURL(t, "https://mirror.example/x/terraform-provider-baz_1.0.0_linux_amd64.zip")}
	p := addrs.Provider{Hostname: "example.com", Namespace: "acme", Type: "baz"}
	tests := []struct {
		name      string
		loc       providersource.Location // nil: archive
		untrusted bool                    // the user does not trust the mirror
		auth      providersource.Authentication
		want      []hashes.Hash // nil: download
	}{
		{"untrusted mirror downloads", nil, true, &providersource.MirrorAuthentication{Platform: pl, Hashes: []hashes.Hash{h1a, zha}}, nil},
		{"local archive downloads", providersource.LocalArchive("x.zip"), false, &providersource.MirrorAuthentication{Platform: pl, Hashes: []hashes.Hash{h1a, zha}}, nil},
		{"h1 and zh", nil, false, &providersource.MirrorAuthentication{Platform: pl, Hashes: []hashes.Hash{h1a, zha}}, []hashes.Hash{h1a, zha}},
		{"h1 only", nil, false, &providersource.MirrorAuthentication{Platform: pl, Hashes: []hashes.Hash{h1a}}, []hashes.Hash{h1a}},
		{"unknown scheme ignored", nil, false, &providersource.MirrorAuthentication{Platform: pl, Hashes: []hashes.Hash{"x9:abc", h1a}}, []hashes.Hash{h1a}},
		{"zh only downloads", nil, false, &providersource.MirrorAuthentication{Platform: pl, Hashes: []hashes.Hash{zha}}, nil},
		{"two h1 download", nil, false, &providersource.MirrorAuthentication{Platform: pl, Hashes: []hashes.Hash{h1a, h1b, zha}}, nil},
		{"two zh download", nil, false, &providersource.MirrorAuthentication{Platform: pl, Hashes: []hashes.Hash{h1a, zha, zhb}}, nil},
		{"trust_all_hashes downloads", nil, false, &providersource.MirrorAuthentication{Platform: pl, Hashes: []hashes.Hash{h1a, zha}, TrustAllHashes: true}, nil},
		{"no authentication downloads", nil, false, nil, nil},
		{"registry authentication is not a mirror's", nil, false, &providersource.RegistryAuthentication{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &Locker{TrustMirrorHashes: !tt.untrusted}
			loc := tt.loc
			if loc == nil {
				loc = archive
			}
			o, ok := l.fromMirror(providersource.PackageMeta{Provider: p, TargetPlatform: pl, Location: loc, Authentication: tt.auth})
			if ok != (tt.want != nil) {
				t.Fatalf("fromMirror ok = %v, want %v", ok, tt.want != nil)
			}
			if !ok {
				return
			}
			if o.via != FromMirror {
				t.Errorf("via = %v, want FromMirror", o.via)
			}
			if diff := cmp.Diff(tt.want, l.recorded(p, o.dirH1, o.auth)); diff != "" {
				t.Errorf("recorded hashes (-want +got):\n%s", diff)
			}
			// "- Retrieved ... (verified checksum)", as after a download.
			if got := o.auth.Summary(); got != "verified checksum" {
				t.Errorf("summary = %q, want %q", got, "verified checksum")
			}
		})
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
