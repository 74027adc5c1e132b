package flavour

import "testing"

func TestParseRoundTrip(t *testing.T) {
	for _, f := range []Flavour{OpenTofu, Terraform} {
		got, err := Parse(f.String())
		if err != nil || got != f {
			t.Errorf("Parse(%q) = %v, %v; want %v", f.String(), got, err, f)
		}
	}
	if _, err := Parse("tofu"); err == nil {
		t.Error(`Parse("tofu") succeeded; want an error`)
	}
}

func TestFacts(t *testing.T) {
	tests := []struct {
		f                         Flavour
		product, command, host, v string
	}{
		{OpenTofu, "OpenTofu", "tofu", "registry.opentofu.org", "1.12.6"},
		{Terraform, "Terraform", "terraform", "registry.terraform.io", "1.15.9"},
	}
	for _, tt := range tests {
		t.Run(tt.f.String(), func(t *testing.T) {
			if got := tt.f.Product(); got != tt.product {
				t.Errorf("Product() = %q, want %q", got, tt.product)
			}
			if got := tt.f.Command(); got != tt.command {
				t.Errorf("Command() = %q, want %q", got, tt.command)
			}
			if got := string(tt.f.DefaultHost()); got != tt.host {
				t.Errorf("DefaultHost() = %q, want %q", got, tt.host)
			}
			if got := tt.f.DefaultVersion(); got != tt.v {
				t.Errorf("DefaultVersion() = %q, want %q", got, tt.v)
			}
		})
	}
}
