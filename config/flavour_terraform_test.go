package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/flavour"
)

// TestTerraformDiagnostics checks the configuration texts of the Terraform
// flavour against what terraform v1.15.9 reports for the same files
// (observed with "terraform init -json -backend=false": severity, summary,
// detail and range, in order).
func TestTerraformDiagnostics(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []expectedDiag
	}{
		{
			name: "backend and cloud blocks",
			files: map[string]string{
				"b.tf": `terraform {
  cloud {}
}
`,
				"main.tf": `terraform {
  backend "local" {}
}
`,
			},
			want: []expectedDiag{
				{"error", "Conflicting 'cloud' and 'backend' configuration blocks are present", "A module may declare either one 'cloud' block OR one 'backend' block for configuring state storage. The 'cloud' block is configured at b.tf:2,3-8; a 'backend' is configured at main.tf:2,3-18. Remove the 'backend' block to configure HCP Terraform or Terraform Enterprise.", "main.tf:2,3-2,18"},
			},
		},
		{
			name: "duplicate backend block",
			files: map[string]string{
				"main.tf": `terraform {
  backend "local" {}
}
terraform {
  backend "s3" {}
}
`,
			},
			want: []expectedDiag{
				{"error", "Duplicate 'backend' configuration block", "A module may have only one 'backend' configuration block. The backend was previously configured at main.tf:2,3-18.", "main.tf:5,3-5,15"},
			},
		},
		{
			name: "duplicate cloud block in an override file",
			files: map[string]string{
				"main.tf": `terraform {
  cloud {}
}
`,
				"main_override.tf": `terraform {
  cloud {}
  cloud {}
}
`,
			},
			want: []expectedDiag{
				{"error", "Duplicate HCP Terraform configurations", "A module may have only one 'cloud' block configuring HCP Terraform or Terraform Enterprise. The 'cloud' block was previously configured at main_override.tf:2,3-8.", "main_override.tf:3,3-3,8"},
			},
		},
		{
			name: "duplicate cloud block",
			files: map[string]string{
				"main.tf": `terraform {
  cloud {}
  cloud {}
}
`,
			},
			want: []expectedDiag{
				{"error", "Duplicate HCP Terraform configurations", "A module may have only one 'cloud' block configuring HCP Terraform or Terraform Enterprise. The 'cloud' block was previously configured at main.tf:2,3-8.", "main.tf:3,3-3,8"},
			},
		},
		{
			name: "import block arguments and target mode",
			files: map[string]string{
				"main.tf": `resource "null_resource" "r" {}
import {
  to = null_resource.r
}
import {
  to       = null_resource.q
  id       = "1"
  identity = { id = "x" }
}
import {
  to = data.null_data_source.d
  id = "1"
}
`,
			},
			want: []expectedDiag{
				{"error", "Invalid import block", "At least one of 'id' or 'identity' must be specified.", "main.tf:2,1-2,7"},
				{"error", "Invalid import block", "Only one of 'id' or 'identity' can be specified.", "main.tf:5,1-5,7"},
				{"error", "Invalid import address", "Only managed resources can be imported.", "main.tf:11,3-11,31"},
			},
		},
		{
			name: "duplicate import targets",
			files: map[string]string{
				"main.tf": `resource "null_resource" "r" {
  count = 2
}
import {
  to = null_resource.r[0]
  id = "1"
}
import {
  to = null_resource.r[1]
  id = "2"
}
import {
  to = null_resource.r[0]
  id = "3"
}
import {
  to = module.m.null_resource.x["a"]
  id = "3"
}
import {
  to = module.m.null_resource.x["a"]
  id = "4"
}
`,
			},
			want: []expectedDiag{
				{"error", "Duplicate import configuration for \"null_resource.r\"", "An import block for the resource \"null_resource.r\" was already declared at main.tf:4,1-7. A resource can have only one import block.", "main.tf:13,8-13,26"},
				{"error", "Duplicate import configuration for \"module.m.null_resource.x\"", "An import block for the resource \"module.m.null_resource.x\" was already declared at main.tf:16,1-7. A resource can have only one import block.", "main.tf:21,8-21,37"},
			},
		},
		{
			name: "resource lifecycle arguments",
			files: map[string]string{
				"main.tf": `variable "x" { default = true }
resource "null_resource" "a" {
  lifecycle {
    prevent_destroy = var.x
    destroy         = false
  }
}
resource "null_resource" "b" {
  lifecycle {
    create_before_destroy = true
    action_trigger {
      events  = [after_create]
      actions = [action.foo.bar]
    }
  }
}
data "null_data_source" "d" {
  lifecycle {
    create_before_destroy = true
    ignore_changes        = all
    action_trigger {
      events = [after_create]
    }
  }
}
ephemeral "random_password" "e" {
  lifecycle {
    prevent_destroy = true
    action_trigger {
      events = [after_create]
    }
  }
}
`,
			},
			want: []expectedDiag{
				{"error", "Unsupported argument", "An argument named \"destroy\" is not expected here.", "main.tf:5,5-5,12"},
				{"error", "Variables not allowed", "Variables may not be used here.", "main.tf:4,23-4,26"},
				{"error", "Unsuitable value type", "Unsuitable value: value must be known", "main.tf:4,23-4,28"},
				{"error", "Invalid data resource lifecycle argument", "The lifecycle argument \"create_before_destroy\" is defined only for managed resources (\"resource\" blocks), and is not valid for data resources.", "main.tf:19,5-19,26"},
				{"error", "Invalid data resource lifecycle argument", "The lifecycle argument \"ignore_changes\" is defined only for managed resources (\"resource\" blocks), and is not valid for data resources.", "main.tf:20,5-20,19"},
				{"error", "Invalid data resource lifecycle nested block", "The lifecycle nested block \"action_trigger\" is defined only for managed resources (\"resource\" blocks), and is not valid for data resources.", "main.tf:21,5-21,19"},
				{"error", "Invalid ephemeral resource lifecycle argument", "The lifecycle argument \"prevent_destroy\" is defined only for managed resources (\"resource\" blocks), and is not valid for ephemeral resources.", "main.tf:28,5-28,20"},
				{"error", "Invalid ephemeral resource lifecycle nested block", "The lifecycle nested block \"action_trigger\" is defined only for managed resources (\"resource\" blocks), and is not valid for ephemeral resources.", "main.tf:29,5-29,19"},
			},
		},
		{
			name: "module lifecycle and ignore_nested_deprecations",
			files: map[string]string{
				"main.tf": `module "a" {
  source                     = "./child"
  ignore_nested_deprecations = true
  lifecycle {
    enabled = false
  }
}
module "b" {
  source                     = "./child"
  ignore_nested_deprecations = false
  count                      = 1
}
`,
			},
			want: []expectedDiag{
				{"error", "Reserved block type name in module block", "The block type name \"lifecycle\" is reserved for use by Terraform in a future version.", "main.tf:4,3-4,12"},
			},
		},
		{
			name: "no enabled meta-argument",
			files: map[string]string{
				"main.tf": `resource "null_resource" "r" {
  for_each = toset(["a"])
}
`,
				"main_override.tf": `resource "null_resource" "r" {
  count = 2
  lifecycle {
    enabled = false
  }
}
`,
			},
			want: []expectedDiag{
				{"error", "Unsupported argument", "An argument named \"enabled\" is not expected here.", "main_override.tf:4,5-4,12"},
			},
		},
		{
			name: "override file removed and ephemeral blocks",
			files: map[string]string{
				"main.tf": `ephemeral "random_password" "p" {
  length = 8
}
`,
				"x_override.tf": `ephemeral "random_password" "p" {
  length = 10
}
ephemeral "random_password" "e" {}
removed {
  from = null_resource.gone
}
resource "null_resource" "r" {}
`,
			},
			want: []expectedDiag{
				{"error", "Missing resource to override", "There is no null_resource resource named \"r\". An override file can only override a resource block defined in a primary configuration file.", "x_override.tf:8,1-8,29"},
			},
		},
		{
			name: "provider block reserved arguments",
			files: map[string]string{
				"main.tf": `provider "aws" {
  alias    = "west"
  version  = "~> 5.0"
  for_each = toset(["a"])
  count    = 1
  source   = "x"
}
provider "google" {
  for_each = toset(["a"])
}
`,
			},
			want: []expectedDiag{
				{"warning", "Version constraints inside provider configuration blocks are deprecated", "Terraform 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of Terraform. To silence this warning, move the provider version constraint into the required_providers block.", "main.tf:3,14-3,22"},
				{"error", "Reserved argument name in provider block", "The provider argument name \"count\" is reserved for use by Terraform in a future version.", "main.tf:5,3-5,8"},
				{"error", "Reserved argument name in provider block", "The provider argument name \"for_each\" is reserved for use by Terraform in a future version.", "main.tf:4,3-4,11"},
				{"error", "Reserved argument name in provider block", "The provider argument name \"source\" is reserved for use by Terraform in a future version.", "main.tf:6,3-6,9"},
				{"error", "Reserved argument name in provider block", "The provider argument name \"for_each\" is reserved for use by Terraform in a future version.", "main.tf:9,3-9,11"},
			},
		},
		{
			name: "removed blocks",
			files: map[string]string{
				"main.tf": `removed {
  from = null_resource.a
}
removed {
  from = data.null_data_source.d
}
removed {
  from = module.m
  provisioner "local-exec" {
    when    = destroy
    command = "x"
  }
  connection {
    host = "x"
  }
}
removed {
  from = null_resource.b
  lifecycle {
    destroy = false
  }
  lifecycle {
    destroy = true
  }
  connection {
    host = "x"
  }
  connection {
    host = "y"
  }
  provisioner "local-exec" {
    command = "x"
  }
  provisioner "local-exec" {
    when    = destroy
    command = "x"
  }
}
removed {
  from = ephemeral.random_password.e
}
removed {
  from = null_resource.c[0]
}
`,
			},
			want: []expectedDiag{
				{"error", "Data source address not allowed", "Data sources are never destroyed, so they are not valid targets of removed blocks. To remove the data source from state, remove the data source block from configuration.", "main.tf:5,10-5,33"},
				{"error", "Invalid provisioner block", "Provisioners are valid only when a removed block targets a managed resource.", "main.tf:9,3-9,27"},
				{"error", "Invalid connection block", "Provisioner connection configuration is valid only when a removed block targets a managed resource.", "main.tf:13,3-13,13"},
				{"error", "Duplicate connection block", "This \"removed\" block already has a connection block at main.tf:25,3-13.", "main.tf:28,3-28,13"},
				{"error", "Invalid provisioner block", "Only destroy-time provisioners are valid in \"removed\" blocks. To declare a destroy-time provisioner, use:\n    when = destroy", "main.tf:31,3-31,27"},
				{"error", "Resource instance keys not allowed", "Resource address must be a resource (e.g. \"test_instance.foo\"), not a resource instance (e.g. \"test_instance.foo[1]\").", "main.tf:40,35-40,37"},
				{"error", "Resource instance keys not allowed", "Resource address must be a resource (e.g. \"test_instance.foo\"), not a resource instance (e.g. \"test_instance.foo[1]\").", "main.tf:43,25-43,28"},
			},
		},
		{
			name: "required_providers with a syntax error",
			files: map[string]string{
				"main.tf": `terraform {
  required_providers {
    null = {
      source = "hashicorp/null"
    }
  }
}
`,
				"other.tf": `terraform {
  required_providers {
    null = {
      source = "hashicorp/null"
    {
  }
}

resource "null_resource" "bar" {}
`,
			},
			want: []expectedDiag{
				{"error", "Missing attribute value", "Expected an attribute value, introduced by an equals sign (\"=\").", "other.tf:6,4-7,1"},
				{"error", "Unexpected \"resource\" block", "Blocks are not allowed here.", "other.tf:9,1-9,9"},
			},
		},
		{
			name: "state_store block",
			files: map[string]string{
				"main.tf": "terraform {\n  state_store \"foo\" {\n    provider \"bar\" {}\n  }\n}\n",
			},
			want: []expectedDiag{
				{"error", "Unsupported block type", "Blocks of type \"state_store\" are not expected here.", "main.tf:2,3-2,14"},
			},
		},
		{
			name: "provider references without instance keys",
			files: map[string]string{
				"main.tf": `provider "aws" {
  alias = "x"
}
resource "aws_instance" "a" {
  provider = aws.x["a"]
}
resource "aws_instance" "b" {
  provider = "aws.x"
}
module "m" {
  source = "./m"
  providers = {
    aws = aws.x[0]
  }
}
`,
			},
			want: []expectedDiag{
				{"error", "Invalid provider configuration reference", "The provider argument requires a provider type name, optionally followed by a period and then a configuration alias.", "main.tf:5,14-5,24"},
				{"warning", "Quoted references are deprecated", "In this context, references are expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of Terraform. Remove the quotes surrounding this reference to silence this warning.", "main.tf:8,14-8,21"},
				{"error", "Invalid provider configuration reference", "The providers argument requires a provider type name, optionally followed by a period and then a configuration alias.", "main.tf:13,11-13,19"},
			},
		},
		{
			name: "language edition and experiments",
			files: map[string]string{
				"main.tf": `terraform {
  language    = TF2024
  experiments = [foo]
}
terraform {
  language = "TF2021"
}
terraform {
  language = TF2000
}
terraform {
  language = TF2021
  experiments = "x"
}
`,
			},
			want: []expectedDiag{
				{"error", "Unsupported language edition", "Terraform v1.15.9 only supports language edition TF2021. This module requires a newer version of Terraform CLI.", "main.tf:2,17-2,23"},
				{"error", "Module uses experimental features", "Experimental features are intended only for gathering early feedback on new language designs, and so are available only in alpha releases of Terraform.", "main.tf:3,3-3,14"},
				{"error", "Invalid language edition", "The language argument expects a bare language edition keyword. Terraform 1.15.9 supports only language edition TF2021, which is the default.", "main.tf:6,14-6,22"},
				{"error", "Unsupported language edition", "Terraform v1.15.9 only supports language edition TF2021. This module requires a different version of Terraform CLI.", "main.tf:9,14-9,20"},
				{"error", "Module uses experimental features", "Experimental features are intended only for gathering early feedback on new language designs, and so are available only in alpha releases of Terraform.", "main.tf:13,3-13,14"},
			},
		},
		{
			name: "count and for_each together",
			files: map[string]string{
				"main.tf": `resource "null_resource" "r" {
  count    = 1
  for_each = {}
}
data "null_data_source" "d" {
  for_each = {}
  count    = 1
}
module "m" {
  source   = "./m"
  count    = 1
  for_each = {}
}
`,
			},
			want: []expectedDiag{
				{"error", "Invalid combination of \"count\" and \"for_each\"", "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.", "main.tf:3,3-3,11"},
				{"error", "Invalid combination of \"count\" and \"for_each\"", "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.", "main.tf:6,3-6,11"},
				{"error", "Invalid combination of \"count\" and \"for_each\"", "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.", "main.tf:12,3-12,11"},
			},
		},
		{
			name: "moved and import addresses",
			files: map[string]string{
				"main.tf": `moved {
  from = module.a
  to   = null_resource.b
}
moved {
  from = null_resource.a[0]
  to   = null_resource.b["x"]
}
moved {
  from = data.null_data_source.a
  to   = data.null_data_source.b
}
moved {
  from = ephemeral.x.a
  to   = ephemeral.x.b
}
moved {
  from = null_resource.a.b.c
  to   = null_resource.b
}
import {
  to = module.m
  id = "x"
}
import {
  to = null_resource.x.y
  id = "x"
}
import {
  to = "null_resource.x"
  id = "x"
}
import {
  for_each = {}
  to = null_resource.x[each.key]
  id = "x"
}
`,
			},
			want: []expectedDiag{
				{"error", "Invalid \"moved\" addresses", "The \"from\" and \"to\" addresses must either both refer to resources or both refer to modules.", "main.tf:1,1-1,6"},
				{"error", "Invalid address", "Unexpected extra operators after address.", "main.tf:18,27-18,29"},
				{"error", "Invalid address", "A resource instance address is required here. The module path must be followed by a resource instance specification.", "main.tf:22,8-22,16"},
				{"error", "Invalid import address", "Only managed resources can be imported.", "main.tf:22,3-22,16"},
				{"error", "Invalid address", "Resource instance key must be given in square brackets.", "main.tf:26,23-26,25"},
				{"error", "Invalid import address", "Only managed resources can be imported.", "main.tf:26,3-26,25"},
				{"error", "Invalid expression", "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.", "main.tf:30,8-30,25"},
				{"error", "Invalid import address", "Only managed resources can be imported.", "main.tf:30,3-30,25"},
			},
		},
		{
			name: "resource, data, ephemeral and check blocks",
			files: map[string]string{
				"main.tf": `terraform {
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      configuration_aliases = [aws.b["x"], aws]
    }
    bad = "x y"
    up = {
      source = "Hashicorp/Up"
    }
  }
  foo = 1
}
data "null_data_source" "d" {
  connection {}
  provisioner "x" {}
}
resource "null_resource" "r" {
  provisioner "local-exec" {
    when       = create
    on_failure = stop
  }
  lifecycle {}
  lifecycle {}
  connection {}
  connection {}
  locals {}
}
ephemeral "x" "y" {
  provisioner "local-exec" {}
  depends_on = [null_resource.r]
}
check "c" {
  data "null_data_source" "n" {
    for_each = {}
    depends_on = []
  }
  assert {
    condition     = null_resource.r.id != ""
    error_message = "x"
  }
}
output "o" {
  value = 1
  sensitive = "x"
}
`,
			},
			want: []expectedDiag{
				{"error", "Unsupported argument", "An argument named \"foo\" is not expected here.", "main.tf:12,3-12,6"},
				{"error", "Invalid version constraint", "This string does not use correct version constraint syntax.", "main.tf:7,11-7,16"},
				{"error", "Invalid \"on_failure\" keyword", "The \"on_failure\" argument requires one of the following keywords: continue or fail.", "main.tf:21,18-21,22"},
				{"error", "Duplicate lifecycle block", "This resource already has a lifecycle block at main.tf:23,3-12.", "main.tf:24,3-24,12"},
				{"error", "Duplicate connection block", "This resource already has a connection block at main.tf:25,3-13.", "main.tf:26,3-26,13"},
				{"error", "Reserved block type name in resource block", "The block type name \"locals\" is reserved for use by Terraform in a future version.", "main.tf:27,3-27,9"},
				{"error", "Invalid \"for_each\" attribute", "The \"count\" and \"for_each\" meta-arguments are not supported within nested data blocks.", "main.tf:35,5-35,13"},
				{"error", "Unsuitable value type", "Unsuitable value: a bool is required", "main.tf:45,16-45,17"},
			},
		},
		{
			name: "ephemeral resource blocks and nested data count",
			files: map[string]string{
				"main.tf": `ephemeral "x" "y" {
  connection {}
  lifecycle {}
  lifecycle {}
  locals {}
}
check "c" {
  data "null_data_source" "n" {
    count = 1
  }
  assert {
    condition     = null_resource.r.id != ""
    error_message = "x"
  }
}
resource "null_resource" "r" {}
`,
			},
			want: []expectedDiag{
				{"error", "Duplicate lifecycle block", "This resource already has a lifecycle block at main.tf:3,3-12.", "main.tf:4,3-4,12"},
				{"error", "Reserved block type name in ephemeral block", "The block type name \"locals\" is reserved for use by Terraform in a future version.", "main.tf:5,3-5,9"},
				{"error", "Invalid \"count\" attribute", "The \"count\" and \"for_each\" meta-arguments are not supported within nested data blocks.", "main.tf:9,5-9,10"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := loadMapOpts(t, tt.files, WithFlavour(flavour.Terraform))
			got := diagsForCompare(diags)
			// The product name is the CLI's to word (internal/cli wording.go).
			for i := range got {
				got[i].Detail = strings.ReplaceAll(got[i].Detail, "OpenTofu", "Terraform")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
