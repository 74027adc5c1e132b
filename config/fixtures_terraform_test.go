package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTerraformFixtures is TestOpenTofuFixtures for the Terraform flavour:
// "terraform providers -no-color" against "tfdeps -compat=terraform
// providers -no-color" on Terraform's own configuration fixtures, with the
// same assertions (exit codes and Error/Warning summaries everywhere, whole
// outputs on at least 95%).
//
// It needs TFDEPS_REFERENCE_TERRAFORM and TFDEPS_TERRAFORM_CONFIG_FIXTURES,
// the internal/configs/testdata directory of a Terraform v1.15.9 checkout,
// e.g.
//
//	git --git-dir=TERRAFORM.git archive v1.15.9 internal/configs/testdata | tar -x -C DIR
func TestTerraformFixtures(t *testing.T) {
	terraform, fixtures := os.Getenv("TFDEPS_REFERENCE_TERRAFORM"), os.Getenv("TFDEPS_TERRAFORM_CONFIG_FIXTURES")
	if terraform == "" || fixtures == "" {
		t.Skip("set TFDEPS_REFERENCE_TERRAFORM (terraform v1.15.9) and TFDEPS_TERRAFORM_CONFIG_FIXTURES (Terraform's internal/configs/testdata) to run this")
	}
	ref := fixtureRun{reference: terraform, name: "terraform", tfdepsArgs: []string{"-compat=terraform"}}
	compareFixtures(t, ref, fixtures, terraformFixtureCases(t, fixtures))
}

// terraformFixtureCases lists the fixtures under root (see
// TestTerraformFixtures) as paths relative to root: each file of the
// directories of single-file fixtures (test files too), every other
// directory as a whole (those of query-files one level down). Fixtures about backends, cloud blocks and state
// storage are left out: tfdeps does not initialise those.
func terraformFixtureCases(t *testing.T, root string) []string {
	t.Helper()
	backendish := func(name string) bool {
		for _, w := range []string{"backend", "cloud", "state-store", "statestore"} {
			if strings.Contains(name, w) {
				return true
			}
		}
		return false
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if !e.IsDir() || backendish(e.Name()) {
			continue
		}
		switch e.Name() {
		case "valid-files", "invalid-files", "error-files", "warning-files", "invalid-import-files", "invalid-test-files",
			"config-diagnostics", "invalid-modules", "valid-modules", "escaping-blocks", "experiments", "query-files":
			subs, err := os.ReadDir(filepath.Join(root, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range subs {
				name := e.Name() + "/" + s.Name()
				if backendish(s.Name()) {
					continue
				}
				if e.Name() != "query-files" {
					cases = append(cases, name)
					continue
				}
				// query-files groups its fixtures in valid and invalid.
				fixtures, err := os.ReadDir(filepath.Join(root, name))
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range fixtures {
					cases = append(cases, name+"/"+f.Name())
				}
			}
		default:
			cases = append(cases, e.Name())
		}
	}
	return cases
}
