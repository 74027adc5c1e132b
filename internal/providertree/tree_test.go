package providertree

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/requirements"
	"github.com/tfdeps/tfdeps/versions"
)

func provider(t *testing.T, s string) addrs.Provider {
	t.Helper()
	p, err := addrs.ParseProviderSource(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWrite(t *testing.T) {
	aws, null := provider(t, "hashicorp/aws"), provider(t, "hashicorp/null")
	res := &requirements.Result{
		Root: &requirements.Module{
			Providers: map[addrs.Provider]versions.Constraints{aws: versions.MustParseConstraints("~> 5.0"), null: nil},
			Tests: []*requirements.TestFile{{
				Name:      "tests/main.tftest.hcl",
				Providers: map[addrs.Provider]versions.Constraints{null: nil},
				Runs:      []*requirements.Module{{Name: "setup", Providers: map[addrs.Provider]versions.Constraints{aws: nil}}},
			}},
			Children: []*requirements.Module{
				{Name: "net", Providers: map[addrs.Provider]versions.Constraints{aws: versions.MustParseConstraints(">= 4.0")},
					Children: []*requirements.Module{{Name: "inner", Providers: map[addrs.Provider]versions.Constraints{null: nil}}}},
				{Name: "zz"},
			},
		},
		State: []addrs.Provider{null},
	}
	tests := []struct {
		flavour flavour.Flavour
		link    string
	}{
		{flavour.OpenTofu, "│   "},
		{flavour.Terraform, "│\u00a0\u00a0 "},
	}
	for _, tt := range tests {
		t.Run(tt.flavour.String(), func(t *testing.T) {
			var b strings.Builder
			if err := Write(&b, res, tt.flavour); err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(`
Providers required by configuration:
.
├── provider[registry.opentofu.org/hashicorp/aws] ~> 5.0
├── provider[registry.opentofu.org/hashicorp/null]
├── test.tests.main
LINK├── provider[registry.opentofu.org/hashicorp/null]
LINK└── run.setup
LINK    └── provider[registry.opentofu.org/hashicorp/aws]
├── module.net
LINK├── provider[registry.opentofu.org/hashicorp/aws] >= 4.0.0
LINK└── module.inner
LINK    └── provider[registry.opentofu.org/hashicorp/null]
└── module.zz

Providers required by state:

    provider[registry.opentofu.org/hashicorp/null]

`, "LINK", tt.link)
			if diff := cmp.Diff(want, b.String()); diff != "" {
				t.Errorf("tree (-want +got):\n%s", diff)
			}
		})
	}
}
