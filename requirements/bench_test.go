package requirements

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/tfdeps/tfdeps/config"
)

// BenchmarkLoad loads a tree of 20 local child modules with 10 resources
// and a required_providers block each.
func BenchmarkLoad(b *testing.B) {
	fsys := fstest.MapFS{}
	root := ""
	for i := range 20 {
		root += fmt.Sprintf("module \"m%d\" {\n  source = \"./modules/m%d\"\n}\n", i, i)
		child := "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\", version = \">= 5.0, < 6\" }\n  }\n}\n"
		for j := range 10 {
			child += fmt.Sprintf("resource \"aws_instance\" \"r%d\" {}\ndata \"http\" \"d%d\" { url = \"x\" }\n", j, j)
		}
		fsys[fmt.Sprintf("modules/m%d/main.tf", i)] = &fstest.MapFile{Data: []byte(child)}
	}
	fsys["main.tf"] = &fstest.MapFile{Data: []byte(root)}
	opts := Options{Config: []config.Option{config.WithFileSystem(config.FS(fsys))}}
	for b.Loop() {
		res, diags := Load(".", opts)
		if diags.HasErrors() || len(res.Providers) != 2 {
			b.Fatalf("%v %v", diags, res.Providers)
		}
	}
}
