package registry

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opentofu/svchost"
)

func TestTokenVariableHost(t *testing.T) {
	tests := []struct {
		name   string
		want   svchost.Hostname
		wantOK bool
	}{
		{"TF_TOKEN_registry_example_com", "registry.example.com", true},
		{"TF_TOKEN_my__registry_example_com", "my-registry.example.com", true},
		{"TF_TOKEN_café_fr", "xn--caf-dma.fr", true},
		{"TF_TOKEN_xn____caf__dma_fr", "xn--caf-dma.fr", true},
		{"TF_TOKEN_xn--caf-dma_fr", "xn--caf-dma.fr", true},
		{"TF_TOKEN_localhost:8443", "localhost:8443", true},
		{"TF_TOKEN_", "", false},
		{"TF_TOKEN_a__", "", false},
		{"TF_TOKEN_bad host", "", false},
		{"TF_TOKENS_x", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := TokenVariableHost(tt.name)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("TokenVariableHost(%q) = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestCredentialsPrecedence(t *testing.T) {
	c := NewCredentials(
		[]string{"TF_TOKEN_a_example=env-first", "TF_TOKEN_A_EXAMPLE=env-later", "TF_TOKEN_empty_example=", "PATH=/bin"},
		map[string]string{"a.example": "config", "b.example": "config-b", "Not A Host": "x"},
		"",
	)
	got := map[string]string{}
	for _, h := range []svchost.Hostname{"a.example", "b.example", "empty.example", "c.example"} {
		tok, err := c.Token(h)
		if err != nil {
			t.Fatal(err)
		}
		got[string(h)] = tok
	}
	want := map[string]string{"a.example": "env-later", "b.example": "config-b", "empty.example": "", "c.example": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	helper := NewCredentials(nil, nil, "corp")
	if _, err := helper.Token("a.example"); errText(err) != `credentials helper "corp" is not supported by tfdeps` {
		t.Errorf("helper error = %v", err)
	}
}
