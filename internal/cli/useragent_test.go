package cli

import "testing"

func TestUserAgent(t *testing.T) {
	tests := []struct {
		name, setting, want string
	}{
		{"default", "", "tfdeps/" + Version},
		{"opentofu", "opentofu", "OpenTofu/1.12.0"},
		{"opentofu any case", "OpenTofu", "OpenTofu/1.12.0"},
		{"unknown value", "curl", "tfdeps/" + Version},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &Meta{TofuVersion: "1.12.0"}
			m.Getenv = func(k string) string {
				if k == "TFDEPS_USER_AGENT" {
					return tc.setting
				}
				return ""
			}
			if got := m.userAgent(); got != tc.want {
				t.Errorf("userAgent() = %q, want %q", got, tc.want)
			}
		})
	}
}
