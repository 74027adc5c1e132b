package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkParseCacheRoots loads 40 roots that each call the same module
// of 200 resources, as init -recursive does, without and with a shared
// parse cache.
func BenchmarkParseCacheRoots(b *testing.B) {
	dir := b.TempDir()
	var mod strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&mod, "resource \"aws_instance\" \"r%d\" {\n  ami = \"ami-%d\"\n  tags = { Name = \"r%d\", Index = %d }\n  count = var.n > 0 ? 1 : 0\n}\n\n", i, i, i, i)
	}
	mod.WriteString("variable \"n\" {\n  default = 1\n}\n")
	os.MkdirAll(filepath.Join(dir, "modules", "big"), 0o755)
	os.WriteFile(filepath.Join(dir, "modules", "big", "main.tf"), []byte(mod.String()), 0o644)
	const roots = 40
	for i := 0; i < roots; i++ {
		p := filepath.Join(dir, fmt.Sprintf("r%02d", i))
		os.MkdirAll(p, 0o755)
		os.WriteFile(filepath.Join(p, "main.tf"), []byte("module \"big\" { source = \"../modules/big\" }\n"), 0o644)
	}
	load := func(opts ...Option) {
		opts = append(opts, WithFileSystem(OSFileSystem{Root: dir}))
		for i := 0; i < roots; i++ {
			LoadDir(fmt.Sprintf("r%02d", i), opts...)
			LoadDir("modules/big", opts...)
		}
	}
	b.Run("no cache", func(b *testing.B) {
		for range b.N {
			load()
		}
	})
	b.Run("shared cache", func(b *testing.B) {
		for range b.N {
			load(WithParseCache(NewParseCache(0)))
		}
	})
}
