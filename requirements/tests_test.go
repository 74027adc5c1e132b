package requirements

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/versions"
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
		wantTree []string
	}{
		{
			name:     "with test files",
			testsDir: "tests",
			want: map[string]string{
				"registry.opentofu.org/hashicorp/aws":    ">= 5.0.0, < 6.0.0",
				"registry.opentofu.org/hashicorp/google": "",
				"registry.opentofu.org/hashicorp/random": "~> 3.0",
			},
			wantTree: []string{
				"root: hashicorp/aws >= 5.0.0",
				"test tests/a.tftest.hcl: hashicorp/aws < 6.0.0, hashicorp/google",
				"  run setup: hashicorp/random ~> 3.0",
				"  run again: hashicorp/random ~> 3.0",
			},
		},
		{
			name:     "without test files",
			testsDir: "",
			want: map[string]string{
				"registry.opentofu.org/hashicorp/aws": ">= 5.0.0",
			},
			wantTree: []string{"root: hashicorp/aws >= 5.0.0"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, diags := loadMap(t, files, Options{LocalModulesFromDisk: true, Config: []config.Option{config.WithTestsDir(tc.testsDir)}})
			if diags.HasErrors() {
				t.Fatalf("unexpected errors: %s", diags.Error())
			}
			if diff := cmp.Diff(tc.want, constraintStrings(res.Providers)); diff != "" {
				t.Errorf("requirements (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantTree, testTree(res.Root)); diff != "" {
				t.Errorf("tree (-want +got):\n%s", diff)
			}
		})
	}
}

// testTree describes a root module's own providers and its test files.
func testTree(root *Module) []string {
	out := []string{"root: " + strings.Join(providerLines(root.Providers), ", ")}
	for _, tf := range root.Tests {
		out = append(out, "test "+tf.Name+": "+strings.Join(providerLines(tf.Providers), ", "))
		for _, run := range tf.Runs {
			out = append(out, "  run "+run.Name+": "+strings.Join(providerLines(run.Providers), ", "))
		}
	}
	return out
}

func providerLines(m map[addrs.Provider]versions.Constraints) []string {
	var lines []string
	for _, p := range sortedProviders(m) {
		lines = append(lines, strings.TrimSpace(p.ForDisplay()+" "+m[p].String()))
	}
	return lines
}
