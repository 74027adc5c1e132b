package lockfile

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

func TestCheckConsistency(t *testing.T) {
	lockSrc := `
provider "registry.opentofu.org/hashicorp/aws" {
  version     = "5.31.0"
  constraints = "~> 5.0"
}
provider "registry.opentofu.org/hashicorp/null" {
  version     = "3.2.2"
  constraints = "~> 3.0"
}
provider "registry.opentofu.org/hashicorp/unused" {
  version = "1.0.0"
}
`
	locks, _, diags := Read([]byte(lockSrc), "x.hcl", ReadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	aws, null, tls := addrs.NewDefaultProvider("aws"), addrs.NewDefaultProvider("null"), addrs.NewDefaultProvider("tls")
	c := versions.MustParseConstraints
	const head = "The following dependency selections recorded in the lock file are inconsistent with the current configuration:"
	const upgrade = "\n\nTo update the locked dependency selections to match a changed configuration, run:\n  tofu init -upgrade"
	tests := []struct {
		name  string
		reqs  Requirements
		locks *Locks
		opts  ConsistencyOptions
		want  string // Detail; "" means consistent
	}{
		{name: "consistent", reqs: Requirements{aws: c("~> 5.0"), null: nil}, locks: locks},
		{name: "unconstrained", reqs: Requirements{aws: nil}, locks: locks},
		{name: "skipped kinds", locks: locks, reqs: Requirements{
			addrs.NewBuiltInProvider("terraform"): nil, addrs.NewLegacyProvider("x"): nil, tls: nil},
			opts: ConsistencyOptions{Overridden: map[addrs.Provider]bool{tls: true}}},
		{name: "missing and changed", locks: locks, reqs: Requirements{aws: c(">= 6.0"), null: c("~> 3.0"), tls: nil},
			want: head +
				"\n  - provider registry.opentofu.org/hashicorp/aws: locked version selection 5.31.0 doesn't match the updated version constraints \">= 6.0.0\"" +
				"\n  - provider registry.opentofu.org/hashicorp/tls: required by this configuration but no version is selected" + upgrade},
		{name: "edited lock", locks: func() *Locks {
			l := New()
			l.SetProvider(aws, mustVersion(t, "4.0.0"), c("~> 5.0"), nil)
			return l
		}(), reqs: Requirements{aws: c("~>5.0")},
			want: head + "\n  - provider registry.opentofu.org/hashicorp/aws: version constraints \"~> 5.0\" don't match the locked version selection 4.0.0" + upgrade},
		{name: "empty lock", locks: New(), reqs: Requirements{aws: nil},
			want: head + "\n  - provider registry.opentofu.org/hashicorp/aws: required by this configuration but no version is selected" +
				"\n\nTo make the initial dependency selections that will initialize the dependency lock file, run:\n  tofu init"},
		{name: "requirements error", locks: locks, reqs: nil, opts: ConsistencyOptions{RequirementsErr: errors.New("boom")},
			want: head + "\n  - failed to determine the configuration's provider requirements: boom" + upgrade},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diags := CheckConsistency(tt.reqs, tt.locks, tt.opts)
			if tt.want == "" {
				if len(diags) != 0 {
					t.Fatalf("unexpected diagnostics: %v", diags)
				}
				return
			}
			if len(diags) != 1 || diags[0].Severity != hcl.DiagError || diags[0].Summary != "Inconsistent dependency lock file" || diags[0].Subject != nil {
				t.Fatalf("diagnostics = %v, want one Inconsistent dependency lock file error", diags)
			}
			if diff := cmp.Diff(tt.want, diags[0].Detail); diff != "" {
				t.Errorf("detail mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
