package cliconfig

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opentofu/svchost"
)

func TestCredentialsToken(t *testing.T) {
	cfg := &Config{
		Credentials: map[string]map[string]any{
			"registry.example.com":  {"token": "from-block"},
			"Café.fr":               {"token": "block-cafe"},
			"no-token.example.com":  {"other": "x"},
			"int-token.example.com": {"token": 5},
			"a..b":                  {"token": "invalid label"},
		},
		Hosts: map[string]*Host{
			"Example.COM:443": {Services: map[string]any{"providers.v1": "/v1/"}},
			"bad..host":       {Services: map[string]any{}},
		},
	}
	environ := []string{
		"TF_TOKEN_env_example_com=env-token",
		"TF_TOKEN_registry_example_com=env-wins",
		"TF_TOKEN_my__host_example_com=dashed",
		"TF_TOKEN_xn____caf__dma_fr=first",
		"TF_TOKEN_café_fr=later-wins",
		"TF_TOKEN_localhost:8443=with-port",
		"TF_TOKEN_bad..name=ignored",
		"NOT_TF_TOKEN_x_com=no",
	}
	creds := cfg.CredentialsSource(Options{Environ: environ})
	tests := []struct {
		host   svchost.Hostname
		want   string
		wantOK bool
	}{
		{"env.example.com", "env-token", true},
		{"registry.example.com", "env-wins", true},
		{"my-host.example.com", "dashed", true},
		{"xn--caf-dma.fr", "later-wins", true},
		{"localhost:8443", "with-port", true},
		{"no-token.example.com", "", false},
		{"int-token.example.com", "", false},
		{"x.com", "", false},
		{"unknown.example.com", "", false},
	}
	for _, tt := range tests {
		t.Run(string(tt.host), func(t *testing.T) {
			got, ok := creds.Token(tt.host)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Token(%s) = %q, %v; want %q, %v", tt.host, got, ok, tt.want, tt.wantOK)
			}
		})
	}
	t.Run("block only", func(t *testing.T) {
		got, ok := cfg.CredentialsSource(Options{}).Token("xn--caf-dma.fr")
		if got != "block-cafe" || !ok {
			t.Errorf("got %q %v", got, ok)
		}
	})
	t.Run("host services", func(t *testing.T) {
		want := map[svchost.Hostname]map[string]any{"example.com": {"providers.v1": "/v1/"}}
		if diff := cmp.Diff(want, cfg.HostServices()); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}
