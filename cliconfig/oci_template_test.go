package cliconfig

import (
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/addrs"
)

func TestOCIMirrorTemplate(t *testing.T) {
	for _, tc := range []struct {
		src      string
		wantRepo string // domain/repository for registry.opentofu.org/hashicorp/null
		wantErr  string
	}{
		{src: "ghcr.io/acme/${namespace}-${type}-${hostname}", wantRepo: "ghcr.io/acme/hashicorp-null-registry.opentofu.org"},
		{src: "localhost:5000/${hostname}/${namespace}/${type}", wantRepo: "localhost:5000/registry.opentofu.org/hashicorp/null"},
		{src: "ghcr.io/${namespace}/${type}", wantErr: `The repository template "ghcr.io/${namespace}/${type}" of -oci is not valid: template must refer to the "hostname" symbol`},
		{src: "ghcr.io/${hostname}/${namespace}/${type}/${version}", wantErr: `the symbol "version" is not available`},
		{src: "${hostname}/${namespace}:${type}", wantErr: "must generate a valid OCI repository address"},
		{src: "ghcr.io/${hostname", wantErr: "Unclosed template interpolation sequence"},
	} {
		m, diags := OCIMirrorTemplate("-oci", tc.src)
		if tc.wantErr != "" {
			if m != nil || !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr) {
				t.Errorf("%s: got %v, %v; want error %q", tc.src, m, diags, tc.wantErr)
			}
			continue
		}
		if diags.HasErrors() {
			t.Fatalf("%s: %v", tc.src, diags)
		}
		domain, repo, err := m.OCIRepository(addrs.NewProvider("registry.opentofu.org", "hashicorp", "null"))
		if err != nil || domain+"/"+repo != tc.wantRepo {
			t.Errorf("%s: got %s/%s, %v; want %s", tc.src, domain, repo, err, tc.wantRepo)
		}
	}
}
