package moduleinstall

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleaddr"
	"github.com/tfdeps/tfdeps/registry"
)

// locationRegistry offers 1.0.0 of every module and answers every
// location request with err.
type locationRegistry struct{ err error }

func (r locationRegistry) ModuleVersions(context.Context, moduleaddr.Registry) ([]string, error) {
	return []string{"1.0.0"}, nil
}

func (r locationRegistry) ModuleLocation(context.Context, moduleaddr.Registry, string) (registry.ModulePackageLocation, error) {
	return registry.ModulePackageLocation{}, r.err
}

func (r locationRegistry) FetchModulePackage(context.Context, *registry.DirectModuleLocation, string, string) (string, error) {
	return "", errors.New("not reached")
}

// A download location that is not a remote package address: OpenTofu
// reports a failure to get the download URL, Terraform 1.15.9 its own
// summary and sentence (observed side by side).
func TestInvalidLocationTexts(t *testing.T) {
	bad := &registry.InvalidLocationError{Location: "hashicorp/consul/aws", Err: errors.New("must be a direct remote package address")}
	for _, tc := range []struct {
		flavour             flavour.Flavour
		summary, wantDetail string
	}{
		{flavour.OpenTofu, "Error accessing remote module registry",
			`Failed to retrieve a download URL for example.com/acme/net/aws 1.0.0 from example.com: registry returned invalid package location "hashicorp/consul/aws": must be a direct remote package address`},
		{flavour.Terraform, "Invalid package location from module registry",
			`Module registry example.com returned invalid source location "hashicorp/consul/aws" for example.com/acme/net/aws 1.0.0: must be a direct remote package address.`},
	} {
		t.Run(tc.flavour.String(), func(t *testing.T) {
			dir := t.TempDir()
			root := writeRoot(t, dir, map[string]string{
				"main.tf": "module \"m\" {\n  source  = \"example.com/acme/net/aws\"\n  version = \"1.0.0\"\n}\n",
			})
			inDir(t, dir, func() {
				diags := Install(context.Background(), root, Options{Registry: locationRegistry{err: bad}, Flavour: tc.flavour, Parallelism: -1, Events: &recorder{}})
				if len(diags) != 1 {
					t.Fatalf("got %d diagnostics, want 1: %v", len(diags), diags)
				}
				if diff := cmp.Diff([]string{tc.summary, tc.wantDetail}, []string{diags[0].Summary, diags[0].Detail}); diff != "" {
					t.Errorf("diagnostic (-want +got):\n%s", diff)
				}
			})
		})
	}
}
