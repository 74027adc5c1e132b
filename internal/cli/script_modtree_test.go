package cli

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// modtreeDeadline bounds the module tree scripts: a module call cycle that
// is not caught would recurse without end, and the deadline makes such a
// hang fail the test (testscript kills the command) instead of blocking
// until go test's own timeout.
const modtreeDeadline = 2 * time.Minute

// TestModuleTreeScripts runs the scripts of testdata/modtree: module trees
// read through .terraform/modules/modules.json by providers, lock verify and
// providers lock — modules that are not installed, module call cycles, deep
// legitimate trees.
func TestModuleTreeScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "modtree"),
		Setup:               scriptSetup,
		RequireExplicitExec: true,
		UpdateScripts:       *updateScripts,
		Deadline:            time.Now().Add(modtreeDeadline),
	})
}
