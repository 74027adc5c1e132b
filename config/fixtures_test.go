package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tfdeps/tfdeps/internal/conformance"
)

// eachReferenceFixture runs fn as a subtest for every fixture of the shared
// configuration conformance data that has a reference.json (OpenTofu's
// full result), with that file's bytes and the fixture's input directory.
func eachReferenceFixture(t *testing.T, fn func(t *testing.T, reference []byte, in string)) {
	t.Helper()
	root := conformance.Dir(t, "config")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		t.Run(e.Name(), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, "reference.json"))
			if err != nil {
				t.Skip("no reference.json")
			}
			fn(t, raw, filepath.Join(dir, "in"))
		})
	}
}
