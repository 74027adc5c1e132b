package requirements

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/config"
)

// writeBenchTree writes the tree bench/config.sh generates: a root module
// calling modules local modules of files files each (about 8.5 KB a file).
// It returns the total size in bytes.
func writeBenchTree(tb testing.TB, root string, modules, files int) int64 {
	tb.Helper()
	var res strings.Builder
	for i := range 40 {
		fmt.Fprintf(&res, "resource \"aws_instance\" \"r%d\" {\n  ami           = \"ami-%08d\"\n  instance_type = var.size\n  tags = {\n    Name  = \"r%d-${local.suffix}\"\n    Index = %d\n  }\n  lifecycle {\n    ignore_changes = [tags]\n  }\n}\n", i, i, i, i)
	}
	body := res.String()
	var total int64
	write := func(name, content string) {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
		total += int64(len(content))
	}
	var main strings.Builder
	for m := range modules {
		fmt.Fprintf(&main, "module \"m%03d\" {\n  source = \"./modules/m%03d\"\n  size   = \"t3.micro\"\n}\n\n", m, m)
	}
	write(filepath.Join(root, "main.tf"), main.String())
	for m := range modules {
		dir := filepath.Join(root, "modules", fmt.Sprintf("m%03d", m))
		write(filepath.Join(dir, "variables.tf"), fmt.Sprintf("variable \"size\" {\n  type = string\n}\n\nlocals {\n  suffix = \"m%03d\"\n}\n", m))
		for n := range files - 1 {
			write(filepath.Join(dir, fmt.Sprintf("r%02d.tf", n)), strings.ReplaceAll(body, `"r`, fmt.Sprintf(`"f%02dr`, n)))
		}
	}
	return total
}

// BenchmarkLoadTree loads the tree of bench/config.sh (120 modules of 16
// files, 15 MB) as `tfdeps providers` does, and reports the heap the
// result keeps alive (live-MB, measured after a collection with the result
// still referenced): with the garbage of parsing, it sets the peak RSS.
func BenchmarkLoadTree(b *testing.B) {
	dir := b.TempDir()
	total := writeBenchTree(b, dir, 120, 16)
	b.Chdir(dir)
	opts := Options{LocalModulesFromDisk: true, Config: []config.Option{config.WithTestsDir(config.DefaultTestsDir)}}
	b.SetBytes(total)
	b.ReportAllocs()
	var live uint64
	for b.Loop() {
		res, diags := Load(".", opts)
		if diags.HasErrors() || len(res.Providers) != 1 {
			b.Fatalf("%v %v", diags, res.Providers)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		live = max(live, ms.HeapAlloc)
		runtime.KeepAlive(res)
	}
	b.ReportMetric(float64(live)/1e6, "live-MB")
}
