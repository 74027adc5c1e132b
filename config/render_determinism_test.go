package config

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tfdeps/tfdeps/internal/conformance"
)

// TestRenderDeterministic loads and renders every conformance fixture many
// times: the module holds its objects in maps, and the effective
// configuration must not depend on their iteration order.
func TestRenderDeterministic(t *testing.T) {
	root := conformance.Dir(t, "config")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		in := filepath.Join(root, e.Name(), "in")
		if _, err := os.Stat(in); err != nil {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			render := func() ([]byte, []byte) {
				mod, _ := LoadDir(".", WithFileSystem(OSFileSystem{Root: in}))
				doc := mod.Document()
				js := doc.RenderJSON()
				return doc.Render(RenderOptions{Explain: true}), js
			}
			firstNative, firstJSON := render()
			for i := 0; i < 20; i++ {
				native, js := render()
				if !bytes.Equal(native, firstNative) || !bytes.Equal(js, firstJSON) {
					t.Fatalf("render %d differs from the first:\n%s\n---\n%s", i, firstNative, native)
				}
			}
		})
	}
}

// TestDocumentOrderJSONArray: provider blocks given as one JSON array share
// their declaration range and must keep their array order.
func TestDocumentOrderJSONArray(t *testing.T) {
	src := `{"provider": {"aws": [{"region": "a"}, {"alias": "b", "region": "b"}, {"alias": "c", "region": "c"}]}}`
	for i := 0; i < 30; i++ {
		mod, diags := loadMap(t, map[string]string{"main.tf.json": src})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		var got []string
		for _, b := range mod.Document().Blocks {
			got = append(got, string(b.Body.Attributes[len(b.Body.Attributes)-1].Range.SliceBytes([]byte(src))))
		}
		want := []string{`"region": "a"`, `"region": "b"`, `"region": "c"`}
		if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
			t.Fatalf("blocks in order %q, want %q", got, want)
		}
	}
}
