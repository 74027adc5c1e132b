package cli

import (
	"testing"

	"github.com/tfdeps/tfdeps/flavour"
)

// The texts were observed from "tofu providers" (v1.12.6) and "terraform
// providers" (v1.15.9) in a directory whose cloud block is not initialised;
// the Terraform text is compared after the CLI's wording (product and
// command names).
func TestCloudInitRequired(t *testing.T) {
	tests := []struct {
		flavour         flavour.Flavour
		summary, detail string
	}{
		{
			flavour.OpenTofu,
			`Cloud backend initialization required: please run "tofu init"`,
			"Reason: Initial configuration of cloud backend.\n\nChanges to the cloud backend configuration block require reinitialization, to discover any changes to the available workspaces.\n\nTo re-initialize, run:\n  tofu init\n\nOpenTofu has not yet made changes to your existing configuration or state.",
		},
		{
			flavour.Terraform,
			`HCP Terraform or Terraform Enterprise initialization required: please run "terraform init"`,
			"Reason: Initial configuration of HCP Terraform or Terraform Enterprise.\n\nChanges to the HCP Terraform configuration block require reinitialization, to discover any changes to the available workspaces.\n\nTo re-initialize, run:\n  terraform init\n\nTerraform has not yet made changes to your existing configuration or state.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.flavour.String(), func(t *testing.T) {
			d := cloudInitRequired(tt.flavour)
			if got := d.Summary; got != tt.summary {
				t.Errorf("summary: got %q, want %q", got, tt.summary)
			}
			if got := d.Detail; got != tt.detail {
				t.Errorf("detail: got %q, want %q", got, tt.detail)
			}
		})
	}
}
