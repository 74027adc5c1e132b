package lockfile

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Lock files shaped as the worst cases of the reader's memory (issue #14):
// each generator returns a file of about size bytes.
var memoryCases = []struct {
	name string
	gen  func(size int) []byte
}{
	// Many providers, each with a few hashes, as tofu writes them.
	{"many providers", func(size int) []byte {
		var b strings.Builder
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "provider \"registry.opentofu.org/ns%d/p%d\" {\n  version     = \"1.2.%d\"\n  constraints = \">= 1.0.0\"\n  hashes = [\n", i, i, i%100)
			for j := 0; j < 4; j++ {
				fmt.Fprintf(&b, "    \"h1:%043d=\",\n", i*4+j)
			}
			b.WriteString("  ]\n}\n\n")
		}
		return []byte(b.String())
	}},
	// One provider with a huge list of hashes.
	{"huge hash list", func(size int) []byte {
		var b strings.Builder
		b.WriteString("provider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.2.1\"\n  hashes = [\n")
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "    \"zh:%064x\",\n", i)
		}
		b.WriteString("  ]\n}\n")
		return []byte(b.String())
	}},
	// One hash list of short strings, the most tokens per byte.
	{"short hashes", func(size int) []byte {
		var b strings.Builder
		b.WriteString("provider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.2.1\"\n  hashes = [")
		for b.Len() < size {
			b.WriteString(`"x:",`)
		}
		b.WriteString("]\n}\n")
		return []byte(b.String())
	}},
	// One long string (an invalid hash: the error quotes it).
	{"long string", func(size int) []byte {
		return []byte("provider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.2.1\"\n  hashes = [\"h1:" +
			strings.Repeat("a", size) + "\"]\n}\n")
	}},
	// The smallest valid provider blocks: the most selections per byte.
	{"minimal providers", func(size int) []byte {
		var b strings.Builder
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "provider \"registry.opentofu.org/a/p%d\" {\nversion=\"1.0.0\"\n}\n", i)
		}
		return []byte(b.String())
	}},
	// Errors in every block: the reader stops after maxPlainDiagnostics.
	{"invalid blocks", func(size int) []byte {
		return []byte(strings.Repeat("provider \"x\" {\nversion=\"1\"\n}\n", size/28))
	}},
	// Invalid hashes, one error each: the reader stops after maxDiagnostics.
	{"invalid hashes", func(size int) []byte {
		return []byte("provider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.2.1\"\n  hashes = [" +
			strings.Repeat(`"",`, size/3) + "]\n}\n")
	}},
	// The same provider again and again.
	{"duplicates", func(size int) []byte {
		return []byte(strings.Repeat("provider \"registry.opentofu.org/a/b\" {\nversion=\"1.0.0\"\n}\n", size/52))
	}},
	// Constraints with a "v", which Terraform's parser reads differently.
	{"v in constraints", func(size int) []byte {
		var b strings.Builder
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "provider \"registry.terraform.io/ns%d/p\" {\n  version     = \"1.2.0\"\n  constraints = \">= 1.0.0, ~> v1.%d\"\n}\n", i, i)
		}
		return []byte(b.String())
	}},
	// Comments are skipped by the parser but still read.
	{"comments", func(size int) []byte {
		return []byte(strings.Repeat("# a comment line of a lock file\n", size/32))
	}},
}

// allocatedBytes returns the bytes that ReadFile allocates to read the
// file at path, from the runtime's cumulative allocation counter
// (deterministic for one input, unlike time or peak memory).
func allocatedBytes(path string, opts ReadOptions) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	locks, _, diags := ReadFile(path, opts)
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(locks)
	runtime.KeepAlive(diags)
	return after.TotalAlloc - before.TotalAlloc
}

// The bound on what reading a lock file allocates, for any of memoryCases:
// maxBytesPerInputByte per byte of the file (the reader's memory is
// proportional to the file with a small factor, issue #14) plus
// maxBytesPerDiagnostic for each error reported, of which there are at most
// maxDiagnostics: a file at MaxFileSize costs at most 8 × 8 MiB + 1 MiB.
const (
	maxBytesPerInputByte  = 8
	maxBytesPerDiagnostic = 1024
)

func TestReadMemoryIsSmallMultipleOfFile(t *testing.T) {
	size := 1 << 20
	if testing.Short() {
		size = 256 << 10
	}
	for _, c := range memoryCases {
		src := c.gen(size)
		path := writeTemp(t, src)
		for _, f := range []Flavour{OpenTofu, Terraform} {
			t.Run(c.name+"/"+f.String(), func(t *testing.T) {
				opts := ReadOptions{Flavour: f}
				got := allocatedBytes(path, opts)
				_, _, diags := ReadFile(path, opts)
				limit := uint64(maxBytesPerInputByte*len(src) + maxBytesPerDiagnostic*len(diags))
				t.Logf("%d bytes, %d diagnostics: %.2f bytes allocated per input byte", len(src), len(diags), float64(got)/float64(len(src)))
				if got > limit {
					t.Errorf("reading %d bytes with %d diagnostics allocated %d bytes, want at most %d", len(src), len(diags), got, limit)
				}
			})
		}
	}
}

// BenchmarkReadMemory reports, besides -benchmem's totals, the bytes
// allocated per input byte ("B/inputB") for each worst case at 1 and 8 MiB.
func BenchmarkReadMemory(b *testing.B) {
	for _, c := range memoryCases {
		for _, size := range []int{1 << 20, 8 << 20} {
			src := c.gen(size)
			if len(src) > MaxFileSize {
				src = c.gen(size - (len(src) - size) - 256)
			}
			path := writeTemp(b, src)
			b.Run(fmt.Sprintf("%s/%dMiB", c.name, size>>20), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(src)))
				var total uint64
				for i := 0; i < b.N; i++ {
					total += allocatedBytes(path, ReadOptions{})
				}
				b.ReportMetric(float64(total)/float64(b.N)/float64(len(src)), "B/inputB")
			})
		}
	}
}

func writeTemp(t testing.TB, src []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".terraform.lock.hcl")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
