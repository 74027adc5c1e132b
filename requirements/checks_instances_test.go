package requirements

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// forEachMatchesDetail is OpenTofu's detail of the warning "Provider
// configuration for_each matches KIND" for a block addressed by target.
func forEachMatchesDetail(kind, target string) string {
	return "This provider configuration uses the same for_each expression as a " + kind + ", which means that subsequent removal of elements from this collection would cause a planning error.\n\nOpenTofu relies on a provider instance to destroy resource instances that are associated with it, and so the provider instance must outlive all of its resource instances by at least one plan/apply round. For removal of instances to succeed in future you must structure the configuration so that the provider block's for_each expression can produce a superset of the instances of the resources associated with the provider configuration. Refer to the OpenTofu documentation for specific suggestions.\n\nTo destroy this object before removing the provider configuration, consider first performing a targeted destroy:\n    tofu apply -destroy -target=" + target
}

// TestProviderInstanceChecks covers the checks of references to provider
// configurations with for_each (OpenTofu 1.9) and of import blocks'
// provider arguments. The texts and subjects are those "tofu providers"
// (OpenTofu 1.12.6) prints for the same directories after "tofu get"
// (compared again when TFDEPS_REFERENCE_TOFU is set).
func TestProviderInstanceChecks(t *testing.T) {
	const noKey = "A reference to a provider configuration which uses for_each requires an instance key. Passing a collection of provider instances into a child module is not allowed."
	tests := []struct {
		name  string
		files map[string]string
		want  []checkDiag
	}{
		{
			name: "for_each matches resource and module",
			files: map[string]string{
				"main.tf": `locals {
  regions = toset(["a", "b"])
}

provider "null" {
  alias    = "each"
  for_each = local.regions
  region   = each.key
}

resource "null_resource" "same" {
  for_each = local.regions
  provider = null.each[each.key]
}

resource "null_resource" "parens" {
  for_each = (local.regions)
  provider = null.each[each.key]
}

data "null_data_source" "data_never_warns" {
  for_each = local.regions
  provider = null.each[each.key]
}

resource "null_resource" "other" {
  for_each = toset([for r in local.regions : r])
  provider = null.each[each.key]
}

module "m" {
  source   = "./m"
  for_each = local.regions
  providers = {
    null = null.each[each.key]
  }
}
`,
				"m/main.tf": `terraform {
  required_providers {
    null = {
      source = "hashicorp/null"
    }
  }
}

resource "null_resource" "x" {}
`,
			},
			want: []checkDiag{
				{"warning", "Provider configuration for_each matches resource", forEachMatchesDetail("resource", "null_resource.same"), "main.tf:12,14-12,27"},
				{"warning", "Provider configuration for_each matches resource", forEachMatchesDetail("resource", "null_resource.parens"), "main.tf:17,14-17,29"},
				{"warning", "Provider configuration for_each matches module", forEachMatchesDetail("module", "module.m"), "main.tf:33,14-33,27"},
			},
		},
		{
			name: "for_each matches resource in a child module",
			files: map[string]string{
				"main.tf": `module "child" {
  source = "./child"
}
`,
				"child/main.tf": `variable "names" {
  type    = set(string)
  default = ["a"]
}

provider "null" {
  alias    = "each"
  for_each = var.names
  region   = each.key
}

provider "null" {
  alias    = "constant"
  for_each = toset(["a"])
  region   = each.key
}

resource "null_resource" "r" {
  for_each = var.names
  provider = null.each[each.key]
}

resource "null_resource" "for_expression" {
  for_each = { for n in var.names : n => upper(n) if n != "" }
  provider = null.each[each.key]
}

resource "null_resource" "constant_never_warns" {
  for_each = toset(["a"])
  provider = null.constant[each.key]
}
`,
			},
			want: []checkDiag{
				{"warning", "Provider configuration for_each matches resource", forEachMatchesDetail("resource", "module.child.null_resource.r"), "child/main.tf:19,14-19,23"},
			},
		},
		{
			name: "instance keys",
			files: map[string]string{
				"main.tf": `provider "null" {
  alias  = "plain"
  region = "x"
}

provider "null" {
  alias = "empty"
}

provider "null" {
  alias    = "many"
  for_each = toset(["a"])
}

resource "null_resource" "a" {
  for_each = toset(["a"])
  provider = null.plain[each.key]
}

resource "null_resource" "b" {
  for_each = toset(["a"])
  provider = null.empty[each.key]
}

resource "null_resource" "c" {
  provider = null.many
}

data "null_data_source" "d" {
  for_each = toset(["a"])
  provider = null.missing[each.key]
}

module "m" {
  source = "./m"
  providers = {
    null          = null.many
    null.x["one"] = null.plain
  }
}
`,
				"m/main.tf": `terraform {
  required_providers {
    null = {
      source                = "hashicorp/null"
      configuration_aliases = [null.x]
    }
  }
}
`,
			},
			want: []checkDiag{
				{"error", "Invalid resource provider configuration", "An instance key can be specified only for a provider configuration that uses for_each.", "main.tf:17,25-17,33"},
				{"error", "Invalid resource provider configuration", "This module doesn't declare a provider \"null\" block with alias = \"empty\", which is required for use with for_each.", "main.tf:22,14-22,18"},
				{"error", "Invalid resource provider configuration", noKey, "main.tf:26,14-26,18"},
				{"error", "Invalid resource provider configuration", "This module doesn't declare a provider \"null\" block with alias = \"missing\", which is required for use with for_each.", "main.tf:31,14-31,18"},
				{"error", "Invalid module provider configuration", noKey, "main.tf:37,21-37,25"},
				{"error", "Invalid module provider configuration", "Instance keys are not allowed on the left side of a provider configuration assignment.", "main.tf:38,5-38,18"},
			},
		},
		{
			name: "import provider",
			files: map[string]string{
				"main.tf": `provider "local" {}

provider "local" {
  alias = "other"
}

import {
  provider = local
  id       = "a"
  to       = local_file.a
}

resource "local_file" "a" {}

import {
  provider = local.other
  id       = "b"
  to       = local_file.b
}

resource "local_file" "b" {
  provider = local
}

import {
  provider = local.other
  id       = "c"
  to       = local_file.c
}

resource "local_file" "c" {
  provider = local.other
}

import {
  provider = local.other
  for_each = toset(["x"])
  id       = each.key
  to       = local_file.d[each.key]
}

resource "local_file" "d" {
  for_each = toset(["x"])
}

import {
  provider = local
  id       = "e"
  to       = local_file.not_declared
}
`,
			},
			want: []checkDiag{
				{"error", "Invalid import provider argument", "The provider argument in the target resource block must be specified and match the import block.", "main.tf:8,3-8,19"},
				{"error", "Invalid import provider argument", "The provider argument in the target resource block must match the import block.", "main.tf:16,3-16,25"},
				{"error", "Invalid import provider argument", "The provider argument in the target resource block must be specified and match the import block.", "main.tf:36,3-36,25"},
			},
		},
		{
			name: "import provider JSON",
			files: map[string]string{
				"main.tf.json": `{
  "provider": {"local": {}},
  "import": [{"provider": "local", "id": "a", "to": "local_file.a"}],
  "resource": {"local_file": {"a": {}}}
}
`,
			},
			want: []checkDiag{
				{"error", "Invalid import provider argument", "The provider argument in the target resource block must be specified and match the import block.", "main.tf.json:3,15-3,34"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := loadMap(t, tt.files, Options{LocalModulesFromDisk: true})
			compareWithReference(t, tt.files, tt.want)
			if diff := cmp.Diff(sortChecks(tt.want), sortChecks(toCheckDiags(diags))); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSameForEach: the syntactic comparison of two for_each expressions
// behind "Provider configuration for_each matches …".
func TestSameForEach(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"local.x", "local.x", true},
		{"local.x", "(local.x)", true},
		{"((local.x))", "local.x", true},
		{"local.x", "local.y", false},
		{"local.x[\"a\"]", "local.x[\"a\"]", true},
		{"local.x[\"a\"]", "local.x[\"b\"]", false},
		{"local.x[0]", "local.x[\"0\"]", false},
		{"var.m[local.k]", "var.m[local.k]", true},
		{"var.m[local.k]", "var.m[local.j]", false},
		{"toset(var.l)", "toset(var.l)", true},
		{"toset(var.l)", "tolist(var.l)", false},
		{"toset(var.l)", "toset(var.l, 1)", false},
		{"var.b ? var.m : {}", "var.b ? var.m : {}", true},
		{"var.b ? var.m : {}", "var.b ? {} : var.m", false},
		{"{a = var.x, b = 1}", "{a = var.x, b = 1}", true},
		{"{a = var.x}", "{b = var.x}", false},
		{"{(var.k) = var.x}", "{(var.k) = var.x}", true},
		{"[var.a, var.b]", "[var.a, var.b]", true},
		{"[var.a, var.b]", "[var.b, var.a]", false},
		{"{for k, v in var.m : k => v if v != null}", "{for k, v in var.m : k => v if v != null}", true},
		{"{for k, v in var.m : k => v}", "{for k, v in var.m : k => v if v != null}", false},
		{"{for k, v in var.m : k => v...}", "{for k, v in var.m : k => v}", false},
		{"[for v in var.l : v]", "[for x in var.l : x]", false},
		{"var.n + 1", "var.n + 1", true},
		{"var.n + 1", "var.n - 1", false},
		{"-var.n", "-var.n", true},
		{"!var.b", "-var.b", false},
		{"\"${var.s}-x\"", "\"${var.s}-x\"", true},
		{"\"${var.s}-x\"", "\"${var.s}-y\"", false},
		{"var.l[*].id", "var.l[*].id", false},
		{"local.m.a", "local.m.a", true},
		{"local.m.a", "local.m.b", false},
		{"1", "1", true},
		{"null", "null", true},
	}
	for _, tt := range tests {
		a, diags := hclsyntax.ParseExpression([]byte(tt.a), "a.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", tt.a, diags)
		}
		b, diags := hclsyntax.ParseExpression([]byte(tt.b), "b.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", tt.b, diags)
		}
		if got := sameForEach(a, b); got != tt.want {
			t.Errorf("sameForEach(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := sameForEach(b, a); got != tt.want {
			t.Errorf("sameForEach(%s, %s) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
}
