package config

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var updateRenderGolden = flag.Bool("update-render", false, "rewrite testdata/render/*/*.golden from the actual output")

// TestRenderGolden loads each directory testdata/render/NAME/in with the
// loader and compares the three renderings with NAME/native.golden,
// NAME/explain.golden and NAME/json.golden. Every rendering must also load
// again (the round trip of TestRenderRoundTrip).
func TestRenderGolden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "render", "*", "in"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, in := range dirs {
		dir := filepath.Dir(in)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			mod, diags := LoadDir(".", WithFileSystem(OSFileSystem{Root: in}))
			if diags.HasErrors() {
				t.Fatalf("loading %s: %s", in, diags.Error())
			}
			doc := mod.Document()
			outputs := []struct {
				golden, reload string
				got            []byte
			}{
				{"native.golden", "main.tf", doc.Render(RenderOptions{})},
				{"explain.golden", "main.tf", doc.Render(RenderOptions{Explain: true})},
				{"json.golden", "main.tf.json", doc.RenderJSON()},
			}
			for _, o := range outputs {
				compareGolden(t, filepath.Join(dir, o.golden), o.got)
				checkRoundTrip(t, mod, o.reload, o.got)
			}
		})
	}
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *updateRenderGolden {
		if err := os.WriteFile(path, got, 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-render to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}
