package requirements

import (
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
)

// checkDiag is a diagnostic as compared in these tests: severity, summary,
// detail and subject range (FILE:LINE,COL-LINE,COL).
type checkDiag struct {
	Severity, Summary, Detail, Range string
}

func toCheckDiags(diags hcl.Diagnostics) []checkDiag {
	var out []checkDiag
	for _, d := range diags {
		if d.Summary == "Module not installed" {
			continue
		}
		cd := checkDiag{Severity: "warning", Summary: d.Summary, Detail: d.Detail}
		if d.Severity == hcl.DiagError {
			cd.Severity = "error"
		}
		if s := d.Subject; s != nil {
			cd.Range = fmt.Sprintf("%s:%d,%d-%d,%d", s.Filename, s.Start.Line, s.Start.Column, s.End.Line, s.End.Column)
		}
		out = append(out, cd)
	}
	return out
}

// TestProviderConfigChecks runs the module tree checks on small trees. The
// expected texts and subjects are those "tofu providers" (OpenTofu 1.12.6)
// prints for the same directories after "tofu get"; where OpenTofu folds
// several warnings into "(and N more similar warnings elsewhere)", the
// first is compared and the count checked.
func TestProviderConfigChecks(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []checkDiag
	}{
		{
			name: "childbackend",
			files: map[string]string{
				"child/main.tf": `terraform {
  backend "local" {
  }
}
import {
  to = aws_instance.x
  id = "i-1"
}
resource "aws_instance" "x" {}
`,
				"main.tf": `module "child" {
  source = "./child"
}
`,
			},
			want: []checkDiag{
				{"warning", "Backend configuration ignored", "Any selected backend applies to the entire configuration, so OpenTofu expects provider configurations only in the root module.\n\nThis is a warning rather than an error because it's sometimes convenient to temporarily call a root module as a child module for testing purposes, but this backend configuration block will have no effect.", "child/main.tf:2,3-2,18"},
				{"error", "Invalid import configuration", "An import block was detected in \"module.child\". Import blocks are only allowed in the root module.", "child/main.tf:5,1-5,7"},
			},
		},
		{
			name: "tests",
			files: map[string]string{
				"main.tf": `terraform {
  required_providers {
    foo = {
      source                = "hashicorp/foo"
      configuration_aliases = [foo.x]
    }
  }
}
provider "bar" {}
provider "foo" {
  alias = "x"
}
`,
				"main.tftest.hcl": `provider "bar" {}
provider "foo" {}
provider "baz" {}
provider "baz" {
  alias = "x"
}
run "a" {
  providers = {
    foo = bar
    foo.x = baz.x
  }
}
run "b" {}
`,
			},
			want: []checkDiag{
				{"error", "Provider type mismatch", "The provider \"bar\" in main.tftest.hcl represents provider \"registry.opentofu.org/hashicorp/foo\", but \"bar\" in the root module represents \"registry.opentofu.org/hashicorp/bar\".\n\nThis means the provider definition for \"bar\" within main.tftest.hcl has been referenced by multiple run blocks and assigned to different provider types.", "main.tftest.hcl:1,1-1,15"},
			},
		},
		{
			name: "test run providers",
			files: map[string]string{
				"main.tf": `terraform {
  required_providers {
    foo = {
      source = "hashicorp/foo"
    }
  }
}
provider "bar" {}
`,
				"main.tftest.hcl": `provider "foo" {}
provider "bar" {}
run "ok" {
  providers = {
    foo = foo
    bar = bar
  }
}
run "mismatched" {
  providers = {
    foo = bar
  }
}
`,
			},
			want: []checkDiag{
				{"error", "Provider type mismatch", "The local name \"bar\" in main.tftest.hcl represents provider \"registry.opentofu.org/hashicorp/bar\", but \"foo\" in the root module represents \"registry.opentofu.org/hashicorp/foo\".\n\nThis means the provider definition for \"bar\" within main.tftest.hcl, or other provider definitions with the same name, have been referenced by multiple run blocks and assigned to different provider types.", "main.tftest.hcl:11,11-11,14"},
			},
		},
		{
			name: "alias",
			files: map[string]string{
				"child/main.tf": `terraform {
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      configuration_aliases = [aws.east, aws.west]
    }
  }
}
`,
				"main.tf": `module "child" {
  source = "./child"
}
`,
			},
			want: []checkDiag{
				{"error", "Missing required provider configuration", "The child module requires an additional configuration for provider hashicorp/aws, with the local name \"aws.east\".\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for aws.east in the \"providers\" meta-argument in the module block to choose which provider configuration the module should use for that purpose.", "main.tf:1,1-1,15"},
				{"error", "Missing required provider configuration", "The child module requires an additional configuration for provider hashicorp/aws, with the local name \"aws.west\".\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for aws.west in the \"providers\" meta-argument in the module block to choose which provider configuration the module should use for that purpose.", "main.tf:1,1-1,15"},
			},
		},
		{
			name: "empty",
			files: map[string]string{
				"child/main.tf": `terraform {
  required_providers {
    google = {
      source = "acme/google"
    }
  }
}
provider "google" {
}
provider "aws" {
  alias = "b"
}
provider "aws" {
  alias = "a"
}
`,
				"main.tf": `module "child" {
  source = "./child"
}
`,
			},
			want: []checkDiag{
				{"warning", "Redundant empty provider block", "Earlier versions of OpenTofu used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"google\" blocks and then adding or updating an entry like the following to the required_providers block of module.child:\n    google = {\n      source = \"acme/google\"\n    }", "child/main.tf:8,1-8,18"},
				{"warning", "Redundant empty provider block", "Earlier versions of OpenTofu used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"aws\" blocks and then adding or updating an entry like the following to the required_providers block of module.child:\n    aws = {\n      source = \"hashicorp/aws\"\n      configuration_aliases = [\n        aws.a,\n        aws.b,\n      ]\n    }", "child/main.tf:10,1-10,15"},
			},
		},
		{
			name: "expansion",
			files: map[string]string{
				"child/main.tf": `provider "aws" {
  region = "us-east-1"
}
`,
				"main.tf": `module "counted" {
  source = "./child"
  count  = 2
}
module "dependent" {
  source     = "./child"
  depends_on = [module.counted]
}
module "enabled" {
  source = "./child"
  lifecycle {
    enabled = true
  }
}
`,
			},
			want: []checkDiag{
				{"error", "Module is incompatible with count, for_each, enabled and depends_on", "The module at module.counted is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, enabled or depends_on arguments.\n\nIf you also control the module \"./child\", consider updating this module to instead expect provider configurations to be passed by its caller.", "main.tf:3,12-3,13"},
				{"error", "Module is incompatible with count, for_each, enabled and depends_on", "The module at module.dependent is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, enabled or depends_on arguments.\n\nIf you also control the module \"./child\", consider updating this module to instead expect provider configurations to be passed by its caller.", "main.tf:7,17-7,31"},
				{"error", "Module is incompatible with count, for_each, enabled and depends_on", "The module at module.enabled is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, enabled or depends_on arguments.\n\nIf you also control the module \"./child\", consider updating this module to instead expect provider configurations to be passed by its caller.", "main.tf:12,15-12,19"},
			},
		},
		{
			name: "inherit",
			files: map[string]string{
				"child/grandchild/main.tf": `resource "aws_instance" "x" {}
`,
				"child/main.tf": `terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}
module "grandchild" {
  source = "./grandchild"
  providers = {
    aws = aws
  }
}
`,
				"main.tf": `module "child" {
  source = "./child"
}
`,
			},
			want: []checkDiag{
				{"warning", "Missing required provider configuration", "The configuration for module.child expects to inherit a configuration for provider hashicorp/aws with local name \"aws\", but the root module doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for \"aws\" to the \"providers\" argument in the module \"child\" block.", "main.tf:1,1-1,15"},
				{"warning", "Reference to undefined provider", "There is no explicit declaration for local provider name \"aws\" in module.child.module.grandchild, so OpenTofu is assuming you mean to pass a configuration for \"hashicorp/aws\".\n\nIf you also control the child module, add a required_providers entry named \"aws\" with the source address \"hashicorp/aws\".", "child/main.tf:11,5-11,8"},
			},
		},
		{
			name: "mismatch",
			files: map[string]string{
				"child/main.tf": `terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
    foo = {
      source = "acme/foo"
    }
  }
}
`,
				"main.tf": `terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
    other = {
      source = "acme/other"
    }
  }
}
module "suggest" {
  source = "./child"
  providers = {
    foo = aws
  }
}
module "plain" {
  source = "./child"
  providers = {
    foo = other
  }
}
`,
			},
			want: []checkDiag{
				{"error", "Provider type mismatch", "The assigned configuration is for provider \"acme/foo\", but local name \"foo\" in the root module represents \"hashicorp/aws\".\n\nTo pass this configuration to the child module, use the local name \"aws\" instead.", "main.tf:14,5-14,8"},
				{"error", "Provider type mismatch", "The local name \"other\" in the root module represents provider \"acme/other\", but \"foo\" in module.plain represents \"acme/foo\".\n\nEach provider has its own distinct configuration schema and provider types, so this module's \"foo\" can be assigned only a configuration for acme/foo, which is not required by module.plain.", "main.tf:20,11-20,16"},
			},
		},
		{
			name: "override",
			files: map[string]string{
				"child/main.tf": `terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}
provider "aws" {
  region = "us-east-1"
}
`,
				"main.tf": `provider "aws" {
  alias = "west"
}
module "child" {
  source = "./child"
  providers = {
    aws = aws.west
  }
}
`,
			},
			want: []checkDiag{
				{"error", "Cannot override provider configuration", "The configuration of module.child has its own local configuration for aws, and so it cannot accept an overridden configuration provided by the root module.", "main.tf:7,5-7,8"},
			},
		},
		{
			name: "undefined",
			files: map[string]string{
				"child/grandchild/main.tf": `terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}
`,
				"child/main.tf": `module "grandchild" {
  source = "./grandchild"
  providers = {
    aws = aws
  }
}
`,
				"main.tf": `module "child" {
  source = "./child"
  providers = {
    google = google
  }
}
`,
			},
			want: []checkDiag{
				{"warning", "Reference to undefined provider", "There is no explicit declaration for local provider name \"google\" in module.child, so OpenTofu is assuming you mean to pass a configuration for \"hashicorp/google\".\n\nIf you also control the child module, add a required_providers entry named \"google\" with the source address \"hashicorp/google\".", "main.tf:4,5-4,11"},
				{"warning", "Reference to undefined provider", "There is no explicit declaration for local provider name \"google\" in the root module, so OpenTofu is assuming you mean to pass a configuration for provider \"hashicorp/google\".\n\nTo clarify your intent and silence this warning, add to the root module a required_providers entry named \"google\" with source = \"hashicorp/google\", or a different source address if appropriate.", "main.tf:4,14-4,20"},
				{"warning", "Reference to undefined provider", "There is no explicit declaration for local provider name \"aws\" in module.child, so OpenTofu is assuming you mean to pass a configuration for provider \"hashicorp/aws\".\n\nTo clarify your intent and silence this warning, add to the root module a required_providers entry named \"aws\" with source = \"hashicorp/aws\", or a different source address if appropriate.", "child/main.tf:4,11-4,14"},
			},
		}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := loadMap(t, tt.files, Options{LocalModulesFromDisk: true, Config: []config.Option{config.WithTestsDir("tests")}})
			compareWithReference(t, tt.files, tt.want)
			if diff := cmp.Diff(sortChecks(tt.want), sortChecks(toCheckDiags(diags))); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// sortChecks orders diagnostics by severity, subject and text: OpenTofu's
// own order comes from map iteration.
func sortChecks(ds []checkDiag) []checkDiag {
	out := append([]checkDiag(nil), ds...)
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Severity != b.Severity {
			return a.Severity < b.Severity
		}
		if a.Range != b.Range {
			return a.Range < b.Range
		}
		if a.Summary != b.Summary {
			return a.Summary < b.Summary
		}
		return a.Detail < b.Detail
	})
	return out
}
