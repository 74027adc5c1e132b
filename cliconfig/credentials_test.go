package cliconfig

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCredentialsAndHosts(t *testing.T) {
	cfg := &Config{
		Credentials: map[string]map[string]any{
			"registry.example.com":  {"token": "from-block"},
			"no-token.example.com":  {"other": "x"},
			"int-token.example.com": {"token": 5},
		},
		CredentialsHelpers: map[string]*CredentialsHelper{"zz": {}, "aa": {Args: []string{"x"}}},
		Hosts: map[string]*Host{
			"Example.COM:443": {Services: map[string]any{"providers.v1": "/v1/"}},
			"empty.example":   {},
		},
	}
	if diff := cmp.Diff(map[string]string{"registry.example.com": "from-block"}, cfg.Tokens()); diff != "" {
		t.Errorf("Tokens (-want +got):\n%s", diff)
	}
	if got := cfg.CredentialsHelperName(); got != "aa" {
		t.Errorf("CredentialsHelperName = %q", got)
	}
	want := map[string]map[string]any{"Example.COM:443": {"providers.v1": "/v1/"}}
	if diff := cmp.Diff(want, cfg.HostServices()); diff != "" {
		t.Errorf("HostServices (-want +got):\n%s", diff)
	}
	var nilCfg *Config
	if len(nilCfg.Tokens())+len(nilCfg.HostServices()) != 0 || nilCfg.CredentialsHelperName() != "" {
		t.Errorf("nil config must be empty")
	}
}
