package versions

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The verified canonicalisation examples of providers.md §6.6.
func TestCanonicalString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"~> 1", "~> 1.0"},
		{"~> 1.2", "~> 1.2"},
		{"~>1.2", "~> 1.2"},
		{"~> 1.2.0", "~> 1.2.0"},
		{">= 1.0, < 2", ">= 1.0.0, < 2.0.0"},
		{">=1.0,<2.0", ">= 1.0.0, < 2.0.0"},
		{" >= 1.0 ,  < 2.0 ", ">= 1.0.0, < 2.0.0"},
		{"1.2", "1.2.0"},
		{"=1.2.3", "1.2.3"},
		{"!= 1.2.9, ~> 1.2", "~> 1.2, != 1.2.9"},
		{">= 1.0.0, >= 1.0", ">= 1.0.0"},
		{"~> 1.1.0-beta1", "~> 1.1.0-beta1"},
		{">= 1.1.0-beta1, < 1.2", ">= 1.1.0-beta1, < 1.2.0"},
		{"< 2, > 1, = 1.5.0, ~> 1.4.0, ~> 1.4, <= 3, != 1.7.0", "> 1.0.0, ~> 1.4.0, ~> 1.4, 1.5.0, != 1.7.0, < 2.0.0, <= 3.0.0"},
		{"< 6.0", "< 6.0.0"},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			c, err := ParseConstraints(tt.in)
			if err != nil {
				t.Fatalf("ParseConstraints(%q): %v", tt.in, err)
			}
			if got := c.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			again, err := ParseConstraints(c.String())
			if err != nil || again.String() != c.String() {
				t.Errorf("canonical form does not re-parse to itself: %q, %v", again.String(), err)
			}
		})
	}
}

func TestIntersect(t *testing.T) {
	root := MustParseConstraints(">= 6.0")
	child := MustParseConstraints("~> 6.0")
	if got, want := Intersect(root, child).String(), ">= 6.0.0, ~> 6.0"; got != want {
		t.Errorf("Intersect = %q, want %q", got, want)
	}
	if got := Intersect(nil, nil); got != nil {
		t.Errorf("Intersect of nothing = %#v, want nil", got)
	}
	if got := Exactly(Version{Major: 1, Minor: 2, Patch: 3, Metadata: "x"}).String(); got != "1.2.3+x" {
		t.Errorf("Exactly = %q", got)
	}
}

// The verified acceptable sets of providers.md §6.3.
func TestAllows(t *testing.T) {
	available := []string{"0.9.0", "1.0.0", "1.0.1", "1.1.0-beta1", "1.1.0", "1.2.0", "1.2.3", "1.2.4-rc1", "1.2.9", "1.3.0", "2.0.0-alpha", "2.0.0", "2.1.0"}
	tests := []struct {
		in   string
		want []string
	}{
		{"~> 1.2", []string{"1.2.0", "1.2.3", "1.2.9", "1.3.0"}},
		{"~> 1.2.0", []string{"1.2.0", "1.2.3", "1.2.9"}},
		{"~> 1", []string{"1.0.0", "1.0.1", "1.1.0", "1.2.0", "1.2.3", "1.2.9", "1.3.0"}},
		{">= 1.0, < 2", []string{"1.0.0", "1.0.1", "1.1.0", "1.2.0", "1.2.3", "1.2.9", "1.3.0"}},
		{"1.2", []string{"1.2.0"}},
		{"!= 1.2.9, ~> 1.2", []string{"1.2.0", "1.2.3", "1.3.0"}},
		{"~> 1.1.0-beta1", []string{"1.1.0"}},
		{"1.1.0-beta1", []string{"1.1.0-beta1"}},
		{">= 1.1.0-beta1, < 1.2", []string{"1.1.0"}},
		{"2.0.0-alpha", []string{"2.0.0-alpha"}},
		{">= 1.0.0, >= 1.0", []string{"1.0.0", "1.0.1", "1.1.0", "1.2.0", "1.2.3", "1.2.9", "1.3.0", "2.0.0", "2.1.0"}},
		{"> 1", []string{"1.0.1", "1.1.0", "1.2.0", "1.2.3", "1.2.9", "1.3.0", "2.0.0", "2.1.0"}},
		{"", []string{"0.9.0", "1.0.0", "1.0.1", "1.1.0", "1.2.0", "1.2.3", "1.2.9", "1.3.0", "2.0.0", "2.1.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			c := MustParseConstraints(tt.in)
			var got []string
			for _, s := range available {
				v, err := ParseVersion(s)
				if err != nil {
					t.Fatal(err)
				}
				if c.Allows(v) {
					got = append(got, s)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("acceptable mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// The go-version stage (providers.md §6.1): what configuration decoding
// accepts before the Ruby-style parser runs.
func TestCheckConfigSyntax(t *testing.T) {
	tests := []struct {
		in        string
		configOK  bool
		rubyError string // "" when the Ruby-style parser accepts it
	}{
		{in: "~> 1.2", configOK: true},
		{in: "~>1.2", configOK: true},
		{in: ">=1.0,<2.0", configOK: true},
		{in: " >= 1.0 ,  < 2.0 ", configOK: true},
		{in: "1.0.0-beta.1+meta", configOK: true},
		{in: "", configOK: false},
		{in: ">= 1.0,", configOK: false},
		{in: "> = 1", configOK: false},
		{in: "=> 1.0", configOK: false},
		{in: "^1.0", configOK: false},
		{in: "1.x", configOK: false},
		{in: "1.0 || 2.0", configOK: false},
		{in: "latest", configOK: false},
		{in: "99999999999999999999", configOK: false},
		{in: "v1.2", configOK: true, rubyError: `invalid specification "v1.2": a "v" prefix should not be used when specifying versions`},
		{in: "1.2.3.4", configOK: true, rubyError: `invalid specification "1.2.3.4": too many numbered portions; only three are allowed (major, minor, patch)`},
		{in: ">=  1.0", configOK: true, rubyError: `invalid specification ">=  1.0": only one space is expected after the operator ">="`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			err := CheckConfigSyntax(tt.in)
			if (err == nil) != tt.configOK {
				t.Fatalf("CheckConfigSyntax(%q) = %v, want ok=%v", tt.in, err, tt.configOK)
			}
			if !tt.configOK {
				return
			}
			_, err = ParseConstraints(tt.in)
			var got string
			if err != nil {
				got = err.Error()
			}
			if got != tt.rubyError {
				t.Errorf("ParseConstraints(%q) error = %q, want %q", tt.in, got, tt.rubyError)
			}
		})
	}
}

// Deviation: go-versions (and so OpenTofu) panics on these.
func TestHugeNumbers(t *testing.T) {
	if _, err := ParseConstraints("18700000000000000000"); err == nil {
		t.Error("ParseConstraints accepted a number above 2^64-1")
	}
	if _, err := ParseVersion("1.18700000000000000000.0"); err == nil {
		t.Error("ParseVersion accepted a number above 2^64-1")
	}
}
