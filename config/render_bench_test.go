package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// deepShapes are nested inputs of a given depth, as issue #14 sent them:
// tuples and objects, in JSON and native syntax.
var deepShapes = []struct {
	name string
	file string
	gen  func(depth int) string
}{
	{"json-tuple", "main.tf.json", func(n int) string {
		return `{"locals": {"x": ` + strings.Repeat("[", n) + "1" + strings.Repeat("]", n) + "}}"
	}},
	{"json-object", "main.tf.json", func(n int) string {
		return `{"locals": {"x": ` + strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) + "}}"
	}},
	{"native-tuple", "main.tf", func(n int) string {
		return "locals {\n  x = " + strings.Repeat("[", n) + "1" + strings.Repeat("]", n) + "\n}\n"
	}},
	{"native-object", "main.tf", func(n int) string {
		return "locals {\n  x = " + strings.Repeat("{a=", n) + "1" + strings.Repeat("}", n) + "\n}\n"
	}},
}

// BenchmarkRenderDeep loads and renders (native and JSON) configurations
// nested 200, 400 and 800 levels deep: time and memory per operation
// should double with the depth (and the input size), not quadruple.
func BenchmarkRenderDeep(b *testing.B) {
	for _, shape := range deepShapes {
		for _, depth := range []int{200, 400, 800} {
			b.Run(fmt.Sprintf("%s/depth=%d", shape.name, depth), func(b *testing.B) {
				benchRender(b, shape.file, shape.gen(depth))
			})
		}
	}
}

// BenchmarkRenderWide renders configurations of 1,000, 2,000 and 4,000
// nested objects of bounded depth: time and memory should double with the
// size.
func BenchmarkRenderWide(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000} {
		b.Run(fmt.Sprintf("json/items=%d", n), func(b *testing.B) {
			var sb strings.Builder
			sb.WriteString(`{"locals": {`)
			for i := 0; i < n; i++ {
				if i > 0 {
					sb.WriteString(",")
				}
				fmt.Fprintf(&sb, `"x%d": {"a": [1, "${var.y}", {"b": {"c": [%d]}}]}`, i, i)
			}
			sb.WriteString("}}")
			benchRender(b, "main.tf.json", sb.String())
		})
		b.Run(fmt.Sprintf("native/items=%d", n), func(b *testing.B) {
			var sb strings.Builder
			sb.WriteString("locals {\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&sb, "  x%d = { a = [1, \"${var.y}\", { b = { c = [%d] } }] }\n", i, i)
			}
			sb.WriteString("}\n")
			benchRender(b, "main.tf", sb.String())
		})
	}
}

func benchRender(b *testing.B, name, src string) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, diags := LoadDir(dir)
		if diags.HasErrors() {
			b.Fatal(diags.Errs()[0])
		}
		doc := m.Document()
		_ = doc.Render(RenderOptions{})
		_ = doc.RenderJSON()
	}
}
