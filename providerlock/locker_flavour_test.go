package providerlock

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/registry"
)

// TestRecordedHashesEnforceGPG: OPENTOFU_ENFORCE_GPG_VALIDATION=true keeps
// unsigned registry-reported hashes of registry.opentofu.org out of the
// lock in the OpenTofu flavour; the Terraform flavour ignores the variable
// and records only the directory's h1: and signed hashes whatever the host.
func TestRecordedHashesEnforceGPG(t *testing.T) {
	p, err := addrs.ParseProviderSource("registry.opentofu.org/acme/widget")
	if err != nil {
		t.Fatal(err)
	}
	const dirH1, local, reported = hashes.Hash("h1:dir"), hashes.Hash("zh:local"), hashes.Hash("zh:reported")
	auth := &registry.AuthResult{}
	auth.Add(local, registry.Disposition{VerifiedLocally: true, ReportedByRegistry: true})
	auth.Add(reported, registry.Disposition{ReportedByRegistry: true})
	all := []hashes.Hash{dirH1, local, reported}
	tests := []struct {
		name    string
		flavour flavour.Flavour
		env     map[string]string
		want    []hashes.Hash
	}{
		{"opentofu", flavour.OpenTofu, nil, all},
		{"opentofu enforced", flavour.OpenTofu, map[string]string{"OPENTOFU_ENFORCE_GPG_VALIDATION": "true"}, []hashes.Hash{dirH1, local}},
		// Terraform records the directory's h1: and signed hashes only (its
		// installer keeps no "verified locally" hashes).
		{"terraform", flavour.Terraform, nil, []hashes.Hash{dirH1}},
		{"terraform, variable false changes nothing", flavour.Terraform, map[string]string{"OPENTOFU_ENFORCE_GPG_VALIDATION": "false"}, []hashes.Hash{dirH1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &Locker{Flavour: tt.flavour, Getenv: func(k string) string { return tt.env[k] }}
			if diff := cmp.Diff(hashes.SortedUnique(tt.want), l.recorded(p, dirH1, auth)); diff != "" {
				t.Errorf("recorded hashes (-want +got):\n%s", diff)
			}
		})
	}
}
