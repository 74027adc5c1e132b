package difftest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/internal/conformance"
	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// TestDifferentialTerraform compares terraform and "tfdeps
// -compat=terraform" on the same cases as TestDifferential: the
// configuration fixtures and requirement trees, the lock-file cases and the
// CLI's registry scenarios, with the fake registry serving as
// registry.terraform.io (a host block in the CLI configuration both read).
func TestDifferentialTerraform(t *testing.T) {
	terraform := os.Getenv("TFDEPS_REFERENCE_TERRAFORM")
	if terraform == "" {
		t.Skip("differential test skipped: set TFDEPS_REFERENCE_TERRAFORM to the path of a terraform v1.15.9 binary to run it")
	}
	if _, err := os.Stat(terraform); err != nil {
		t.Fatalf("TFDEPS_REFERENCE_TERRAFORM: %v", err)
	}
	root := conformance.Dir(t)
	tmp := t.TempDir()
	tfdeps := buildTfdeps(t)
	start := fakeStarter(t, filepath.Join(tmp, "fakes"), "registry.terraform.io", "registry.example.com")
	fake, err := start(registrytest.Options{Providers: defaultProviders()})
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := scriptCases(filepath.Join("..", "cli", "testdata", "registry"), fake, start)
	if err != nil {
		t.Fatal(err)
	}
	var cases []testCase
	for _, c := range append(append(scripts, lockCases(root, fake)...), fixtureCases(root, fake)...) {
		cases = append(cases, terraformCase(c))
	}
	noKeys, err := start(registrytest.Options{Providers: defaultProviders(), NoSigningKeys: true})
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, terraformOnlyCases(fake, noKeys)...)
	compareCases(t, program{name: "terraform", path: terraform, unorderedModules: true},
		program{name: "tfdeps", path: tfdeps, args: []string{"-compat=terraform"}, unorderedModules: true},
		cases, tmp, terraformDeviations)
}

// terraformCase adapts an OpenTofu case: lock files are given Terraform's
// header (a lock file written by "tofu init" is one Terraform reads too,
// but the header is rewritten on the first write either way).
func terraformCase(c testCase) testCase {
	out := c
	out.files = map[string]string{}
	for name, content := range c.files {
		if name == ".terraform.lock.hcl" {
			content = strings.Replace(content, `"tofu init"`, `"terraform init"`, 1)
		}
		out.files[name] = content
	}
	return out
}

// terraformOnlyCases are inputs where the flavours differ. The plugin
// cache cases keep the cache inside the working directory so that its
// files are compared too (Terraform writes no OS_ARCH.lock files, and
// leaves no directory behind a failed install).
func terraformOnlyCases(fake, noKeys *fakeRegistry) []testCase {
	const nullAndBaz = "terraform {\n  required_providers {\n    null = { source = \"hashicorp/null\" }\n    baz = { source = \"acme/baz\", version = \"~> 1.0\" }\n  }\n}\n"
	return []testCase{
		{
			name:  "terraform/init-flags",
			files: map[string]string{"main.tf": "terraform {}\n"},
			steps: []step{
				{"init", "-no-color", "-reconfigure", "-force-copy", "-lock=false", "-lock-timeout=3s", "-ignore-remote-version", "-target=a.b", "-compact-warnings=false", "-create-default-workspace=true"},
				{"init", "-no-color", "-backend-config=anything"}, {"init", "-json", "-backend-config=a=b"},
				{"init", "-no-color", "-reconfigure", "-migrate-state", "-backend=true", "-cloud=true", "extra"}, {"init", "extra"},
				{"init", "-json", "-migrate-state", "-lock=maybe"}, {"init", "-no-color", "-enable-pluggable-state-storage-experiment", "-create-default-workspace=false"},
			},
		},
		{
			name:  "terraform/init-flags-local-backend",
			files: map[string]string{"main.tf": initFlagsLocalBackend, "bad.hcl": "bogus = 1\n", "child/main.tf": "variable \"x\" {}\n"},
			steps: []step{
				{"init", "-no-color", "-backend-config=bad.hcl", "-backend-config=bogus=1", "-backend-config=nope.hcl"}, {"init", "-json", "-backend-config=bad.hcl"},
			},
		},
		{
			name:      "terraform/plugin-cache",
			files:     map[string]string{"main.tf": nullAndBaz, "cache/": ""},
			cliConfig: "plugin_cache_dir = \"cache\"\n",
			fake:      fake,
			steps:     []step{{"init", "-no-color"}, {"init", "-no-color"}, {"init", "-no-color", "-upgrade"}},
		},
		{
			name:      "terraform/plugin-cache-failed-install",
			files:     map[string]string{"main.tf": nullAndBaz, "cache/": ""},
			cliConfig: "plugin_cache_dir = \"cache\"\n",
			fake:      noKeys,
			steps:     []step{{"init", "-no-color"}},
		},
		{
			name:  "terraform/failed-install",
			files: map[string]string{"main.tf": nullAndBaz},
			fake:  noKeys,
			steps: []step{{"init", "-no-color"}},
		},
		{
			name: "terraform/tofu-files-ignored",
			files: map[string]string{
				"main.tf":   "terraform {\n  required_providers {\n    null = { source = \"hashicorp/null\" }\n  }\n}\n",
				"main.tofu": "this is not even valid {\n",
			},
			steps: []step{{"providers", "-no-color"}},
		},
		{
			name: "terraform/required-version",
			files: map[string]string{
				"main.tf":           "terraform {\n  required_version = \">= 1.0\"\n}\n",
				"other.tf":          "terraform {\n  required_version = \"< 1.0\"\n}\n",
				"other_override.tf": "terraform {\n  required_version = \">= 1.15\"\n}\n",
			},
			steps: []step{{"providers", "-no-color"}, {"init", "-no-color", "-backend=false"}},
		},
		{
			name: "terraform/required-version-unmet",
			files: map[string]string{
				"main.tf": "terraform {\n  required_version = \"< 1.0\"\n}\n",
			},
			steps: []step{{"providers", "-no-color"}, {"init", "-no-color", "-backend=false"}},
		},
		{
			name: "terraform/language-block",
			files: map[string]string{
				"main.tf": "language {\n}\n",
			},
			steps: []step{{"providers", "-no-color"}},
		},
	}
}
