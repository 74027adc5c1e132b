package cli

import (
	"testing"

	"github.com/tfdeps/tfdeps/flavour"
)

// TestWordsFor: only the listed legacy texts are reworded, and only in
// the Terraform flavour; other text naming OpenTofu or tofu is left as
// written.
func TestWordsFor(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{lockCreatedText, lockCreatedTextIn(flavour.Terraform)},
		{"- registry.terraform.io/hashicorp/terraform is built in to OpenTofu", "- registry.terraform.io/hashicorp/terraform is built in to Terraform"},
		{signingNotice, "\nPartner and community providers are signed by their developers.\nIf you'd like to know more about provider signing, you can read about it here:\nhttps://developer.hashicorp.com/terraform/cli/plugins/signing"},
		{`run "tofu init" first`, `run "tofu init" first`},
		{"OpenTofu has created a lock file", "OpenTofu has created a lock file"},
		{"tofudir/main.tf", "tofudir/main.tf"},
	}
	for _, tt := range tests {
		if got := wordsFor(flavour.Terraform, tt.in); got != tt.want {
			t.Errorf("wordsFor(Terraform, %q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := wordsFor(flavour.OpenTofu, tt.in); got != tt.in {
			t.Errorf("wordsFor(OpenTofu, %q) = %q, want it unchanged", tt.in, got)
		}
	}
}
