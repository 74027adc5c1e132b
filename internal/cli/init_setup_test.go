package cli

import (
	"testing"

	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/flavour"
)

// TestEnforceGPGOnlyOpenTofu: OPENTOFU_ENFORCE_GPG_VALIDATION=true makes
// the OpenTofu flavour record only signed hashes of registry.opentofu.org
// providers; Terraform has no such variable and ignores it.
func TestEnforceGPGOnlyOpenTofu(t *testing.T) {
	tests := []struct {
		flavour flavour.Flavour
		value   string
		want    bool
	}{
		{flavour.OpenTofu, "true", true},
		{flavour.OpenTofu, "1", false},
		{flavour.OpenTofu, "", false},
		{flavour.Terraform, "true", false},
	}
	for _, tt := range tests {
		getenv := func(k string) string {
			if k == "OPENTOFU_ENFORCE_GPG_VALIDATION" {
				return tt.value
			}
			return ""
		}
		m := &Meta{Env: Env{Getenv: getenv}, Flavour: tt.flavour, Platform: "linux_amd64"}
		in, err := newInstaller(m, &cliconfig.Config{}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if in.EnforceGPG != tt.want {
			t.Errorf("%s, OPENTOFU_ENFORCE_GPG_VALIDATION=%q: EnforceGPG = %v, want %v", tt.flavour, tt.value, in.EnforceGPG, tt.want)
		}
	}
}

// TestRegistrySettingsFlavour: the registry clients of init, providers
// lock and providers mirror follow the flavour's signature rules, with the
// test binary's stand-in keys when it has them.
func TestRegistrySettingsFlavour(t *testing.T) {
	for _, f := range []flavour.Flavour{flavour.OpenTofu, flavour.Terraform} {
		m := &Meta{Env: Env{Getenv: func(string) string { return "" }}, Flavour: f, terraformKeys: testTerraformKeys()}
		s := m.registrySettings()
		if s.Flavour != f {
			t.Errorf("registrySettings().Flavour = %v, want %v", s.Flavour, f)
		}
		if s.TerraformKeys != m.terraformKeys {
			t.Errorf("registrySettings() does not pass the Meta's Terraform keys")
		}
	}
	if (&Meta{Env: Env{Getenv: func(string) string { return "" }}}).registrySettings().TerraformKeys != nil {
		t.Errorf("registrySettings() has Terraform keys without the test binary's")
	}
}
