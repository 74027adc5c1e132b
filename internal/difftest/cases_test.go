package difftest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// Step lists shared by several case families.
var (
	providersSteps = []step{{"providers", "-no-color"}, {"providers"}}
	initSteps      = []step{{"init", "-no-color"}, {"init", "-no-color"}, {"init"}, {"init", "-json"}}
)

// fixtureCases are the configuration fixtures and requirement trees of
// ../shared/conformance, each shown by "providers" and initialised by
// "init" against the fake registry (which serves none of their
// providers unless named so).
func fixtureCases(root string, fake *fakeRegistry) []testCase {
	var out []testCase
	for _, family := range []string{"config", "requirements"} {
		dirs, _ := filepath.Glob(filepath.Join(root, family, "*", "in"))
		sort.Strings(dirs)
		for _, dir := range dirs {
			name := family + "/" + filepath.Base(filepath.Dir(dir))
			out = append(out, testCase{
				name:     name + "/providers",
				copyFrom: dir,
				steps:    providersSteps,
				// Which duplicate a warning names can follow map order
				// (terraform's duplicate-local-names: line 3 or 6): five
				// runs make missing tfdeps' choice unlikely.
				tofuRuns: 5,
			}, testCase{
				name:     name + "/init",
				copyFrom: dir,
				steps:    []step{{"init", "-no-color", "-backend=false"}, {"init", "-json", "-backend=false"}},
				fake:     fake,
				tofuRuns: initRuns[name],
			})
		}
	}
	return out
}

// initRuns are the fixtures whose init output tofu varies between runs
// beyond the orders the comparison ignores: the "Did you intend to use"
// suggestion picks from a Go map.
// the processing order of required_providers entries (the text of
// "Duplicate required provider") is a Go map's, and so is the resource
// named by "Automatically-inferred provider dependency" (the first of a
// module's resources seen, in map order).
// The suggestion's alternatives here are three: the one sorted first
// comes from terraform's map in about a third of its runs, hence 16 runs
// ((2/3)^16 < 0.2% that none matches).
var initRuns = map[string]int{
	"config/override-resource-provider":  16,
	"requirements/duplicate-local-names": 8,
	"config/tofu-and-tf-files":           8,
	"config/tofu-only-files":             8,
}

// lockCases puts each lock file of ../shared/conformance/lockfiles/read
// beside a configuration requiring hashicorp/null and runs init and
// providers.
func lockCases(root string, fake *fakeRegistry) []testCase {
	files, _ := filepath.Glob(filepath.Join(root, "lockfiles", "read", "*.hcl"))
	sort.Strings(files)
	var out []testCase
	for _, f := range files {
		if strings.HasSuffix(f, ".resaved.hcl") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		out = append(out, testCase{
			name: "lockfile/" + strings.TrimSuffix(filepath.Base(f), ".hcl"),
			files: map[string]string{
				"main.tf":             nullConfig,
				".terraform.lock.hcl": string(data),
			},
			steps: []step{{"init", "-no-color"}, {"init"}, {"providers", "-no-color"}},
			fake:  fake,
		})
	}
	return out
}

const nullConfig = `terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = "~> 3.1"
    }
  }
}
`

// scriptCases are the configurations of the CLI's registry scenarios
// (internal/cli/testdata/registry), each with its own fake when the
// scenario describes one. Scenarios that need a CLI configuration of their
// own (mirrors, dev overrides) are left out.
func scriptCases(dir string, defaultFake *fakeRegistry, start func(registrytest.Options) (*fakeRegistry, error)) ([]testCase, error) {
	scripts, _ := filepath.Glob(filepath.Join(dir, "*.txtar"))
	sort.Strings(scripts)
	var out []testCase
	for _, s := range scripts {
		ar, err := txtar.ParseFile(s)
		if err != nil {
			return nil, err
		}
		files := map[string]string{}
		fake := defaultFake
		skip := false
		for _, f := range ar.Files {
			switch {
			case strings.HasSuffix(f.Name, ".tfrc") || strings.HasSuffix(f.Name, ".tmpl"):
				skip = true
			case f.Name == "fake.json":
				var cfg struct {
					Providers      []registrytest.Provider `json:"providers"`
					Hostnames      []string                `json:"hostnames"`
					NoPackagesMap  bool                    `json:"no_packages_map"`
					NoSigningKeys  bool                    `json:"no_signing_keys"`
					TerraformStyle bool                    `json:"terraform_style"`
					Warnings       []string                `json:"warnings"`
				}
				if err := json.Unmarshal(f.Data, &cfg); err != nil {
					return nil, err
				}
				if len(cfg.Hostnames) > 0 {
					skip = true
					continue
				}
				if cfg.Providers == nil {
					cfg.Providers = defaultProviders()
				}
				fake, err = start(registrytest.Options{Providers: cfg.Providers, NoPackagesMap: cfg.NoPackagesMap, NoSigningKeys: cfg.NoSigningKeys, TerraformStyle: cfg.TerraformStyle, Warnings: cfg.Warnings})
				if err != nil {
					return nil, err
				}
			case isInput(f.Name):
				files[f.Name] = string(f.Data)
			}
		}
		if skip || len(files) == 0 {
			continue
		}
		if _, ok := files["main.tf"]; !ok {
			continue
		}
		name := "script/" + strings.TrimSuffix(filepath.Base(s), ".txtar")
		steps := initSteps
		if strings.HasPrefix(filepath.Base(s), "providers_lock") {
			steps = []step{{"providers", "lock", "-platform=linux_amd64", "-platform=darwin_arm64"}, {"providers", "-no-color"}}
		}
		out = append(out, testCase{name: name, files: files, steps: steps, fake: fake},
			testCase{name: name + "/json-first", files: files, steps: []step{{"init", "-json"}}, fake: fake})
	}
	return out, nil
}

// isInput reports whether a scenario's file is part of the configuration.
func isInput(name string) bool {
	base := filepath.Base(name)
	for _, suffix := range []string{".tf", ".tf.json", ".tofu", ".tofu.json", ".tftest.hcl"} {
		if strings.HasSuffix(base, suffix) {
			return true
		}
	}
	return base == ".terraform.lock.hcl"
}

func defaultProviders() []registrytest.Provider {
	return []registrytest.Provider{
		{Namespace: "hashicorp", Type: "null", Versions: []registrytest.Version{{Version: "3.1.0"}, {Version: "3.2.1"}}},
		{Namespace: "hashicorp", Type: "random", Versions: []registrytest.Version{{Version: "3.5.1"}, {Version: "3.6.0"}}},
		{Namespace: "acme", Type: "baz", Versions: []registrytest.Version{{Version: "1.0.0"}, {Version: "1.1.0"}, {Version: "2.0.0"}}},
	}
}

// edgeCases are empty and broken directories, arguments and CLI
// configuration problems.
func edgeCases(fake, warnFake *fakeRegistry) []testCase {
	broken := map[string]string{"main.tf": "terraform {\n  required_providers {\n    null = {\n      source = \"hashicorp/null\"\n\n\n    }\n  }\n\nresource \"null_resource\" \"x\" {\n"}
	return []testCase{
		{name: "edge/empty-dir", files: map[string]string{}, steps: []step{
			{"init"}, {"init", "-no-color"}, {"init", "-json"}, {"providers"}, {"providers", "-no-color"},
		}},
		{name: "edge/arguments", files: map[string]string{"main.tf": nullConfig}, steps: []step{
			{"init", "foo"}, {"init", "-no-color", "foo"}, {"providers", "foo"}, {"providers", "-no-color", "foo"},
			{"init", "-bogus"}, {"providers", "-bogus"},
		}},
		{name: "edge/init-flags", files: map[string]string{"main.tf": "terraform {}\n"}, steps: []step{
			{"init", "-no-color", "-reconfigure", "-force-copy", "-lock=false", "-lock-timeout=3s", "-ignore-remote-version", "-cloud=true"},
			{"init", "-no-color", "-backend-config=anything"}, {"init", "-backend-config=a=b", "-backend-config="}, {"init", "-json", "-backend-config=a=b"},
			{"init", "-no-color", "-backend=false", "-backend-config=x", "-migrate-state"},
			{"init", "-json", "-lock=maybe"}, {"init", "-json", "-reconfigure", "-migrate-state", "extra"}, {"init", "-json", "-backend=false", "-cloud=false"},
		}},
		{name: "edge/init-flags-local-backend", files: map[string]string{"main.tf": initFlagsLocalBackend, "bad.hcl": "bogus = 1\n", "syntax.hcl": "path =\n", "dir/": "", "child/main.tf": "variable \"x\" {}\n"}, steps: []step{
			{"init", "-no-color", "-backend-config=bad.hcl", "-backend-config=bogus=1", "-backend-config=nope.hcl", "-backend-config=dir", "-backend-config=syntax.hcl"},
			{"init", "-backend-config=bad.hcl"}, {"init", "-json", "-backend-config=bad.hcl"},
		}},
		{name: "edge/init-flags-cloud", files: map[string]string{"main.tf": "terraform {\n  cloud {\n    organization = \"x\"\n    workspaces {\n      name = \"y\"\n    }\n  }\n}\n"}, steps: []step{
			{"init", "-no-color", "-backend-config=x"}, {"init", "-json", "-backend-config=x"},
		}},
		{name: "edge/syntax-error", files: broken, steps: []step{
			{"init", "-no-color"}, {"init"}, {"init", "-json"}, {"providers", "-no-color"}, {"providers"},
		}},
		{name: "edge/blank-lines-snippet", files: map[string]string{"main.tf": "terraform {\n  required_providers {\n    null = {\n\n      source = \"hashicorp/null\"\n\n      version = \"nope\"\n    }\n  }\n}\n"}, steps: []step{
			{"init", "-no-color"}, {"init"}, {"init", "-json"}, {"providers", "-no-color"},
		}},
		{name: "edge/backend", files: map[string]string{"main.tf": "terraform {\n  backend \"s3\" {}\n}\n"}, steps: []step{
			{"providers", "-no-color"}, {"providers"},
		}},
		{name: "edge/backend-invalid", files: map[string]string{"main.tf": "terraform {\n  backend \"nope\" {}\n}\n"}, steps: []step{
			{"providers", "-no-color"}, {"providers"},
		}},
		{name: "edge/duplicate-warnings", files: map[string]string{"main.tf": "provider \"null\" {\n  version = \"1.0\"\n}\nprovider \"null\" {\n  alias = \"b\"\n  version = \"1.0\"\n}\nprovider \"null\" {\n  alias = \"c\"\n  version = \"1.0\"\n}\n"}, steps: []step{
			{"providers", "-no-color"}, {"providers"}, {"init", "-no-color"},
		}, fake: fake},
		{name: "edge/registry-warnings", files: map[string]string{"main.tf": nullConfig}, steps: []step{
			{"init", "-no-color"}, {"init", "-no-color"}, {"init"},
		}, fake: warnFake},
		{name: "edge/cli-config-missing", files: map[string]string{"main.tf": "\n"}, missingCLIConfig: true, steps: []step{
			{"init", "-no-color"}, {"init"}, {"providers", "-no-color"},
		}},
		{name: "edge/cli-config-syntax", files: map[string]string{"main.tf": "\n"}, cliConfig: "provider_installation {\n", steps: []step{
			{"init", "-no-color"}, {"init"}, {"providers", "-no-color"},
		}},
		{name: "edge/cli-config-unknown", files: map[string]string{"main.tf": "\n"}, cliConfig: "bogus_setting = true\nprovider_installation {\n  direct {\n    bogus = 1\n  }\n}\n", steps: []step{
			{"init", "-no-color"}, {"providers", "-no-color"},
		}},
	}
}

// initFlagsLocalBackend is a root module with a local backend block and a
// local module call (installed before the backend's errors are shown).
const initFlagsLocalBackend = "terraform {\n  backend \"local\" {}\n}\nmodule \"c\" {\n  source = \"./child\"\n}\n"
