// Package conformance finds, for tests, the results observed from OpenTofu
// that live beside the project in ../shared/conformance. A fresh clone has
// no such folder; the tests that need it then skip with a message saying
// where they looked.
package conformance

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the path of ../shared/conformance/ELEM... relative to the
// module root (the nearest directory above the working directory that holds
// go.mod), or skips the test when it does not exist.
func Dir(t testing.TB, elem ...string) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Skipf("conformance data not available: %v", err)
	}
	path := filepath.Join(append([]string{root, "..", "shared", "conformance"}, elem...)...)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("conformance data not available at %s (../shared/conformance beside the module root): %v", path, err)
	}
	return path
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
