package cli

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseViewArgs(t *testing.T) {
	color, rest := parseViewArgs([]string{"-upgrade", "-no-color", "-compact-warnings", "-deprecation=module:all", "x"})
	if color {
		t.Error("-no-color did not turn colour off")
	}
	if diff := cmp.Diff([]string{"-upgrade", "x"}, rest); diff != "" {
		t.Errorf("remaining arguments (-want +got):\n%s", diff)
	}
	if color, _ := parseViewArgs(nil); !color {
		t.Error("colour is off by default; OpenTofu colours unless -no-color")
	}
}
