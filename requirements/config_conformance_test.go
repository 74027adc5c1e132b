package requirements

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/internal/conformance"
)

// TestConformanceConfigRequirements compares the whole-tree requirements
// with those OpenTofu reported for the configuration fixtures that built
// without errors, test files included where the fixture names a test
// directory.
func TestConformanceConfigRequirements(t *testing.T) {
	root := conformance.Dir(t, "config")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		var want struct {
			TestsDir     string             `json:"tests_dir"`
			Requirements *map[string]string `json:"requirements"`
		}
		raw, err := os.ReadFile(filepath.Join(root, e.Name(), "expected.json"))
		if err != nil || json.Unmarshal(raw, &want) != nil || want.Requirements == nil {
			continue
		}
		checked++
		t.Run(e.Name(), func(t *testing.T) {
			in := filepath.Join(root, e.Name(), "in")
			res, diags := Load(".", Options{Config: []config.Option{
				config.WithFileSystem(config.OSFileSystem{Root: in}),
				config.WithTestsDir(want.TestsDir),
			}, LocalModulesFromDisk: true})
			if diags.HasErrors() {
				t.Fatalf("unexpected errors: %s", diags.Error())
			}
			if diff := cmp.Diff(*want.Requirements, constraintStrings(res.Providers)); diff != "" {
				t.Errorf("requirements (-want +got):\n%s", diff)
			}
		})
	}
	if checked == 0 {
		t.Fatal("no fixture with requirements found")
	}
}
