package hashes

import (
	"archive/zip"
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// This file builds the deterministic "realistic" provider zip used by the
// benchmarks and by bench/hashes.sh: many small compressible files (docs,
// licences), some incompressible assets stored without compression, and one
// large binary that mixes incompressible, text-like and low-entropy regions,
// filling the archive up to the requested size.

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

var benchWords = []string{"provider", "resource", "the", "schema", "attribute", "version", "terraform",
	"opentofu", "a", "of", "configuration", "block", "returns", "string", "list", "for", "in", "error"}

// fillText writes n bytes of word-like text.
func fillText(rng *rand.Rand, buf []byte) {
	i := 0
	for i < len(buf) {
		w := benchWords[rng.IntN(len(benchWords))]
		i += copy(buf[i:], w)
		if i < len(buf) {
			buf[i] = " \n"[rng.IntN(2)&rng.IntN(2)]
			i++
		}
	}
}

// fillChunk fills buf with one of three kinds of content.
func fillChunk(rng *rand.Rand, buf []byte) {
	switch k := rng.IntN(10); {
	case k < 4: // incompressible
		for i := range buf {
			buf[i] = byte(rng.Uint32())
		}
	case k < 7: // text-like
		fillText(rng, buf)
	default: // low-entropy, like machine code
		for i := range buf {
			buf[i] = byte(rng.IntN(16)) * 17
		}
	}
}

// writeBenchZip writes a zip archive of about size bytes to w.
func writeBenchZip(w io.Writer, size int64) error {
	rng := rand.New(rand.NewPCG(1, 2))
	cw := &countingWriter{w: w}
	zw := zip.NewWriter(cw)
	buf := make([]byte, 64*1024)
	for i := range 400 { // documentation
		f, err := zw.Create(fmt.Sprintf("docs/%02d/page-%03d.md", i%20, i))
		if err != nil {
			return err
		}
		chunk := buf[:1024+rng.IntN(16*1024)]
		fillText(rng, chunk)
		if _, err := f.Write(chunk); err != nil {
			return err
		}
	}
	for i := range 40 { // pre-compressed assets
		f, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("assets/img-%02d.png", i), Method: zip.Store})
		if err != nil {
			return err
		}
		chunk := buf[:8*1024+rng.IntN(56*1024)]
		for j := range chunk {
			chunk[j] = byte(rng.Uint32())
		}
		if _, err := f.Write(chunk); err != nil {
			return err
		}
	}
	bin, err := zw.Create("terraform-provider-bench_v1.0.0")
	if err != nil {
		return err
	}
	for cw.n < size {
		fillChunk(rng, buf)
		if _, err := bin.Write(buf); err != nil {
			return err
		}
	}
	return zw.Close()
}

// createBenchZip writes the benchmark zip of sizeMB megabytes to path.
func createBenchZip(path string, sizeMB int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := writeBenchZip(bw, int64(sizeMB)<<20); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// TestWriteBenchZip is a helper for bench/hashes.sh, skipped unless
// TFDEPS_BENCH_ZIP_OUT names the file to write (TFDEPS_BENCH_ZIP_MB its size
// in megabytes, default 200).
func TestWriteBenchZip(t *testing.T) {
	out := os.Getenv("TFDEPS_BENCH_ZIP_OUT")
	if out == "" {
		t.Skip("TFDEPS_BENCH_ZIP_OUT not set; this only builds the benchmark zip for bench/hashes.sh")
	}
	mb := 200
	if s := os.Getenv("TFDEPS_BENCH_ZIP_MB"); s != "" {
		var err error
		if mb, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := createBenchZip(out, mb); err != nil {
		t.Fatal(err)
	}
}
