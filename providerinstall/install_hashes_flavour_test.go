package providerinstall

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/registry"
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

// TestRecordedLocalHashesByFlavour: a network mirror's checksum that the
// download matched is recorded in the OpenTofu flavour ("verified
// locally"); Terraform records only the installed directory's h1: and
// signed hashes (observed with terraform 1.15.9: init and providers lock
// through a network mirror lock the h1: alone).
func TestRecordedLocalHashesByFlavour(t *testing.T) {
	p := addrs.Provider{Hostname: "mirror.example", Namespace: "hashicorp", Type: "null"}
	const dirH1, matched = hashes.Hash("h1:dir"), hashes.Hash("zh:matched")
	auth := &AuthResult{}
	auth.Add(matched, registry.Disposition{VerifiedLocally: true})
	for _, tc := range []struct {
		f    flavour.Flavour
		want []hashes.Hash
	}{
		{flavour.OpenTofu, []hashes.Hash{dirH1, matched}},
		{flavour.Terraform, []hashes.Hash{dirH1}},
	} {
		r := &installRun{in: &Installer{Flavour: tc.f}}
		rec := r.recordedHashes(p, dirH1, nil, auth)
		if diff := cmp.Diff(tc.want, rec.all()); diff != "" {
			t.Errorf("%v: recorded (-want +got):\n%s", tc.f, diff)
		}
		if !rec.incomplete() {
			t.Errorf("%v: not incomplete, want the incomplete-lock warning", tc.f)
		}
	}
}
