package requirements

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/config"
)

func TestTestFileRequirements(t *testing.T) {
	files := map[string]string{
		"main.tf": `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = ">= 5.0" }
  }
}
resource "aws_instance" "a" {}
`,
		"tests/a.tftest.hcl": `
provider "aws" {
  version = "< 6.0"
}
provider "google" {}
run "setup" {
  module {
    source = "./testing/setup"
  }
}
run "again" {
  module {
    source = "./testing/setup"
  }
}
run "plain" {}
run "remote" {
  module {
    source = "example.com/mods/x/aws"
  }
}
`,
		"testing/setup/main.tf": `
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "~> 3.0" }
  }
}
`,
	}
	tests := []struct {
		name     string
		testsDir string
		want     map[string]string
	}{
		{
			name:     "with test files",
			testsDir: "tests",
			want: map[string]string{
				"registry.opentofu.org/hashicorp/aws":    ">= 5.0.0, < 6.0.0",
				"registry.opentofu.org/hashicorp/google": "",
				"registry.opentofu.org/hashicorp/random": "~> 3.0",
			},
		},
		{
			name:     "without test files",
			testsDir: "",
			want: map[string]string{
				"registry.opentofu.org/hashicorp/aws": ">= 5.0.0",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, diags := loadMap(t, files, Options{Config: []config.Option{config.WithTestsDir(tc.testsDir)}})
			if diags.HasErrors() {
				t.Fatalf("unexpected errors: %s", diags.Error())
			}
			if diff := cmp.Diff(tc.want, constraintStrings(res.Providers)); diff != "" {
				t.Errorf("requirements (-want +got):\n%s", diff)
			}
		})
	}
}
