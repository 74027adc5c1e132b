package lockfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadNullConstraints: constraints = null is an error in both flavours
// (tofu v1.12.6 and terraform v1.15.9 decode the argument into a plain
// string), where a null version is a missing argument.
func TestReadNullConstraints(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"null constraints", tfBlock("registry.opentofu.org/hashicorp/null", `version = "3.2.2"`, `constraints = null`), []string{
			`3:17-3:21 error: Unsuitable value type: Unsuitable value: null value is not allowed`,
		}},
		{"null version", tfBlock("registry.opentofu.org/hashicorp/null", `version = null`), []string{
			`2:13-2:17 error: Missing required argument: A provider lock block must contain a "version" argument.`,
		}},
	}
	for _, tt := range tests {
		for _, f := range []Flavour{OpenTofu, Terraform} {
			t.Run(tt.name+"/"+f.String(), func(t *testing.T) {
				_, _, diags := Read([]byte(tt.src), ".terraform.lock.hcl", ReadOptions{Flavour: f})
				if diff := cmp.Diff(tt.want, diagStrings(diags, false)); diff != "" {
					t.Errorf("diagnostics (-want +got):\n%s", diff)
				}
			})
		}
	}
}
