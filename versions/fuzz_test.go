package versions

import "testing"

func FuzzParseConstraints(f *testing.F) {
	for _, s := range []string{
		"~> 1", ">= 1.0, < 2", "!= 1.2.9, ~> 1.2", "1.0.0-beta.1+meta", "v1.2",
		">=  1.0", "1.x", "", " , ", "=< 1.0", "~> 1.1.0-beta1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = CheckConfigSyntax(s)
		c, err := ParseConstraints(s)
		if err != nil {
			return
		}
		canon := c.String()
		again, err := ParseConstraints(canon)
		if err != nil {
			t.Fatalf("canonical %q of %q does not parse: %v", canon, s, err)
		}
		if again.String() != canon {
			t.Fatalf("canonical form not stable: %q -> %q -> %q", s, canon, again.String())
		}
		for _, v := range []Version{{}, {Major: 1}, {Major: 1, Minor: 2, Patch: 3, Prerelease: "beta"}} {
			if c.Allows(v) != again.Allows(v) {
				t.Fatalf("%q and its canonical form %q disagree about %s", s, canon, v)
			}
		}
		_, _ = SelectNewest(List{{Major: 1}, {Major: 2, Prerelease: "rc1"}}, c)
	})
}
