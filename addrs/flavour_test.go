package addrs

import (
	"testing"

	"github.com/tfdeps/tfdeps/flavour"
)

func TestParseProviderSourceIn(t *testing.T) {
	tests := []struct {
		f       flavour.Flavour
		src     string
		want    string
		display string
	}{
		{flavour.OpenTofu, "aws", "registry.opentofu.org/hashicorp/aws", "hashicorp/aws"},
		{flavour.Terraform, "aws", "registry.terraform.io/hashicorp/aws", "hashicorp/aws"},
		{flavour.Terraform, "acme/thing", "registry.terraform.io/acme/thing", "acme/thing"},
		{flavour.Terraform, "registry.opentofu.org/acme/thing", "registry.opentofu.org/acme/thing", "registry.opentofu.org/acme/thing"},
		{flavour.OpenTofu, "registry.terraform.io/acme/thing", "registry.terraform.io/acme/thing", "registry.terraform.io/acme/thing"},
		{flavour.Terraform, "example.com/acme/thing", "example.com/acme/thing", "example.com/acme/thing"},
	}
	for _, tt := range tests {
		t.Run(tt.f.String()+"/"+tt.src, func(t *testing.T) {
			p, err := ParseProviderSourceIn(tt.f, tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if got := p.ForDisplayIn(tt.f); got != tt.display {
				t.Errorf("ForDisplayIn() = %q, want %q", got, tt.display)
			}
		})
	}
	if _, err := ParseProviderSourceIn(flavour.Terraform, "a/b/c/d"); err == nil {
		t.Error("four parts accepted")
	}
	if got := ImpliedProviderIn(flavour.Terraform, "terraform"); got != NewBuiltInProvider("terraform") {
		t.Errorf("implied terraform = %v", got)
	}
	if got := ImpliedProviderIn(flavour.Terraform, "aws"); !got.IsDefaultIn(flavour.Terraform) || got.IsDefault() {
		t.Errorf("implied aws = %v", got)
	}
}
