package requirements

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
)

func loadMap(t *testing.T, files map[string]string, opts Options) (*Result, hcl.Diagnostics) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	opts.Config = append(opts.Config, config.WithFileSystem(config.FS(fsys)))
	if opts.ReadFile == nil {
		opts.ReadFile = func(name string) ([]byte, error) {
			f, ok := fsys[name]
			if !ok {
				return nil, os.ErrNotExist
			}
			return f.Data, nil
		}
	}
	return Load(".", opts)
}

func TestLoadTree(t *testing.T) {
	files := map[string]string{
		"main.tf": `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = ">= 5.0" }
  }
}
module "net" {
  source = "./modules/net"
}
module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.0.0"
}
module "missing" {
  source = "git::https://example.com/m.git"
}
resource "terraform_data" "x" {}
`,
		"main_override.tf": `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.1" }
  }
}
`,
		"modules/net/main.tf": `
terraform {
  required_providers {
    aws = { version = "!= 5.3.0" }
  }
}
data "http" "x" { url = "https://example.com" }
`,
		".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"net","Source":"./modules/net","Dir":"modules/net"},{"Key":"vpc","Source":"registry.opentofu.org/terraform-aws-modules/vpc/aws","Version":"5.0.0","Dir":".terraform/modules/vpc"}]}`,
		".terraform/modules/vpc/main.tf": `
provider "google" {
  version = "~> 4.0"
}
`,
		"terraform.tfstate": `{"version": 4, "resources": [
  {"mode": "managed", "type": "null_resource", "name": "a", "provider": "provider[\"registry.opentofu.org/hashicorp/null\"]"},
  {"module": "module.net", "mode": "data", "type": "http", "name": "x", "provider": "module.net.provider[\"registry.opentofu.org/hashicorp/http\"].alias"}
]}`,
	}
	res, diags := loadMap(t, files, Options{StateFile: "terraform.tfstate"})
	want := map[string]string{
		"registry.opentofu.org/hashicorp/aws":    "~> 5.1, != 5.3.0",
		"registry.opentofu.org/hashicorp/google": "~> 4.0",
		"registry.opentofu.org/hashicorp/http":   "",
		"registry.opentofu.org/hashicorp/null":   "",
		"terraform.io/builtin/terraform":         "",
	}
	if diff := cmp.Diff(want, constraintStrings(res.Providers)); diff != "" {
		t.Errorf("providers mismatch (-want +got):\n%s", diff)
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary+": "+d.Detail)
	}
	wantDiags := []string{
		"Module not installed: This module is not yet installed. Run \"tofu init\" to install all modules required by this configuration.",
		"Version constraints inside provider configuration blocks are deprecated: OpenTofu 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of OpenTofu. To silence this warning, move the provider version constraint into the required_providers block.",
	}
	if diff := cmp.Diff(wantDiags, got); diff != "" {
		t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
	}
	var state []string
	for _, p := range res.State {
		state = append(state, p.String())
	}
	if diff := cmp.Diff([]string{"registry.opentofu.org/hashicorp/http", "registry.opentofu.org/hashicorp/null"}, state); diff != "" {
		t.Errorf("state providers mismatch (-want +got):\n%s", diff)
	}
	var paths []string
	for _, m := range res.Modules() {
		paths = append(paths, m.Path)
	}
	if diff := cmp.Diff([]string{"", "module.net", "module.vpc"}, paths); diff != "" {
		t.Errorf("modules mismatch (-want +got):\n%s", diff)
	}
}

func TestCheckWarnings(t *testing.T) {
	files := map[string]string{
		"main.tf": `
terraform {
  required_providers {
    oldtf = { source = "hashicorp/terraform" }
  }
}
resource "foo--bar_thing" "x" {}
`,
	}
	_, diags := loadMap(t, files, Options{})
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary)
	}
	want := []string{SummaryPredecessorProvider, "Invalid provider local name"}
	// The loader may reject the type name itself first; only ours matter.
	for _, w := range want {
		found := false
		for _, d := range diags {
			if d.Summary == w {
				found = true
			}
		}
		if !found {
			t.Errorf("missing %q in %q", w, got)
		}
	}
	for _, d := range diags {
		if d.Summary == "Invalid provider local name" && d.Detail != `"foo--bar" is an invalid implied provider local name: cannot use multiple consecutive dashes` {
			t.Errorf("detail = %q", d.Detail)
		}
	}
}

func TestParseState(t *testing.T) {
	tests := []struct {
		name, src string
		flavour   flavour.Flavour
		want      []string
		wantErr   string
	}{
		{name: "modern", src: `{"version":4,"resources":[{"mode":"managed","type":"aws_instance","name":"a","provider":"provider[\"registry.opentofu.org/hashicorp/aws\"]"}]}`,
			want: []string{"aws_instance.a registry.opentofu.org/hashicorp/aws"}},
		{name: "module and alias", src: `{"version":4,"resources":[{"module":"module.a[\"k\"]","mode":"data","type":"x_y","name":"b","provider":"module.a[\"k\"].provider[\"example.com:8443/acme/x\"].eu"}]}`,
			want: []string{"module.a[\"k\"].data.x_y.b example.com:8443/acme/x"}},
		{name: "legacy", src: `{"version":4,"resources":[{"mode":"managed","type":"aws_instance","name":"a","provider":"provider.aws"}]}`,
			want: []string{"aws_instance.a registry.opentofu.org/-/aws"}},
		{name: "empty", src: `{"version":4}`},
		{name: "bad json", src: `{`, wantErr: "Cannot read the providers used by the state in s: the file is not valid JSON: unexpected end of JSON input"},
		{name: "old version", src: `{"version":3}`, wantErr: "Cannot read the providers used by the state in s: tfdeps reads only state format version 4 (OpenTofu, and Terraform since v0.12); run \"tofu refresh\" with an OpenTofu release to upgrade it"},
		{name: "old version, Terraform's words", src: `{"version":3}`, flavour: flavour.Terraform, wantErr: "Cannot read the providers used by the state in s: tfdeps reads only state format version 4 (OpenTofu, and Terraform since v0.12); run \"terraform refresh\" with a Terraform release to upgrade it"},
		{name: "bad provider", src: `{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"nonsense"}]}`,
			wantErr: "Cannot read the providers used by the state in s: resource a.b has an invalid provider address \"nonsense\": expected provider[\"HOSTNAME/NAMESPACE/TYPE\"]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, diags := ParseState("s", []byte(tt.src), tt.flavour)
			if tt.wantErr != "" {
				if len(diags) != 1 || diags[0].Detail != tt.wantErr {
					t.Fatalf("diags = %v, want %q", diags, tt.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			var got []string
			for _, r := range res {
				got = append(got, r.Address+" "+r.Provider.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMissingStateFile(t *testing.T) {
	res, diags := loadMap(t, map[string]string{"main.tf": ""}, Options{StateFile: "terraform.tfstate"})
	if len(diags) != 0 || len(res.Providers) != 0 || len(res.State) != 0 {
		t.Errorf("got %v, %v", res.Providers, diags)
	}
}

func TestLoadModuleNotInstalledIsError(t *testing.T) {
	files := map[string]string{
		"main.tf":          "module \"net\" {\n  source = \"./net\"\n}\n",
		"net/main.tf":      "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\n",
		"unrelated/x.tf":   "",
		"other/ignored.tf": "",
	}
	tests := []struct {
		name     string
		manifest string
		fromDisk bool
		want     []string
		wantAWS  bool
	}{
		{name: "no manifest", want: []string{`error main.tf:1 Module not installed: This module is not yet installed. Run "tofu init" to install all modules required by this configuration.`}},
		{name: "installed", manifest: `{"Modules":[{"Key":"net","Source":"./net","Dir":"net"}]}`, wantAWS: true},
		{name: "from disk", fromDisk: true, wantAWS: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := map[string]string{}
			for k, v := range files {
				fs[k] = v
			}
			if tt.manifest != "" {
				fs[".terraform/modules/modules.json"] = tt.manifest
			}
			res, diags := loadMap(t, fs, Options{LocalModulesFromDisk: tt.fromDisk})
			var got []string
			for _, d := range diags {
				sev := "warning"
				if d.Severity == hcl.DiagError {
					sev = "error"
				}
				got = append(got, fmt.Sprintf("%s %s:%d %s: %s", sev, d.Subject.Filename, d.Subject.Start.Line, d.Summary, d.Detail))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			_, hasAWS := constraintStrings(res.Providers)["registry.opentofu.org/hashicorp/aws"]
			if hasAWS != tt.wantAWS {
				t.Errorf("aws required = %v, want %v", hasAWS, tt.wantAWS)
			}
		})
	}
}

// TestTerraformActionProviders checks that Terraform's action blocks need
// their provider as resources do: the one their provider argument names
// (resolved through required_providers), else the one their type implies;
// the OpenTofu flavour knows no action blocks.
func TestTerraformActionProviders(t *testing.T) {
	files := map[string]string{
		"main.tf": `
terraform {
  required_providers {
    acme = { source = "acme/acme" }
  }
}
action "aws_lambda_invoke" "a" {}
action "anything" "b" {
  provider = acme.west
}
`,
		"main_override.tf": `
action "aws_lambda_invoke" "a" {
  provider = google
}
`,
	}
	res, diags := loadMap(t, files, Options{Config: []config.Option{config.WithFlavour(flavour.Terraform)}})
	if diags.HasErrors() {
		t.Fatalf("diagnostics: %v", diags)
	}
	want := map[string]string{
		"registry.terraform.io/acme/acme":        "",
		"registry.terraform.io/hashicorp/google": "",
	}
	if diff := cmp.Diff(want, constraintStrings(res.Providers)); diff != "" {
		t.Errorf("providers mismatch (-want +got):\n%s", diff)
	}
}

// TestTerraformRootVariableValues checks that in the Terraform flavour the
// root module's variable values are read as terraform reads them before it
// builds the configuration: warnings for values of undeclared variables
// from variables files (two, then one summary), an error for one from -var,
// nothing for the environment, and an error, which stops the loading of
// child modules, for a const variable without a value. The OpenTofu
// flavour reports none of them.
func TestTerraformRootVariableValues(t *testing.T) {
	files := map[string]string{
		"main.tf": `
variable "declared" {}
variable "c" {
  const = true
}
module "m" {
  source = "./m"
}
`,
		"terraform.tfvars":     "declared = 1\nundeclared_a = 1\n",
		"extra.auto.tfvars":    "undeclared_b = 2\nundeclared_c = 3\nundeclared_d = 4\n",
		"m/main.tf":            "",
		"named.tfvars":         "undeclared_e = 5\n",
		"withvars.auto.tfvars": "",
	}
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	iv, diags := config.CollectInputValues(config.VarSources{
		FS: config.FS(fsys), Dir: ".", Environ: []string{"TF_VAR_from_env=x"},
		Options: []config.VarOption{{Value: "from_cli=1"}},
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	summaries := func(f flavour.Flavour) []string {
		_, diags := loadMap(t, files, Options{Config: []config.Option{config.WithFlavour(f), config.WithInputValues(iv)}})
		var got []string
		for _, d := range diags {
			got = append(got, d.Summary+": "+d.Detail)
		}
		return got
	}
	const fileDetail = "The root module does not declare a variable named %q but a value was found in file %q. If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option."
	want := []string{
		`Value for undeclared variable: A variable named "from_cli" was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a "variable" block to the configuration.`,
		"Value for undeclared variable: " + fmt.Sprintf(fileDetail, "undeclared_a", "terraform.tfvars"),
		"Value for undeclared variable: " + fmt.Sprintf(fileDetail, "undeclared_b", "extra.auto.tfvars"),
		"Values for undeclared variables: In addition to the other similar warnings shown, 2 other variable(s) defined without being declared.",
		`No value for required variable: The root module input variable "c" is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.`,
	}
	if diff := cmp.Diff(want, summaries(flavour.Terraform)); diff != "" {
		t.Errorf("Terraform flavour (-want +got):\n%s", diff)
	}
	for _, d := range summaries(flavour.OpenTofu) {
		if strings.Contains(d, "undeclared") {
			t.Errorf("OpenTofu flavour: %s", d)
		}
	}
}
