package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hashicorp/hcl/v2"
)

// FuzzRenderRoundTrip loads one arbitrary file (native or JSON syntax) and,
// when it loads without errors, requires each rendering to load again
// without errors and to render the same; the JSON rendering only when
// CheckJSON finds nothing JSON cannot express, and CheckJSON must find
// something when it does not load. Rendering must never panic, not
// even for a module that failed to load. Seeds: testdata/render inputs and,
// when present, every conformance fixture file.
func FuzzRenderRoundTrip(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "render", "*", "in", "*"))
	more, _ := filepath.Glob(filepath.Join(conformanceConfigDir, "*", "in", "*"))
	for _, path := range append(seeds, more...) {
		src, err := os.ReadFile(path)
		if err == nil {
			f.Add(src, strings.HasSuffix(path, ".json"))
		}
	}
	f.Add([]byte(`locals { a = "${var.x}" }`), false)
	f.Add([]byte(`{"locals": {"a": "${var.x}"}}`), true)
	f.Fuzz(func(t *testing.T, src []byte, isJSON bool) {
		name := "main.tf"
		if isJSON {
			name = "main.tf.json"
		}
		mod, diags := loadOneFile(name, src)
		doc := mod.Document()
		native := doc.Render(RenderOptions{Explain: true})
		jsonOut := doc.RenderJSON()
		if diags.HasErrors() {
			return
		}
		jsonProblems := doc.CheckJSON()
		for _, out := range []struct {
			name string
			src  []byte
		}{{"main.tf", native}, {"main.tf.json", jsonOut}} {
			if out.name == "main.tf.json" && jsonProblems.HasErrors() {
				continue
			}
			again, diags := loadOneFile(out.name, out.src)
			if diags.HasErrors() {
				t.Fatalf("rendered %s does not load: %s\ninput:\n%s\nrendered:\n%s", out.name, diags.Error(), src, out.src)
			}
			if out.name != "main.tf" {
				continue
			}
			want := withoutComments(doc.Render(RenderOptions{}))
			if got := withoutComments(again.Document().Render(RenderOptions{})); got != want {
				t.Fatalf("rendering is not stable\nfirst:\n%s\nsecond:\n%s", want, got)
			}
		}
	})
}

// loadOneFile loads a module made of one file held in memory.
func loadOneFile(name string, src []byte) (*Module, hcl.Diagnostics) {
	fsys := fstest.MapFS{name: &fstest.MapFile{Data: src}}
	return LoadDir(".", WithFileSystem(FS(fsys)))
}
