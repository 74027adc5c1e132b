package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// TestTerraformTestFileDiagnostics checks the decoding of test files in the
// Terraform flavour against what terraform 1.15.9 reports while loading
// them (terraform init; the same files, byte for byte, are compared with
// the binary in testdata/reference_terraform/tftest_schema_terraform.txtar).
func TestTerraformTestFileDiagnostics(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []expectedDiag
	}{
		{
			name: "terraform schema accepted",
			src:  "test { parallel = true }\nvariables { x = \"b\" }\nmock_provider \"aws\" { alias = \"m\" }\noverride_resource {\n  target = aws_instance.x\n  values = {}\n}\nrun \"first\" {\n  command = plan\n  state_key = \"one\"\n  parallel = true\n  module { source = \"./mod\" }\n  assert {\n    condition = output.z == 1\n    error_message = \"bad\"\n  }\n}\nrun \"second\" {\n  module {\n    source  = \"acme/net/aws\"\n    version = \"~> 1.0\"\n  }\n}\n",
			want: []expectedDiag{},
		},
		{
			name: "experimental arguments",
			src:  "run \"second\" {\n  skip_cleanup = true\n  backend \"local\" {}\n  expect_failures = []\n}\n",
			want: []expectedDiag{
				{"error", "Invalid block", "The backend block is only available within run blocks in experimental builds of Terraform.", "a.tftest.hcl:3,3-3,18"},
				{"error", "Invalid attribute", "The skip_cleanup attribute is only available in experimental builds of Terraform.", "a.tftest.hcl:2,3-2,15"},
			},
		},
		{
			name: "override bad",
			src:  "override_resource {\n  values = {}\n}\noverride_resource {\n  target = data.x.y\n}\noverride_data {\n  target = aws_instance.x\n}\noverride_module {\n  target = aws_instance.x\n}\noverride_resource {\n  target = module.m\n}\noverride_resource {\n  target = var.x\n}\noverride_resource {\n  target = aws_instance.x[*]\n}\noverride_resource {\n  target = \"aws_instance.x\"\n}\noverride_resource {\n  target = aws_instance.x\n  foo = 1\n}\noverride_resource {\n  target = aws_instance.x\n}\noverride_module {\n  target = module.a[1]\n}\noverride_module {\n  target = module.a[1]\n}\noverride_resource {\n  target = resource.var.x\n}\noverride_resource {\n  target = ephemeral.x.y\n}\n",
			want: []expectedDiag{
				{"error", "Missing target attribute", "override_resource blocks must specify a target address.", "a.tftest.hcl:1,1-1,18"},
				{"error", "Invalid override target", "You can only target resources from override_resource blocks, not data.x.y.", "a.tftest.hcl:5,3-5,20"},
				{"error", "Invalid override target", "You can only target data sources from override_data blocks, not aws_instance.x.", "a.tftest.hcl:8,3-8,26"},
				{"error", "Invalid override target", "You can only target modules from override_module blocks, not aws_instance.x.", "a.tftest.hcl:11,3-11,26"},
				{"error", "Invalid override target", "You can only target resources from override_resource blocks, not module.m.", "a.tftest.hcl:14,3-14,20"},
				{"error", "Invalid address", "The keyword \"var\" is reserved and cannot be used to target a resource address. If you are targeting a resource type that uses a reserved keyword, please prefix your address with \"resource.\".", "a.tftest.hcl:17,12-17,17"},
				{"error", "Invalid expression", "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.", "a.tftest.hcl:20,12-20,29"},
				{"error", "Invalid expression", "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.", "a.tftest.hcl:23,12-23,28"},
				{"error", "Unsupported argument", "An argument named \"foo\" is not expected here.", "a.tftest.hcl:27,3-27,6"},
				{"error", "Duplicate override_resource block", "An override_resource block targeting aws_instance.x has already been defined at a.tftest.hcl:25,1-18.", "a.tftest.hcl:29,1-29,18"},
				{"error", "Duplicate override_module block", "An override_module block targeting module.a[1] has already been defined at a.tftest.hcl:32,1-16.", "a.tftest.hcl:35,1-35,16"},
				{"error", "Invalid override target", "You can only target resources from override_resource blocks, not ephemeral.x.y.", "a.tftest.hcl:42,3-42,25"},
			},
		},
		{
			name: "mock bad",
			src:  "mock_provider \"aws\" {\n  alias = \"1x\"\n  for_each = {}\n  source = 1\n  override_during = destroy\n  mock_resource \"x\" {\n    foo = 1\n  }\n  mock_resource \"x\" {}\n  mock_data \"x\" {}\n  mock_data \"x\" {}\n  override_resource {\n    target = aws_instance.a\n  }\n  override_resource {\n    target = aws_instance.a\n  }\n}\nmock_provider \"AWS\" {}\nprovider \"aws\" {\n  alias = \"1x\"\n}\n",
			want: []expectedDiag{
				{"error", "Invalid provider configuration alias", "An alias must be a valid name. A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.", ""},
				{"error", "Invalid override_during value", "The override_during attribute must be a value of plan or apply.", "a.tftest.hcl:5,3-5,28"},
				{"error", "Unsupported argument", "An argument named \"for_each\" is not expected here.", "a.tftest.hcl:3,3-3,11"},
				{"error", "Unsupported argument", "An argument named \"foo\" is not expected here.", "a.tftest.hcl:7,5-7,8"},
				{"error", "Duplicate mock_resource block", "A mock_resource block for x has already been defined at a.tftest.hcl:6,3-20.", "a.tftest.hcl:9,17-9,20"},
				{"error", "Duplicate mock_data block", "A mock_data block for x has already been defined at a.tftest.hcl:10,3-16.", "a.tftest.hcl:11,13-11,16"},
				{"error", "Duplicate override_resource block", "An override_resource block targeting aws_instance.a has already been defined at a.tftest.hcl:12,3-20.", "a.tftest.hcl:15,3-15,20"},
				{"error", "Invalid provider local name", "Provider names must be normalized. Replace \"AWS\" with \"aws\" to fix this error.", "a.tftest.hcl:19,1-19,20"},
				{"error", "Invalid provider configuration alias", "An alias must be a valid name. A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.", ""},
				{"error", "Duplicate provider block", "A provider for aws.1x is already defined at a.tftest.hcl:1,15-20.", "a.tftest.hcl:20,1-20,15"},
				// Read whatever the errors (IsMockDataDiagnostic: the CLI
				// drops it where terraform does not read mock data).
				{"error", "Failed to read mock data directory", "Mock data directory 1 does not exist or cannot be read.", "a.tftest.hcl:1,1-1,20"},
			},
		},
		{
			name: "run backend",
			src:  "run \"a\" {\n  command = plan\n  backend \"remote\" {}\n  backend \"local\" {}\n  backend \"s3\" {}\n  skip_cleanup = false\n}\nrun \"b\" {\n  backend \"local\" {}\n}\nrun \"c\" {\n  skip_cleanup = true\n}\nrun \"d\" {\n  skip_cleanup = true\n}\n",
			want: []expectedDiag{
				{"error", "Invalid block", "The backend block is only available within run blocks in experimental builds of Terraform.", "a.tftest.hcl:3,3-3,19"},
				{"error", "Invalid backend block", "The \"remote\" backend type cannot be used in the backend block in run \"a\" at a.tftest.hcl:3,3-19. Only state storage backends can be used in a test run.", "a.tftest.hcl:3,3-3,19"},
				{"error", "Invalid block", "The backend block is only available within run blocks in experimental builds of Terraform.", "a.tftest.hcl:4,3-4,18"},
				{"error", "Invalid block", "The backend block is only available within run blocks in experimental builds of Terraform.", "a.tftest.hcl:5,3-5,15"},
				{"error", "Duplicate backend blocks", "A backend block has already been defined inside the run \"a\" at a.tftest.hcl:4,3-18.", "a.tftest.hcl:5,3-5,15"},
				{"error", "Invalid backend block", "A backend block can only be used in the first apply run block for a given internal state file. It cannot be included in a block to run a plan command.", "a.tftest.hcl:4,3-4,18"},
				{"error", "Invalid attribute", "The skip_cleanup attribute is only available in experimental builds of Terraform.", "a.tftest.hcl:6,3-6,15"},
				{"error", "Cannot use `skip_cleanup=false` in a run block that contains a backend block", "Backend blocks are used in tests to allow reuse of long-lived resources. Due to this, cleanup behavior is implicitly skipped and backend blocks are incompatible with setting `skip_cleanup=false`", "a.tftest.hcl:6,3-6,15"},
				{"error", "Invalid block", "The backend block is only available within run blocks in experimental builds of Terraform.", "a.tftest.hcl:9,3-9,18"},
				{"error", "Duplicate backend blocks", "The run \"b\" already uses an internal state file that's loaded by a backend in the run \"a\". Please ensure that a backend block is only in the first apply run block for a given internal state file.", "a.tftest.hcl:9,3-9,18"},
				{"error", "Invalid attribute", "The skip_cleanup attribute is only available in experimental builds of Terraform.", "a.tftest.hcl:12,3-12,15"},
				{"warning", "Duplicate \"skip_cleanup\" block", "The run \"c\" has a skip_cleanup attribute set, but shares state with an earlier run \"a\" that has a backend defined. The later run takes precedence, but the backend will still be used to manage this state.", "a.tftest.hcl:12,3-12,15"},
				{"error", "Invalid attribute", "The skip_cleanup attribute is only available in experimental builds of Terraform.", "a.tftest.hcl:15,3-15,15"},
				{"warning", "Duplicate \"skip_cleanup\" block", "The run \"d\" has a skip_cleanup attribute set, but shares state with an earlier run \"a\" that has a backend defined. The later run takes precedence, but the backend will still be used to manage this state.", "a.tftest.hcl:15,3-15,15"},
			},
		},
		{
			name: "variables dup",
			src:  "variables {\n  a = 1\n}\nvariable \"a\" {}\nvariable \"a\" {}\nvariables {\n  b = 1\n}\nvariable \"1\" {}\n",
			want: []expectedDiag{
				{"error", "Duplicate \"variable\" block names", "This test file already has a variable named a defined at a.tftest.hcl:2,7-8.", "a.tftest.hcl:4,1-4,13"},
				{"error", "Duplicate \"variable\" block names", "This test file already has a variable named a defined at a.tftest.hcl:4,1-13.", "a.tftest.hcl:5,1-5,13"},
				{"error", "Multiple \"variables\" blocks", "This test file already has a variables block defined at a.tftest.hcl:1,1-10.", "a.tftest.hcl:6,1-6,10"},
				{"error", "Invalid variable name", "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.", "a.tftest.hcl:9,10-9,13"},
			},
		},
		{
			name: "module remote",
			src:  "run \"a\" {\n  module {\n    source = \"git::https://example.com/x.git\"\n  }\n}\n",
			want: []expectedDiag{
				{"error", "Invalid module source address", "Only local or registry module sources are currently supported from within test run blocks.", "a.tftest.hcl:3,5-3,46"},
			},
		},
		{
			name: "test dup",
			src:  "test {}\ntest {}\nrun \"a\" {\n  module {\n    source = \"./mod\"\n  }\n}\n",
			want: []expectedDiag{
				{"error", "Multiple \"test\" blocks", "This test file already has a \"test\" block defined at a.tftest.hcl:1,1-5.", "a.tftest.hcl:2,1-2,5"},
			},
		},
		{
			name: "run types",
			src:  "run \"a\" {\n  state_key = []\n  parallel = \"x\"\n  command = destroy\n}\n",
			want: []expectedDiag{
				{"error", "Invalid \"command\" keyword", "The \"command\" argument requires one of the following keywords without quotes: apply or plan.", "a.tftest.hcl:4,13-4,20"},
				{"error", "Unsuitable value type", "Unsuitable value: string required, but have tuple", "a.tftest.hcl:2,15-2,16"},
				{"error", "Unsuitable value type", "Unsuitable value: a bool is required", "a.tftest.hcl:3,15-3,16"},
			},
		},
		{
			name: "provider dup",
			src:  "provider \"aws\" {}\nmock_provider \"aws\" {}\nprovider \"aws\" {\n  version = \"1.0\"\n}\nmock_provider \"aws\" {\n  alias = \"b\"\n}\nprovider \"aws\" {\n  alias = \"b\"\n}\n",
			want: []expectedDiag{
				{"error", "Duplicate provider block", "A provider for aws is already defined at a.tftest.hcl:1,10-15.", "a.tftest.hcl:2,1-2,20"},
				{"error", "Version constraints are not allowed in test files", "Version constraints inside provider configuration blocks are not allowed in test files. To silence this error, move the provider version constraint into the required_providers block of the configuration that uses this provider.", "a.tftest.hcl:4,13-4,18"},
				{"error", "Duplicate provider block", "A provider for aws is already defined at a.tftest.hcl:1,10-15.", "a.tftest.hcl:3,1-3,15"},
				{"error", "Duplicate provider block", "A provider for aws.b is already defined at a.tftest.hcl:6,15-20.", "a.tftest.hcl:9,1-9,15"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := loadMapOpts(t, map[string]string{"main.tf": "", "a.tftest.hcl": tt.src}, WithTestsDir("tests"), WithFlavour(flavour.Terraform))
			if diff := cmp.Diff(tt.want, diagsForCompare(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTerraformTestFileRuns checks what the Terraform flavour keeps of a
// test file: its runs (not those with errors), each with its module's
// source and version; a file whose "test" block is invalid is dropped, as
// terraform drops it. The OpenTofu flavour refuses Terraform's blocks.
func TestTerraformTestFileRuns(t *testing.T) {
	src := "test {\n  parallel = true\n}\nrun \"a\" {\n  state_key = \"k\"\n  module {\n    source  = \"acme/net/aws\"\n    version = \"~> 1.0\"\n  }\n}\nrun \"b\" {\n  skip_cleanup = true\n  module {\n    source = \"./mod\"\n  }\n}\nrun \"c\" {}\n"
	m, _ := loadMapOpts(t, map[string]string{"main.tf": "", "a.tftest.hcl": src}, WithTestsDir("tests"), WithFlavour(flavour.Terraform))
	type run struct{ Name, Source, Version string }
	var got []run
	for _, r := range m.Tests["a.tftest.hcl"].Runs {
		got = append(got, run{r.Name, r.ModuleSource, r.ModuleVersion})
	}
	want := []run{{"a", "acme/net/aws", "~> 1.0"}, {"c", "", ""}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}

	m, _ = loadMapOpts(t, map[string]string{"main.tf": "", "a.tftest.hcl": "test {}\ntest {}\n" + src}, WithTestsDir("tests"), WithFlavour(flavour.Terraform))
	if tf, ok := m.Tests["a.tftest.hcl"]; ok {
		t.Errorf("a file with two test blocks was kept: %+v", tf)
	}

	_, diags := loadMapOpts(t, map[string]string{"main.tf": "", "a.tftest.hcl": src}, WithTestsDir("tests"))
	want2 := []string{"Unsupported block type", "Unsupported argument", "Unsupported argument"}
	if diff := cmp.Diff(want2, summaries(diags, hcl.DiagError)); diff != "" {
		t.Errorf("OpenTofu flavour errors (-want +got):\n%s", diff)
	}
}

// TestTerraformMockData checks the reading of a mock_provider's source
// directory: a missing directory, duplicates within and across its files
// (in name order), each diagnostic marked as mock data's.
func TestTerraformMockData(t *testing.T) {
	files := map[string]string{
		"main.tf":             "",
		"a.tftest.hcl":        "mock_provider \"aws\" {\n  source = \"mocks\"\n}\nmock_provider \"aws\" {\n  alias  = \"b\"\n  source = \"nope\"\n}\n",
		"mocks/a.tfmock.hcl":  "mock_resource \"x\" {}\nmock_resource \"x\" {}\n",
		"mocks/b.tfmock.hcl":  "mock_resource \"x\" {}\noverride_data {\n  target = data.y.z\n}\n",
		"mocks/c.tfmock.json": `{"override_data": {"target": "data.y.z"}}`,
		"mocks/d.txt":         "ignored",
	}
	_, diags := loadMapOpts(t, files, WithTestsDir("tests"), WithFlavour(flavour.Terraform))
	want := []expectedDiag{
		{"error", "Duplicate mock_resource block", "A mock_resource block for x has already been defined at mocks/a.tfmock.hcl:1,1-18.", "mocks/a.tfmock.hcl:2,15-2,18"},
		{"error", "Duplicate mock resource block", "A mock_resource \"x\" block already exists at mocks/a.tfmock.hcl:1,1-18.", "mocks/b.tfmock.hcl:1,15-1,18"},
		{"error", "Duplicate override block", "An override block for data.y.z already exists at mocks/b.tfmock.hcl:2,1-14.", "mocks/c.tfmock.json:1,19-1,20"},
		{"error", "Failed to read mock data directory", "Mock data directory nope does not exist or cannot be read.", "a.tftest.hcl:4,1-4,20"},
	}
	if diff := cmp.Diff(want, diagsForCompare(diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	for _, d := range diags {
		if !IsMockDataDiagnostic(d) {
			t.Errorf("%q is not marked as mock data's", d.Summary)
		}
	}
}
