package providersource

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
)

func TestParsePatterns(t *testing.T) {
	tests := []struct {
		in      string
		want    Pattern
		wantErr string
	}{
		{in: "hashicorp/aws", want: Pattern{"registry.opentofu.org", "hashicorp", "aws"}},
		{in: "Example.COM:443/Acme/*", want: Pattern{"example.com", "acme", "*"}},
		{in: "example.com/*/*", want: Pattern{"example.com", "*", "*"}},
		{in: "*/*/*", want: Pattern{"*", "*", "*"}},
		{in: "*/*", want: Pattern{"registry.opentofu.org", "*", "*"}},
		{in: "aws", wantErr: `invalid provider matching pattern "aws": must have either two or three slash-separated segments`},
		{in: "a/b/c/d", wantErr: `invalid provider matching pattern "a/b/c/d": must have either two or three slash-separated segments`},
		{in: "xn--caf-dma.fr/a/b", wantErr: `invalid hostname in provider matching pattern "xn--caf-dma.fr/a/b": hostname label "xn--caf-dma" specified in punycode format; service hostnames must be given in unicode`},
		{in: "hashicorp/a_b", wantErr: `invalid provider type "a_b" in provider matching pattern "hashicorp/a_b": must either be the wildcard * or a provider type name`},
		{in: "bad_ns/aws", wantErr: `invalid registry namespace "aws" in provider matching pattern "bad_ns/aws": must either be the wildcard * or a literal namespace`},
		{in: "*/x/y", wantErr: `invalid provider matching pattern "*/x/y": hostname can be a wildcard only if both namespace and provider type are also wildcards`},
		{in: "*/x/*", wantErr: `invalid provider matching pattern "*/x/*": hostname can be a wildcard only if both namespace and provider type are also wildcards`},
		{in: "*/*/y", wantErr: `invalid provider matching pattern "*/*/y": hostname can be a wildcard only if both namespace and provider type are also wildcards`},
		{in: "*/aws", wantErr: `invalid provider matching pattern "*/aws": namespace can be a wildcard only if the provider type is also a wildcard`},
		{in: "example.com/*/aws", wantErr: `invalid provider matching pattern "example.com/*/aws": namespace can be a wildcard only if the provider type is also a wildcard`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParsePatterns([]string{"a/b", tt.in})
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Errorf("got %v\nwant %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got[1]); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSelectorHandles(t *testing.T) {
	aws := addrs.NewDefaultProvider("aws")
	foo := addrs.NewProvider("example.com", "acme", "foo")
	bar := addrs.NewProvider("example.com", "other", "bar")
	mustPatterns := func(s ...string) Patterns {
		p, err := ParsePatterns(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		sel  Selector
		want []bool // aws, foo, bar
	}{
		{"everything", Selector{}, []bool{true, true, true}},
		{"include host", Selector{Include: mustPatterns("example.com/*/*")}, []bool{false, true, true}},
		{"include exact", Selector{Include: mustPatterns("example.com/acme/foo")}, []bool{false, true, false}},
		{"exclude wins", Selector{Include: mustPatterns("example.com/*/*"), Exclude: mustPatterns("example.com/acme/*")}, []bool{false, false, true}},
		{"exclude default host", Selector{Exclude: mustPatterns("hashicorp/*")}, []bool{false, true, true}},
		{"exact patterns", Selector{Exclude: ExactPatterns([]addrs.Provider{aws, bar})}, []bool{false, true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := []bool{tt.sel.Handles(aws), tt.sel.Handles(foo), tt.sel.Handles(bar)}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
