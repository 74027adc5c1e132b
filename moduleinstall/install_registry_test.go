package moduleinstall

import (
	"net/url"
	"testing"

	"github.com/tfdeps/tfdeps/moduleaddr"
	"github.com/tfdeps/tfdeps/registry"
)

// terraformLocation names a registry location as Terraform's M5 does: the
// address the registry answered, without the call's subdirectory that
// tfdeps joined onto it.
func TestTerraformLocation(t *testing.T) {
	archive, _ := url.Parse("https://example.com/files/net.zip")
	for _, tc := range []struct {
		name       string
		loc        registry.ModulePackageLocation
		callSubdir string
		want       string
	}{
		{"no subdirectory", registry.ModulePackageLocation{Indirect: &moduleaddr.Remote{Package: "https://example.com/net.zip"}}, "", "https://example.com/net.zip"},
		{"call subdirectory", registry.ModulePackageLocation{Indirect: &moduleaddr.Remote{Package: "https://example.com/net.zip", Subdir: "sub"}}, "sub", "https://example.com/net.zip"},
		{"both subdirectories", registry.ModulePackageLocation{Indirect: &moduleaddr.Remote{Package: "git::https://example.com/net.git?ref=v1", Subdir: "modules/sub"}}, "sub", "git::https://example.com/net.git//modules?ref=v1"},
		{"location subdirectory only", registry.ModulePackageLocation{Indirect: &moduleaddr.Remote{Package: "https://example.com/net.zip", Subdir: "modules"}}, "", "https://example.com/net.zip//modules"},
		{"registry-hosted archive", registry.ModulePackageLocation{Direct: &registry.DirectModuleLocation{URL: archive, Subdir: "sub"}}, "sub", "https://example.com/files/net.zip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := terraformLocation(tc.loc, tc.callSubdir); got != tc.want {
				t.Errorf("terraformLocation = %q, want %q", got, tc.want)
			}
		})
	}
}
