package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTestFileDiagnostics checks the decoding of test files against what
// OpenTofu v1.12.6 reports while loading them (tofu validate -json).
func TestTestFileDiagnostics(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []expectedDiag
	}{
		{
			name: "test file blocks",
			files: map[string]string{
				"main.tf":      "resource \"test\" \"a\" {}\n",
				"a.tftest.hcl": "variables {\n  x = 1\n}\nvariables {\n  y = 2\n}\nrun \"bad name\" {\n  command = destroy\n  plan_options {\n    mode    = refresh-only\n    refresh = false\n  }\n  plan_options {}\n  module {\n    version = \"1.0\"\n  }\n  assert {\n    condition = true\n  }\n}\nrun \"ok\" {\n  expect_failures = [test.a]\n  providers = {\n    test = test.x\n    test = test.y\n  }\n}\n",
			},
			want: []expectedDiag{
				{"error", `Multiple "variables" blocks`, `This test file already has a variables block defined at a.tftest.hcl:1,1-10.`, "a.tftest.hcl:4,1-4,10"},
				{"error", `Invalid run block name`, `A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.`, "a.tftest.hcl:7,5-7,15"},
				{"error", `Incompatible plan options`, `The "refresh" option cannot be set to false when running a test in "refresh-only" mode.`, "a.tftest.hcl:11,5-11,20"},
				{"error", `Missing "source" attribute for module block`, `You must specify a source attribute when executing alternate modules during test executions.`, "a.tftest.hcl:14,3-14,9"},
				{"error", `Missing required argument`, `The argument "error_message" is required, but no definition was found.`, "a.tftest.hcl:17,10-17,10"},
				{"error", `Invalid assert expression`, `The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.`, "a.tftest.hcl:18,17-18,21"},
				{"error", `Invalid "command" keyword`, `The "command" argument requires one of the following keywords without quotes: apply or plan.`, "a.tftest.hcl:8,13-8,20"},
				{"error", `Duplicate provider address`, `A provider configuration was already passed to test at a.tftest.hcl:24,5-18. Each child provider configuration can be assigned only once.`, "a.tftest.hcl:25,12-25,18"},
			},
		},
		{
			name: "test file mocks and overrides",
			files: map[string]string{
				"main.tf":      "resource \"test\" \"a\" {}\n",
				"a.tftest.hcl": "mock_provider \"test\" {\n  mock_resource \"test\" {\n    defaults = \"no\"\n  }\n  mock_resource \"test\" {}\n  override_resource {\n    target = test.a\n  }\n  override_resource {\n    target = test.a\n  }\n}\nmock_provider \"test\" {}\nmock_provider \"Test\" {}\nmock_provider \"test\" {\n  for_each = {}\n}\noverride_module {\n  target = module.a.test.b\n}\noverride_data {\n  target = module.a\n}\noverride_resource {\n  target = test.a[0]\n  values = var.x\n}\nprovider \"test\" {\n  version = \"1.0\"\n}\nunknown {}\n",
			},
			want: []expectedDiag{
				{"error", `Unsupported block type`, `Blocks of type "unknown" are not expected here.`, "a.tftest.hcl:31,1-31,8"},
				{"error", `Object expected`, "The attribute `defaults` must be an object.", "a.tftest.hcl:3,5-3,20"},
				{"error", "Duplicated `override_resource` block", "`override_resource` with target `test.a` is already defined in `mock_provider` block.", "a.tftest.hcl:1,1-1,21"},
				{"error", `Invalid provider local name`, `Provider names must be normalized. Replace "Test" with "test" to fix this error.`, "a.tftest.hcl:14,1-14,21"},
				{"error", `Alias required when using "for_each"`, `The for_each argument is allowed only for provider configurations with an alias.`, "a.tftest.hcl:16,14-16,16"},
				{"error", `Module address expected`, `It's not allowed to reference anything other than module here.`, "a.tftest.hcl:19,20-19,25"},
				{"error", `Module address is not allowed`, `Expected reference to either resource or data block. Provided reference appears to be a module.`, "a.tftest.hcl:22,12-22,20"},
				{"error", `Resource instance address with keys is not allowed`, `Resource address cannot be a resource instance (e.g. "null_resource.a[0]"), it must be a resource instead (e.g. "null_resource.a").`, "a.tftest.hcl:25,18-25,21"},
				{"error", `Variables not allowed`, `Variables may not be used here.`, "a.tftest.hcl:26,12-26,15"},
				{"warning", `Version constraints inside provider configuration blocks are deprecated`, `OpenTofu 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of OpenTofu. To silence this warning, move the provider version constraint into the required_providers block.`, "a.tftest.hcl:29,13-29,18"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := loadMapOpts(t, tt.files, WithTestsDir("tests"))
			if diff := cmp.Diff(tt.want, diagsForCompare(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
