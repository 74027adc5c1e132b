package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLanguageDiagnostics checks the decoding of the whole language against
// what OpenTofu v1.12.6 reports for the same file (observed with
// `tofu validate -json`: summary, detail and subject range, in order).
// validate -json widens an empty range by one column when it prints it
// (Missing required argument, empty traversals); the ranges here are the
// loader's.
func TestLanguageDiagnostics(t *testing.T) {
	tests := []struct {
		name string
		file string
		src  string
		want []expectedDiag
	}{
		{
			name: "provider instance key from for_each",
			file: "a.tf",
			src:  "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"a\", \"b\"])\n}\nresource \"aws_instance\" \"x\" {\n  for_each = toset([\"a\", \"b\"])\n  provider = aws.by_region[each.key]\n}\ndata \"aws_ami\" \"y\" {\n  provider = aws.by_region[\"a\"]\n}\n",
			want: []expectedDiag{},
		},
		{
			name: "instance key without alias",
			file: "a.tf",
			src:  "resource \"aws_instance\" \"x\" {\n  provider = aws[\"a\"]\n}\n",
			want: []expectedDiag{
				{"error", `Invalid provider configuration reference`, `Provider name must either stand alone or be followed by a period and then a configuration alias.`, "a.tf:2,17-2,22"},
			},
		},
		{
			name: "legacy bare list and map types",
			file: "a.tf",
			src:  "variable \"a\" {\n  type = list\n}\nvariable \"b\" {\n  type = map\n}\nvariable \"c\" {\n  type = string\n}\n",
			want: []expectedDiag{},
		},
		{
			name: "quoted type constraints",
			file: "a.tf",
			src:  "variable \"a\" {\n  type = \"string\"\n}\nvariable \"b\" {\n  type = \"list\"\n}\nvariable \"c\" {\n  type = \"map\"\n}\nvariable \"d\" {\n  type = \"list(string)\"\n}\n",
			want: []expectedDiag{
				{"error", `Invalid quoted type constraints`, `OpenTofu 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of OpenTofu. Remove the quotes around "string".`, "a.tf:2,10-2,18"},
				{"error", `Invalid quoted type constraints`, `OpenTofu 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of OpenTofu. Remove the quotes around "list" and write list(string) instead to explicitly indicate that the list elements are strings.`, "a.tf:5,10-5,16"},
				{"error", `Invalid quoted type constraints`, `OpenTofu 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of OpenTofu. Remove the quotes around "map" and write map(string) instead to explicitly indicate that the map elements are strings.`, "a.tf:8,10-8,15"},
				{"error", `Invalid legacy variable type hint`, `To provide a full type expression, remove the surrounding quotes and give the type expression directly.`, "a.tf:11,10-11,24"},
			},
		},
		{
			name: "quoted provisioner keywords",
			file: "a.tf",
			src:  "resource \"null_resource\" \"a\" {\n  provisioner \"local-exec\" {\n    when       = \"create\"\n    on_failure = \"fail\"\n  }\n}\n",
			want: []expectedDiag{
				{"warning", `Quoted keywords are deprecated`, `In this context, keywords are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted keywords are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this keyword to silence this warning.`, "a.tf:3,18-3,26"},
				{"warning", `Quoted keywords are deprecated`, `In this context, keywords are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted keywords are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this keyword to silence this warning.`, "a.tf:4,18-4,24"},
			},
		},
		{
			name: "quoted references in depends_on and provider",
			file: "a.tf",
			src:  "resource \"null_resource\" \"a\" {\n  provider   = \"null.x\"\n  depends_on = [\"null_resource.b\"]\n}\nresource \"null_resource\" \"b\" {}\n",
			want: []expectedDiag{
				{"warning", `Quoted references are deprecated`, `In this context, references are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this reference to silence this warning.`, "a.tf:2,16-2,24"},
				{"warning", `Quoted references are deprecated`, `In this context, references are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this reference to silence this warning.`, "a.tf:3,17-3,34"},
			},
		},
		{
			name: "self references in conditions",
			file: "a.tf",
			src:  "resource \"test\" \"a\" {\n  lifecycle {\n    precondition {\n      condition     = test.a.x == 1\n      error_message = \"no\"\n    }\n    postcondition {\n      condition     = self.x == 1\n      error_message = \"is ${test.a[0].x}\"\n    }\n  }\n}\ndata \"test\" \"b\" {\n  lifecycle {\n    postcondition {\n      condition     = data.test.b.x\n      error_message = \"no\"\n    }\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Invalid reference in precondition`, `Configuration for test.a may not refer to itself.`, "a.tf:4,23-4,36"},
				{"error", `Invalid reference in postcondition`, `Configuration for test.a may not refer to itself.`, "a.tf:9,23-9,42"},
				{"error", `Invalid reference in postcondition`, `Configuration for data.test.b may not refer to itself.`, "a.tf:16,23-16,36"},
			},
		},
		{
			name: "constant conditions",
			file: "a.tf",
			src:  "resource \"test\" \"a\" {\n  lifecycle {\n    precondition {\n      condition     = true\n      error_message = \"no\"\n    }\n  }\n}\noutput \"o\" {\n  value = 1\n  precondition {\n    condition     = 1 == 1\n    error_message = \"no\"\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Invalid precondition expression`, `The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.`, "a.tf:4,23-4,27"},
				{"error", `Invalid precondition expression`, `The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.`, "a.tf:12,21-12,27"},
			},
		},
		{
			name: "validation must refer to its variable",
			file: "a.tf",
			src:  "variable \"a\" {\n  validation {\n    condition     = var.b != \"\"\n    error_message = \"no\"\n  }\n}\nvariable \"b\" {\n  validation {\n    condition     = true\n    error_message = \"no\"\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Invalid variable validation condition`, `The condition for variable "a" must refer to var.a in order to test incoming values.`, "a.tf:3,21-3,32"},
				{"error", `Invalid validation expression`, `The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.`, "a.tf:9,21-9,25"},
				{"error", `Invalid variable validation condition`, `The condition for variable "b" must refer to var.b in order to test incoming values.`, "a.tf:9,21-9,25"},
			},
		},
		{
			name: "missing error_message",
			file: "a.tf",
			src:  "variable \"a\" {\n  validation {\n    condition = var.a != \"\"\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Missing required argument`, `The argument "error_message" is required, but no definition was found.`, "a.tf:2,14-2,14"},
			},
		},
		{
			name: "replace_triggered_by",
			file: "a.tf",
			src:  "resource \"test\" \"a\" {\n  for_each = {}\n  lifecycle {\n    replace_triggered_by = [\n      test.b[each.value],\n      not_a_ref,\n      var.x,\n      test.b.id == test.c.id,\n      count.value,\n      \"x\",\n    ]\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Invalid each reference in replace_triggered_by expression`, `Only each.key may be used in replace_triggered_by.`, "a.tf:5,7-5,25"},
				{"error", `Invalid reference`, `A reference to a resource type must be followed by at least one attribute access, specifying the resource name.`, "a.tf:6,7-6,16"},
				{"error", `Invalid reference in replace_triggered_by expression`, `Only resources, count.index, and each.key may be used in replace_triggered_by.`, "a.tf:7,7-7,12"},
				{"error", `Invalid replace_triggered_by expression`, `Missing resource reference in replace_triggered_by expression.`, "a.tf:7,7-7,12"},
				{"error", `Invalid replace_triggered_by expression`, `Multiple resource references in replace_triggered_by expression.`, "a.tf:8,7-8,29"},
				{"error", `Invalid count reference in replace_triggered_by expression`, `Only count.index may be used in replace_triggered_by.`, "a.tf:9,7-9,18"},
				{"error", `Invalid replace_triggered_by expression`, `Missing resource reference in replace_triggered_by expression.`, "a.tf:9,7-9,18"},
				{"error", `Invalid replace_triggered_by expression`, `Missing resource reference in replace_triggered_by expression.`, "a.tf:10,7-10,10"},
			},
		},
		{
			name: "provider local names",
			file: "a.tf",
			src:  "resource \"aws_instance\" \"a\" {\n  provider = AWS\n}\ndata \"aws_ami\" \"b\" {\n  provider = crash_es.x\n}\nprovider \"Foo\" {}\n",
			want: []expectedDiag{
				{"error", `Invalid provider local name`, `Provider names must be normalized. Replace "AWS" with "aws" to fix this error.`, "a.tf:2,14-2,17"},
				{"error", `Invalid provider local name`, `crash_es is an invalid provider local name: must contain only letters, digits, and dashes, and may not use leading or trailing dashes`, "a.tf:5,14-5,22"},
				{"error", `Invalid provider local name`, `Provider names must be normalized. Replace "Foo" with "foo" to fix this error.`, "a.tf:7,1-7,15"},
			},
		},
		{
			name: "provider_meta interpolation and name",
			file: "a.tf",
			src:  "terraform {\n  provider_meta \"my-provider\" {\n    hello = var.name\n  }\n  provider_meta \"Bad\" {\n    a = 1\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Variables not allowed`, `Variables may not be used here.`, "a.tf:3,13-3,16"},
				{"error", `Invalid provider local name`, `Provider names must be normalized. Replace "Bad" with "bad" to fix this error.`, "a.tf:5,3-5,22"},
			},
		},
		{
			name: "deprecated output and variable",
			file: "a.tf",
			src:  "output \"a\" {\n  value      = 1\n  deprecated = \"\"\n}\nvariable \"b\" {\n  deprecated = \"  \"\n}\n",
			want: []expectedDiag{
				{"error", "Invalid `deprecated` attribute", `The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated output value.`, "a.tf:3,16-3,18"},
				{"error", "Invalid `deprecated` value", `The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated variable.`, "a.tf:5,10-5,13"},
			},
		},
		{
			name: "removed provisioners",
			file: "a.tf",
			src:  "resource \"null_resource\" \"a\" {\n  provisioner \"habitat\" {}\n  provisioner \"chef\" {}\n  provisioner \"puppet\" {}\n  provisioner \"salt-masterless\" {}\n}\n",
			want: []expectedDiag{
				{"error", `The "habitat" provisioner has been removed`, `The "habitat" provisioner is deprecated and has been removed from OpenTofu.`, "a.tf:2,15-2,24"},
				{"error", `The "chef" provisioner has been removed`, `The "chef" provisioner is deprecated and has been removed from OpenTofu.`, "a.tf:3,15-3,21"},
				{"error", `The "puppet" provisioner has been removed`, `The "puppet" provisioner is deprecated and has been removed from OpenTofu.`, "a.tf:4,15-4,23"},
				{"error", `The "salt-masterless" provisioner has been removed`, `The "salt-masterless" provisioner is deprecated and has been removed from OpenTofu.`, "a.tf:5,15-5,32"},
			},
		},
		{
			name: "ignore_changes mix",
			file: "a.tf",
			src:  "resource \"test\" \"a\" {\n  lifecycle {\n    ignore_changes = [\"*\", x]\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Invalid ignore_changes wildcard`, `The ["*"] form of ignore_changes wildcard is was deprecated and is now invalid. Use "ignore_changes = all" to ignore changes to all attributes.`, "a.tf:3,22-3,30"},
				{"error", `Invalid ignore_changes ruleset`, `Cannot mix wildcard string "*" with non-wildcard references.`, "a.tf:3,23-3,26"},
			},
		},
		{
			name: "import blocks",
			file: "a.tf",
			src:  "import {\n  to       = module.m.test.a\n  id       = \"x\"\n  provider = test.b\n}\nimport {\n  to = test.b\n}\nimport {\n  to       = test.c\n  id       = \"c\"\n  identity = {}\n}\nimport {\n  to = \"test.d\"\n  id = \"d\"\n}\n",
			want: []expectedDiag{
				{"error", `Invalid import provider argument`, "The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the providers argument within the module block to configure providers for all resources within a module, including imported resources.", "a.tf:4,3-4,20"},
				{"error", `Missing required import argument`, `One of 'id' or 'identity' must be specified in an import block to identify the resource instance to import.`, "a.tf:6,1-6,7"},
				{"error", `Conflicting import arguments`, `Only one of 'id' or 'identity' can be specified in an import block. 'id' identifies the resource instance by its ID, while 'identity' identifies the resource instance by its Resource Identity. Choose one method to identify the resource instance to import.`, "a.tf:11,3-12,16"},
				{"error", `Invalid import address expression`, `Import address must be a reference to a resource's address, and only allows for indexing with dynamic keys. For example: module.my_module[expression1].aws_s3_bucket.my_buckets[expression2] for resources inside of modules, or simply aws_s3_bucket.my_bucket for a resource in the root module`, "a.tf:15,8-15,16"},
			},
		},
		{
			name: "object attribute ignored",
			file: "a.tf",
			src:  "variable \"a\" {\n  type = object({\n    name = string\n    tags = map(object({ v = string }))\n  })\n  default = {\n    name  = \"x\"\n    nmae  = \"y\"\n    tags  = { k = { v = \"1\", w = \"2\" } }\n  }\n}\n",
			want: []expectedDiag{
				{"warning", `Object attribute is ignored`, `The object type for this variable does not include an attribute named "nmae", so this definition is unused. Did you mean to set attribute "name" instead?`, "a.tf:8,5-8,9"},
				{"warning", `Object attribute is ignored`, `The object type for .tags["k"] does not include an attribute named "w", so this definition is unused. Did you mean to set attribute "v" instead?`, "a.tf:9,30-9,31"},
			},
		},
		{
			name: "reserved provider arguments",
			file: "a.tf",
			src:  "provider \"aws\" {\n  count      = 1\n  depends_on = []\n  source     = \"x\"\n  locals {}\n}\n",
			want: []expectedDiag{
				{"error", `Reserved argument name in provider block`, `The provider argument name "count" is reserved for use by OpenTofu in a future version.`, "a.tf:2,3-2,8"},
				{"error", `Reserved argument name in provider block`, `The provider argument name "depends_on" is reserved for use by OpenTofu in a future version.`, "a.tf:3,3-3,13"},
				{"error", `Reserved argument name in provider block`, `The provider argument name "source" is reserved for use by OpenTofu in a future version.`, "a.tf:4,3-4,9"},
				{"error", `Reserved block type name in provider block`, `The block type name "locals" is reserved for use by OpenTofu in a future version.`, "a.tf:5,3-5,9"},
			},
		},
		{
			name: "data lifecycle arguments",
			file: "a.tf",
			src:  "data \"test\" \"a\" {\n  lifecycle {\n    create_before_destroy = true\n    prevent_destroy       = true\n    ignore_changes        = []\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Invalid data resource lifecycle argument`, `The lifecycle argument "create_before_destroy" is defined only for managed resources ("resource" blocks), and is not valid for data resources.`, "a.tf:3,5-3,26"},
				{"error", `Invalid data resource lifecycle argument`, `The lifecycle argument "prevent_destroy" is defined only for managed resources ("resource" blocks), and is not valid for data resources.`, "a.tf:4,5-4,20"},
				{"error", `Invalid data resource lifecycle argument`, `The lifecycle argument "ignore_changes" is defined only for managed resources ("resource" blocks), and is not valid for data resources.`, "a.tf:5,5-5,19"},
			},
		},
		{
			name: "ephemeral lifecycle and blocks",
			file: "a.tf",
			src:  "ephemeral \"test\" \"a\" {\n  lifecycle {\n    create_before_destroy = true\n    ignore_changes        = []\n  }\n  connection {}\n  provisioner \"local-exec\" {}\n}\n",
			want: []expectedDiag{
				{"error", `Invalid lifecycle configuration for ephemeral resource`, `The lifecycle argument "create_before_destroy" cannot be used in ephemeral resources. This is meant to be used strictly in "resource" blocks.`, "a.tf:2,3-2,12"},
				{"error", `Invalid lifecycle configuration for ephemeral resource`, `The lifecycle argument "ignore_changes" cannot be used in ephemeral resources. This is meant to be used strictly in "resource" blocks.`, "a.tf:2,3-2,12"},
				{"error", `Invalid configuration block for ephemeral resource`, `The block type "connection" cannot be used in ephemeral resources. This is meant to be used strictly in "resource" blocks.`, "a.tf:6,3-6,13"},
				{"error", `Invalid configuration block for ephemeral resource`, `The block type "provisioner" cannot be used in ephemeral resources. This is meant to be used strictly in "resource" blocks.`, "a.tf:7,3-7,27"},
			},
		},
		{
			name: "destroy provisioner references",
			file: "a.tf",
			src:  "resource \"null_resource\" \"a\" {\n  connection {\n    host = null_resource.b.id\n  }\n  provisioner \"local-exec\" {\n    when    = destroy\n    command = \"echo ${var.x} ${self.id} ${count.index} ${each.value}\"\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Invalid reference from destroy provisioner`, "Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\nReferences to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.", "a.tf:7,15-7,70"},
				{"error", `Invalid reference from destroy provisioner`, "Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\nReferences to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.", "a.tf:7,15-7,70"},
				{"error", `Invalid reference from destroy provisioner`, "Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\nReferences to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.", "a.tf:3,12-3,30"},
			},
		},
		{
			name: "count and for_each wording",
			file: "a.tf",
			src:  "data \"test\" \"a\" {\n  count    = 1\n  for_each = {}\n}\nephemeral \"test\" \"b\" {\n  count    = 1\n  for_each = {}\n}\nmodule \"c\" {\n  source   = \"./c\"\n  count    = 1\n  for_each = {}\n}\n",
			want: []expectedDiag{
				{"error", `Invalid combination of "count" and "for_each"`, `The "count" and "for_each" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of data sources to be created.`, "a.tf:2,3-3,11"},
				{"error", `Invalid combination of "count" and "for_each"`, `The "count" and "for_each" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of ephemeral resources to be created.`, "a.tf:6,3-7,11"},
				{"error", `Invalid combination of "count" and "for_each"`, `The "count" and "for_each" meta-arguments are mutually-exclusive. Only one should be used to be explicit about the number of module instances to be created.`, "a.tf:11,3-12,11"},
			},
		},
		{
			name: "nested data in check",
			file: "a.tf",
			src:  "check \"c\" {\n  data \"test\" \"a\" {\n    count = 1\n    lifecycle {}\n  }\n  assert {\n    condition     = data.test.a.ok\n    error_message = \"no\"\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Invalid "count" attribute`, `The "count" meta-argument is not supported within nested data blocks.`, "a.tf:3,5-3,10"},
				{"error", `Invalid lifecycle block`, `Nested data blocks do not support "lifecycle" blocks as the lifecycle is managed by the containing block.`, "a.tf:4,5-4,14"},
			},
		},
		{
			name: "removed block provisioners",
			file: "a.tf",
			src:  "removed {\n  from = test.a\n  provisioner \"local-exec\" {\n    command = \"x\"\n  }\n  lifecycle {\n    destroy = true\n  }\n}\nremoved {\n  from = test.b\n  provisioner \"local-exec\" {\n    when    = destroy\n    command = \"x\"\n  }\n  lifecycle {\n    destroy = false\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Invalid "removed.provisioner" block`, `"removed" blocks can only contain destroy provisioners. "removed.provisioner.when = destroy" expected`, "a.tf:3,3-3,27"},
				{"warning", `Removed block provisioners will not be executed`, `The 'removed' block has marked the resource to be forgotten and not destroyed. Therefore, the provisioners configured for it will not be executed.`, "a.tf:10,1-10,8"},
			},
		},
		{
			name: "variable name reserved",
			file: "a.tf",
			src:  "variable \"source\" {}\nvariable \"provider\" {}\nvariable \"_\" {}\n",
			want: []expectedDiag{
				{"error", `Invalid variable name`, `The variable name "source" is reserved due to its special meaning inside module blocks.`, "a.tf:1,10-1,18"},
				{"error", `Invalid variable name`, `The variable name "provider" is reserved due to its special meaning inside module blocks.`, "a.tf:2,10-2,20"},
				{"error", `Invalid variable name`, `The variable name "_" is reserved due to its special meaning inside module blocks.`, "a.tf:3,10-3,13"},
			},
		},
		{
			name: "configuration_aliases",
			file: "a.tf",
			src:  "terraform {\n  required_providers {\n    aws = {\n      source                = \"hashicorp/aws\"\n      configuration_aliases = [aws, aws.a, google.b, aws.c.d, \"aws.e\"]\n    }\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Invalid configuration_aliases value`, `Configuration aliases must be prefixed with the provider name. Expected "aws", but found "google".`, "a.tf:5,31-5,71"},
				{"error", `Invalid expression`, `A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.`, "a.tf:5,63-5,70"},
			},
		},
		{
			name: "moved addresses",
			file: "a.tf",
			src:  "moved {\n  from = test.a\n  to   = module.b\n}\nmoved {\n  from = ephemeral.test.a\n  to   = ephemeral.test.b\n}\nmoved {\n  from = test.a[0].x\n  to   = test.b\n}\nmoved {\n  from = module.a[\"k\"].test.a[\"x\"]\n  to   = module.b.test.b\n}\nmoved {\n  from = module\n  to   = data\n}\nmoved {\n  from = test.a\n}\nmoved {\n  from = test.a.b.c\n  to   = \"test.b\"\n}\n",
			want: []expectedDiag{
				{"error", `Invalid "moved" addresses`, `The "from" and "to" addresses must either both refer to resources or both refer to modules.`, "a.tf:1,1-1,6"},
				{"error", `Invalid "moved" address`, `The resource referenced by the "from" attribute is not allowed to be moved.`, "a.tf:5,1-5,6"},
				{"error", `Invalid "moved" address`, `The resource referenced by the "to" attribute is not allowed to be moved.`, "a.tf:5,1-5,6"},
				{"error", `Invalid address`, `Unexpected extra operators after address.`, "a.tf:10,19-10,21"},
				{"error", `Invalid "moved" address`, `The resource referenced by the "from" attribute is not allowed to be moved.`, "a.tf:9,1-9,6"},
				{"error", `Invalid address operator`, `Prefix "module." must be followed by a module name.`, "a.tf:18,10-18,16"},
				{"error", `Invalid address`, `Resource specification must include a resource type and name.`, ":0,0-0,0"},
				{"error", `Invalid "moved" address`, `The resource referenced by the "from" attribute is not allowed to be moved.`, "a.tf:17,1-17,6"},
				{"error", `Invalid "moved" address`, `The resource referenced by the "to" attribute is not allowed to be moved.`, "a.tf:17,1-17,6"},
				{"error", `Missing required argument`, `The argument "to" is required, but no definition was found.`, "a.tf:21,7-21,7"},
				{"error", `Invalid "moved" address`, `The resource referenced by the "to" attribute is not allowed to be moved.`, "a.tf:21,1-21,6"},
				{"error", `Invalid address`, `Unexpected extra operators after address.`, "a.tf:25,18-25,20"},
				{"error", `Invalid expression`, `A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.`, "a.tf:26,10-26,18"},
				{"error", `Invalid "moved" address`, `The resource referenced by the "from" attribute is not allowed to be moved.`, "a.tf:24,1-24,6"},
				{"error", `Invalid "moved" address`, `The resource referenced by the "to" attribute is not allowed to be moved.`, "a.tf:24,1-24,6"},
			},
		},
		{
			name: "removed addresses",
			file: "a.tf",
			src:  "removed {\n  from = data.test.a\n  lifecycle {\n    destroy = false\n  }\n}\nremoved {\n  from = ephemeral.test.a\n  lifecycle {\n    destroy = false\n  }\n}\nremoved {\n  from = module.a[0]\n  lifecycle {\n    destroy = false\n  }\n}\nremoved {\n  from = test.a[0]\n  lifecycle {\n    destroy = false\n  }\n}\nremoved {\n  from = module.m\n  provisioner \"local-exec\" {\n    when    = destroy\n    command = \"x\"\n  }\n  lifecycle {\n    destroy = true\n  }\n  lifecycle {}\n}\nremoved {\n  from = test.x\n}\n",
			want: []expectedDiag{
				{"error", `Data source address is not allowed`, `Data sources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove data sources from the state, you should remove the data source block from the configuration.`, "a.tf:2,10-2,21"},
				{"error", `Ephemeral resource address is not allowed`, `Ephemeral resources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove ephemeral resources from the state, you should remove the ephemeral resource block from the configuration.`, "a.tf:8,10-8,26"},
				{"error", `Module instance address with keys is not allowed`, `Module address cannot be a module instance (e.g. "module.a[0]"), it must be a module instead (e.g. "module.a").`, "a.tf:14,18-14,21"},
				{"error", `Resource instance address with keys is not allowed`, `Resource address cannot be a resource instance (e.g. "null_resource.a[0]"), it must be a resource instead (e.g. "null_resource.a").`, "a.tf:20,16-20,19"},
				{"error", `Invalid "removed" block`, `"removed" blocks containing "provisioner"s can only target resources. Found one block that is targeting a module`, "a.tf:25,1-25,8"},
				{"error", `Duplicate lifecycle block`, `The removed block already has a lifecycle block at a.tf:31,3-12.`, "a.tf:34,3-34,12"},
				{"warning", `Missing lifecycle from the removed block`, `It is recommended for each 'removed' block configured to have also the 'lifecycle' block defined. By not specifying if the resource should be destroyed or not, could lead to unwanted behavior.`, "a.tf:36,1-36,8"},
			},
		},
		{
			name: "encryption block",
			file: "a.tf",
			src:  "terraform {\n  encryption {\n    key_provider \"pbkdf2\" \"k\" {\n      passphrase = \"x\"\n    }\n    key_provider \"pbkdf2\" \"k\" {}\n    method \"aes_gcm\" \"bad name\" {}\n    state {\n      enforced = \"maybe\"\n    }\n    unknown = 1\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Unsupported argument`, `An argument named "unknown" is not expected here.`, "a.tf:11,5-11,12"},
				{"error", `Unsuitable value type`, `Unsuitable value: a bool is required`, "a.tf:9,19-9,24"},
			},
		},
		{
			name: "encryption duplicates",
			file: "a.tf",
			src:  "terraform {\n  encryption {\n    key_provider \"pbkdf2\" \"k\" {}\n    key_provider \"pbkdf2\" \"k\" {}\n    method \"aes_gcm\" \"m\" {}\n    method \"aes_gcm\" \"m\" {}\n    remote_state_data_sources {\n      remote_state_data_source \"a\" {}\n      remote_state_data_source \"a\" {}\n    }\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Duplicate key_provider`, `Found multiple instances of key_provider.pbkdf2.k`, "a.tf:2,3-2,13"},
				{"error", `Duplicate key_provider`, `Found multiple instances of key_provider.pbkdf2.k`, "a.tf:2,3-2,13"},
				{"error", `Duplicate method`, `Found multiple instances of method.aes_gcm.m`, "a.tf:2,3-2,13"},
				{"error", `Duplicate method`, `Found multiple instances of method.aes_gcm.m`, "a.tf:2,3-2,13"},
				{"error", `Duplicate remote_data_source`, `Found multiple instances of remote_data_source.a`, "a.tf:2,3-2,13"},
				{"error", `Duplicate remote_data_source`, `Found multiple instances of remote_data_source.a`, "a.tf:2,3-2,13"},
			},
		},
		{
			name: "module providers and name",
			file: "a.tf",
			src:  "module \"bad name\" {\n  source = \"./m\"\n  providers = {\n    aws     = aws.a\n    aws     = aws.b\n    \"aws.x\" = aws\n  }\n  nope = 1\n  lifecycle {\n    nope = 1\n  }\n  locals {}\n}\n",
			want: []expectedDiag{
				{"error", `Invalid module instance name`, `A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.`, "a.tf:1,8-1,18"},
				{"error", `Duplicate provider address`, `A provider configuration was already passed to aws at a.tf:4,5-20. Each child provider configuration can be assigned only once.`, "a.tf:5,15-5,20"},
				{"warning", `Quoted references are deprecated`, `In this context, references are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this reference to silence this warning.`, "a.tf:6,5-6,12"},
				{"error", `Unsupported argument`, `An argument named "nope" is not expected here.`, "a.tf:10,5-10,9"},
				{"error", `Reserved block type name in module block`, `The block type name "locals" is reserved for use by OpenTofu in a future version.`, "a.tf:12,3-12,9"},
			},
		},
		{
			name: "import targets",
			file: "a.tf",
			src:  "import {\n  to = module.a\n  id = \"x\"\n}\nimport {\n  to = test.a.b.c\n  id = \"x\"\n}\nimport {\n  to = module.a[each.key].test.b[each.value]\n  for_each = {}\n  id = \"x\"\n}\nimport {\n  to = test.a[\"k\"].x\n  id = \"x\"\n  provider = aws\n}\n",
			want: []expectedDiag{
				{"error", `Invalid address`, `A resource instance address is required here. The module path must be followed by a resource instance specification.`, "a.tf:2,8-2,16"},
				{"error", `Invalid address`, `Unexpected extra operators after address.`, "a.tf:6,16-6,18"},
				{"error", `Invalid address`, `Unexpected extra operators after address.`, "a.tf:15,19-15,21"},
			},
		},
		{
			name: "json legacy types and quoted refs",
			file: "a.tf.json",
			src:  "{\n  \"variable\": {\n    \"a\": {\"type\": \"list\"},\n    \"b\": {\"type\": \"map\"},\n    \"c\": {\"type\": \"string\"},\n    \"d\": {\"type\": \"list(string)\"}\n  },\n  \"resource\": {\n    \"null_resource\": {\n      \"r\": {\n        \"depends_on\": [\"null_resource.s\"],\n        \"provider\": \"null.x\",\n        \"lifecycle\": {\"replace_triggered_by\": [\"null_resource.s.id\", \"var.x\"]}\n      }\n    }\n  }\n}\n",
			want: []expectedDiag{
				{"error", `Invalid reference in replace_triggered_by expression`, `Only resources, count.index, and each.key may be used in replace_triggered_by.`, "a.tf.json:13,70-13,75"},
				{"error", `Invalid replace_triggered_by expression`, `Missing resource reference in replace_triggered_by expression.`, "a.tf.json:13,70-13,75"},
			},
		},
		{
			name: "json provider instance key",
			file: "a.tf.json",
			src:  "{\n  \"provider\": {\"aws\": {\"alias\": \"by_region\", \"for_each\": \"${toset([\\\"a\\\"])}\"}},\n  \"resource\": {\n    \"aws_instance\": {\n      \"x\": {\"for_each\": \"${toset([\\\"a\\\"])}\", \"provider\": \"aws.by_region[each.key]\"}\n    }\n  }\n}\n",
			want: []expectedDiag{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := loadMap(t, map[string]string{tt.file: tt.src})
			if diff := cmp.Diff(tt.want, diagsForCompare(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
