package cliconfig

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
)

func TestDevOverridesWarning(t *testing.T) {
	if DevOverridesWarning(nil) != nil {
		t.Errorf("warning without overrides")
	}
	got := DevOverridesWarning(map[addrs.Provider]string{
		addrs.NewProvider("example.com", "acme", "foo"): "/home/dev/foo",
		addrs.NewDefaultProvider("aws"):                 "/home/dev/aws",
	})
	want := []string{"W: Provider development overrides are in effect | " +
		"The following provider development overrides are set in the CLI configuration:\n" +
		" - example.com/acme/foo in /home/dev/foo\n" +
		" - hashicorp/aws in /home/dev/aws\n" +
		"\nSkip tofu init when using provider development overrides. It is not necessary and may error unexpectedly."}
	if diff := cmp.Diff(want, diagText([]*hcl.Diagnostic{got})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
