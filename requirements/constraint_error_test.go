package requirements

import (
	"testing"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/versions"
)

// The Terraform texts were observed from go-versions v1.0.2 (the version
// terraform v1.15.9 builds with) on the same inputs.
func TestConstraintErrorFlavours(t *testing.T) {
	tests := []struct {
		in, tofu, terraform string
	}{
		{"v1.2.3", `invalid specification "v1.2.3": a "v" prefix should not be used when specifying versions`, `a "v" prefix should not be used`},
		{"=v1.0.0", `invalid specification "=v1.0.0": a "v" prefix should not be used when specifying versions`, `invalid specification "=": only one space is expected after the operator "="`},
		{">=v1.0.0", `invalid specification ">=v1.0.0": a "v" prefix should not be used when specifying versions`, `invalid specification ">=": only one space is expected after the operator ">="`},
		{"!=v1", `invalid specification "!=v1": a "v" prefix should not be used when specifying versions`, `invalid specification "!=": only one space is expected after the operator "!="`},
		{"~>v1", `invalid specification "~>v1": a "v" prefix should not be used when specifying versions`, `invalid specification "~>": only one space is expected after the operator "~>"`},
		{">= v1.0.0", `invalid specification ">= v1.0.0": a "v" prefix should not be used when specifying versions`, `a "v" prefix should not be used`},
		{"~> v1.1.1", `invalid specification "~> v1.1.1": a "v" prefix should not be used when specifying versions`, `a "v" prefix should not be used`},
		{">=  v1", `invalid specification ">=  v1": a "v" prefix should not be used when specifying versions`, `invalid specification ">=  ": only one space is expected after the operator ">="`},
		{">= 1.0, < v2.0", `invalid specification "< v2.0": a "v" prefix should not be used when specifying versions`, `a "v" prefix should not be used`},
		{"1.0, >=v2", `invalid specification ">=v2": a "v" prefix should not be used when specifying versions`, `invalid specification ">=": only one space is expected after the operator ">="`},
		{"1.0, v2", `invalid specification "v2": a "v" prefix should not be used when specifying versions`, `a "v" prefix should not be used`},
		{"1.0 v2", `a "v" prefix should not be used when specifying versions`, `a "v" prefix should not be used`},
		{"~> 1.0v", `a "v" prefix should not be used when specifying versions`, `a "v" prefix should not be used`},
		{">=   3.0.0", `invalid specification ">=   3.0.0": only one space is expected after the operator ">="`, `invalid specification ">=   3.0.0": only one space is expected after the operator ">="`},
		{"1.2.3.4", `invalid specification "1.2.3.4": too many numbered portions; only three are allowed (major, minor, patch)`, `invalid specification "1.2.3.4": too many numbered portions; only three are allowed (major, minor, patch)`},
		{">=1.0 <v2", `missing comma after ">=1.0"`, `missing comma after ">=1.0"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := versions.ParseConstraints(tt.in)
			if err == nil {
				t.Fatalf("ParseConstraints(%q) succeeded, want an error", tt.in)
			}
			if got := constraintError(flavour.OpenTofu, err); got != tt.tofu {
				t.Errorf("OpenTofu: got %q, want %q", got, tt.tofu)
			}
			if got := constraintError(flavour.Terraform, err); got != tt.terraform {
				t.Errorf("Terraform: got %q, want %q", got, tt.terraform)
			}
		})
	}
}
