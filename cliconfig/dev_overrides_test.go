package cliconfig

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
)

func TestDevOverridesWarning(t *testing.T) {
	if DevOverridesWarning(flavour.OpenTofu, nil) != nil {
		t.Errorf("warning without overrides")
	}
	overrides := map[addrs.Provider]string{
		addrs.NewProvider("example.com", "acme", "foo"): "/home/dev/foo",
		addrs.NewDefaultProvider("aws"):                 "/home/dev/aws",
		// A path is the user's text: never reworded.
		addrs.NewProvider(flavour.TerraformRegistryHost, "hashicorp", "null"): "/home/OpenTofu/tofu init",
	}
	tests := []struct {
		flavour flavour.Flavour
		want    string
	}{
		{flavour.OpenTofu, "W: Provider development overrides are in effect | " +
			"The following provider development overrides are set in the CLI configuration:\n" +
			" - example.com/acme/foo in /home/dev/foo\n" +
			" - hashicorp/aws in /home/dev/aws\n" +
			" - registry.terraform.io/hashicorp/null in /home/OpenTofu/tofu init\n" +
			"\nSkip tofu init when using provider development overrides. It is not necessary and may error unexpectedly."},
		{flavour.Terraform, "W: Provider development overrides are in effect | " +
			"The following provider development overrides are set in the CLI configuration:\n" +
			" - example.com/acme/foo in /home/dev/foo\n" +
			" - registry.opentofu.org/hashicorp/aws in /home/dev/aws\n" +
			" - hashicorp/null in /home/OpenTofu/tofu init\n" +
			"\nSkip terraform init when using provider development overrides. It is not necessary and may error unexpectedly."},
	}
	for _, tt := range tests {
		got := DevOverridesWarning(tt.flavour, overrides)
		if diff := cmp.Diff([]string{tt.want}, diagText([]*hcl.Diagnostic{got})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.flavour, diff)
		}
	}
}
