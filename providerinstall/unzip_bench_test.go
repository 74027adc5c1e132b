package providerinstall

import (
	"archive/zip"
	"bufio"
	"context"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// benchZipEnv, when set to a path, makes BenchmarkExtract copy its
// generated archive there (bench/unzip.sh times standard tools on it).
const benchZipEnv = "TFDEPS_BENCH_ZIP"

// benchBinarySize is the uncompressed size of the generated provider
// binary; it deflates to roughly 50 MB, like a large real provider.
const benchBinarySize = 128 << 20

// writeBenchZip writes a provider-like archive: a 128 MiB executable
// mixing incompressible and repetitive blocks (deflated about 2.5:1),
// plus a licence and a readme.
func writeBenchZip(tb testing.TB, path string) int64 {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	zw := zip.NewWriter(bw)
	h := &zip.FileHeader{Name: "terraform-provider-bench_v1.0.0_x5", Method: zip.Deflate}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := io.Copy(w, io.LimitReader(newBenchSource(), benchBinarySize)); err != nil {
		tb.Fatal(err)
	}
	total := int64(benchBinarySize)
	for _, name := range []string{"LICENSE", "README.md"} {
		w, err := zw.Create(name)
		if err != nil {
			tb.Fatal(err)
		}
		n, _ := io.WriteString(w, "Provider documentation, repeated.\n")
		total += int64(n)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return total
}

// benchSource yields deterministic bytes: each 4 KiB block is random for
// its first 1.5 KiB and a repeated pattern for the rest.
type benchSource struct {
	rng   *rand.PCG
	block [4096]byte
	off   int
}

func newBenchSource() *benchSource {
	return &benchSource{rng: rand.NewPCG(1, 2), off: 4096}
}

func (s *benchSource) Read(p []byte) (int, error) {
	if s.off == len(s.block) {
		for i := 0; i < 1536; i += 8 {
			v := s.rng.Uint64()
			for j := range 8 {
				s.block[i+j] = byte(v >> (8 * j))
			}
		}
		const pattern = "mov rax, [rbp-0x18]; call runtime.morestack\n"
		for i := 1536; i < len(s.block); i++ {
			s.block[i] = pattern[i%len(pattern)]
		}
		s.off = 0
	}
	n := copy(p, s.block[s.off:])
	s.off += n
	return n, nil
}

func BenchmarkExtract(b *testing.B) {
	zipPath := filepath.Join(b.TempDir(), "bench.zip")
	size := writeBenchZip(b, zipPath)
	if out := os.Getenv(benchZipEnv); out != "" {
		if _, err := os.Stat(out); err != nil {
			writeBenchZip(b, out)
		}
	}
	parent := b.TempDir()
	b.SetBytes(size)
	var cpu time.Duration
	for b.Loop() {
		start := processCPUTime()
		target := filepath.Join(parent, "run", "linux_amd64")
		if _, err := ExtractFile(context.Background(), zipPath, target, ExtractOptions{}); err != nil {
			b.Fatal(err)
		}
		cpu += processCPUTime() - start
		b.StopTimer()
		if err := os.RemoveAll(filepath.Join(parent, "run")); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	// Wall time suffers on a busy machine; CPU time per archive does not.
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}
