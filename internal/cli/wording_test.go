package cli

import (
	"testing"

	"github.com/tfdeps/tfdeps/flavour"
)

func TestWordsFor(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`run "tofu init" first`, `run "terraform init" first`},
		{"run:\n  tofu init -upgrade", "run:\n  terraform init -upgrade"},
		{"OpenTofu has created a lock file", "Terraform has created a lock file"},
		{"\n[reset]OpenTofu encountered problems during initialization, including problems", "\n[reset]Terraform encountered problems during initialisation, including problems"},
		{signingNotice, "\nPartner and community providers are signed by their developers.\nIf you'd like to know more about provider signing, you can read about it here:\nhttps://developer.hashicorp.com/terraform/cli/plugins/signing"},
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
