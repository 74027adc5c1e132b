package installer

import (
	"testing"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
)

// Registry-reported hashes of an unsigned package count only on
// registry.opentofu.org in the OpenTofu flavour; Terraform records
// registry hashes only from signed packages.
func TestSigningEnforcedByFlavour(t *testing.T) {
	tofuHost := addrs.Provider{Hostname: addrs.DefaultProviderRegistryHost, Namespace: "hashicorp", Type: "null"}
	other := addrs.Provider{Hostname: "example.com", Namespace: "hashicorp", Type: "null"}
	for _, tc := range []struct {
		f       flavour.Flavour
		enforce bool
		p       addrs.Provider
		want    bool
	}{
		{flavour.OpenTofu, false, tofuHost, false},
		{flavour.OpenTofu, true, tofuHost, true},
		{flavour.OpenTofu, false, other, true},
		{flavour.Terraform, false, tofuHost, true},
		{flavour.Terraform, false, other, true},
	} {
		r := &installRun{in: &Installer{Flavour: tc.f, EnforceGPG: tc.enforce}}
		if got := r.signingEnforced(tc.p); got != tc.want {
			t.Errorf("%v, EnforceGPG=%v, %s: signingEnforced = %v, want %v", tc.f, tc.enforce, tc.p, got, tc.want)
		}
	}
}
