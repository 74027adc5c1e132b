package config

import (
	"reflect"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

func TestCoreVersionRequirements(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		version string
		want    []string
	}{
		{
			name:  "required_version ignored in .tf files",
			files: map[string]string{"versions.tf": "terraform {\n  required_version = \"< 1.0.0\"\n}\n"},
		},
		{
			name: "required_version checked in .tofu files; other diagnostics dropped",
			files: map[string]string{
				"versions.tofu": "terraform {\n  required_version = \"< 1.0.0\"\n}\n",
				"main.tf":       "bogus {}\n",
			},
			want: []string{"Incompatible module"},
		},
		{
			name: "an override cannot relax a constraint",
			files: map[string]string{
				"versions.tofu":          "terraform {\n  required_version = \"< 1.0.0\"\n}\n",
				"versions_override.tofu": "terraform {\n  required_version = \">= 1.0.0\"\n}\n",
			},
			want: []string{"Incompatible module"},
		},
		{
			name:    "emulated version",
			files:   map[string]string{"versions.tofu": "terraform {\n  required_version = \">= 1.13.0\"\n}\n"},
			version: "1.13.0",
		},
		{
			name:  "compatible_with in any file, ineffective constraint warning",
			files: map[string]string{"main.tf": "language {\n  compatible_with {\n    opentofu = \">= 1.0\"\n  }\n}\n"},
			want:  []string{"Ineffective version constraint"},
		},
		{
			name:  "compatible_with excluding this version",
			files: map[string]string{"main.tf": "language {\n  compatible_with {\n    opentofu = \">= 2.0\"\n  }\n}\n"},
			want:  []string{"Incompatible module"},
		},
		{
			name:  "invalid constraint syntax",
			files: map[string]string{"main.tofu": "terraform {\n  required_version = \"!!\"\n}\n"},
			want:  []string{"Invalid version constraint"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, diags := loadMapWith(t, tt.files, tt.version)
			if m == nil {
				t.Fatal("nil module")
			}
			var got []string
			for _, d := range diags {
				got = append(got, d.Summary)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func loadMapWith(t *testing.T, files map[string]string, version string) (*Module, hcl.Diagnostics) {
	t.Helper()
	if version == "" {
		return loadMap(t, files)
	}
	return loadMapOpts(t, files, WithTofuVersion(version))
}
