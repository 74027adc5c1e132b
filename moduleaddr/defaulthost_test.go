package moduleaddr

import "testing"

func TestParserDefaultHost(t *testing.T) {
	p := Parser{DefaultHost: "registry.terraform.io"}
	tests := []struct{ raw, want string }{
		{"hashicorp/consul/aws", "registry.terraform.io/hashicorp/consul/aws"},
		{"hashicorp/consul/aws//modules/x", "registry.terraform.io/hashicorp/consul/aws//modules/x"},
		{"example.com/hashicorp/consul/aws", "example.com/hashicorp/consul/aws"},
		{"registry.opentofu.org/hashicorp/consul/aws", "registry.opentofu.org/hashicorp/consul/aws"},
	}
	for _, tt := range tests {
		src, err := p.Parse(tt.raw)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.raw, err)
		}
		if got := src.String(); got != tt.want {
			t.Errorf("Parse(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
	if src, _ := Parse("hashicorp/consul/aws"); src.String() != "registry.opentofu.org/hashicorp/consul/aws" {
		t.Errorf("default parser: %q", src.String())
	}
}
