package providerinstall

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/inflate"
)

// wholeContent is n bytes of provider-like content: random and repetitive
// runs, deflating to about half.
func wholeContent(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 2))
	b := make([]byte, 0, n)
	for len(b) < n {
		run := min(64+r.IntN(4096), n-len(b))
		if r.IntN(2) == 0 {
			for range run {
				b = append(b, byte(r.IntN(256)))
			}
		} else {
			for i := range run {
				b = append(b, "provider"[i%8])
			}
		}
	}
	return b
}

// rawEntry is an entry written with zip.Writer.CreateRaw: its header says
// what the test wants, true or not.
type rawEntry struct {
	name       string
	data       []byte // uncompressed
	crc        uint32 // as stated
	size       uint64 // uncompressed size as stated
	descriptor bool
	corrupt    bool // flip a byte in the middle of the compressed data
	cut        int  // compressed bytes left out at the end
}

func buildRawZip(t *testing.T, entries ...rawEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		var comp bytes.Buffer
		fw, _ := flate.NewWriter(&comp, flate.BestSpeed)
		fw.Write(e.data)
		fw.Close()
		c := comp.Bytes()
		if e.corrupt {
			c[len(c)/2] ^= 0x55
		}
		c = c[:len(c)-e.cut]
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, CRC32: e.crc,
			CompressedSize64: uint64(len(c)), UncompressedSize64: e.size}
		if e.descriptor {
			h.Flags |= 0x8
		}
		h.SetMode(0o755)
		w, err := zw.CreateRaw(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(c)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// extractBothWays extracts and hashes the archive with whole inflation and
// without, and extracts it from memory (as a downloaded archive) with whole
// inflation, and fails unless all give the same result: the same error
// text, or the same "h1:" and the same files.
func extractBothWays(t *testing.T, archive []byte, opts ExtractOptions) (whole int64, err error) {
	t.Helper()
	zipPath := filepath.Join(t.TempDir(), "p.zip")
	if err := os.WriteFile(zipPath, archive, 0o644); err != nil {
		t.Fatal(err)
	}
	type result struct {
		h1, hashed hashes.Hash
		files      map[string][32]byte
		err, hErr  string
	}
	run := func(off, inMemory bool) result {
		wholeOff = off
		defer func() { wholeOff = false }()
		dir := filepath.Join(t.TempDir(), "pkg")
		var r result
		a := &Archive{Path: zipPath}
		if inMemory {
			a = &Archive{Data: bytes.Clone(archive), URL: zipPath}
		}
		h1, err := extractArchive(context.Background(), a, dir, opts, true)
		r.h1 = h1
		if err != nil {
			r.err = err.Error()
		} else {
			r.files = map[string][32]byte{}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
				r.files[e.Name()] = sha256.Sum256(b)
			}
			if dirH1, err := hashes.HashDir(dir); err != nil || dirH1 != h1 {
				t.Errorf("whole off %v: ExtractFile returned %s, the directory hashes to %s (%v)", off, h1, dirH1, err)
			}
		}
		hashed, err := HashArchiveFile(context.Background(), zipPath, opts)
		r.hashed = hashed.H1
		if err != nil {
			r.hErr = err.Error()
		}
		return r
	}
	before := wholeCount.Load()
	fast := run(false, false)
	whole = wholeCount.Load() - before
	slow := run(true, false)
	before = wholeCount.Load()
	mem := run(false, true)
	if n := wholeCount.Load() - before; n != whole {
		t.Errorf("from memory %d entries inflated whole, from a file %d", n, whole)
	}
	if diff := cmp.Diff(fast, mem, cmp.AllowUnexported(result{})); diff != "" {
		t.Fatalf("extracting from memory differs from a file (-file +memory):\n%s", diff)
	}
	if fast.err != slow.err || fast.hErr != slow.hErr || fast.h1 != slow.h1 || fast.hashed != slow.hashed || len(fast.files) != len(slow.files) {
		t.Fatalf("whole inflation differs from streaming:\nwhole:     %+v\nstreaming: %+v", fast, slow)
	}
	for name, sum := range slow.files {
		if fast.files[name] != sum {
			t.Fatalf("%s differs", name)
		}
	}
	if fast.err != "" {
		return whole, &ArchiveError{}
	}
	return whole, nil
}

func TestExtractWholeSameAsStreaming(t *testing.T) {
	big := wholeContent(wholeMin+12345, 1)
	sum := crc32.ChecksumIEEE(big)
	n := uint64(len(big))
	tests := []struct {
		name    string
		entries []rawEntry
		opts    ExtractOptions
		ok      bool
		whole   int64 // entries inflated whole (when inflate.Fast)
	}{
		{name: "plain", entries: []rawEntry{{name: "terraform-provider-x", data: big, crc: sum, size: n}}, ok: true, whole: 2},
		{name: "data descriptor", entries: []rawEntry{{name: "terraform-provider-x", data: big, crc: sum, size: n, descriptor: true}}, ok: true, whole: 2},
		{name: "no CRC stated", entries: []rawEntry{{name: "terraform-provider-x", data: big, size: n}}, ok: true, whole: 2},
		{name: "small entry streamed", entries: []rawEntry{{name: "terraform-provider-x", data: big[:1000], crc: crc32.ChecksumIEEE(big[:1000]), size: 1000}}, ok: true},
		{name: "two entries", entries: []rawEntry{
			{name: "terraform-provider-x", data: big, crc: sum, size: n},
			{name: "LICENSE", data: big[:wholeMin], crc: crc32.ChecksumIEEE(big[:wholeMin]), size: wholeMin, descriptor: true},
		}, ok: true, whole: 4},
		{name: "wrong CRC", entries: []rawEntry{{name: "terraform-provider-x", data: big, crc: sum + 1, size: n}}},
		{name: "wrong CRC with descriptor", entries: []rawEntry{{name: "terraform-provider-x", data: big, crc: sum ^ 1, size: n, descriptor: true}}},
		{name: "size stated short", entries: []rawEntry{{name: "terraform-provider-x", data: big, crc: sum, size: n - 1}}},
		{name: "size stated long", entries: []rawEntry{{name: "terraform-provider-x", data: big, crc: sum, size: n + 1}}},
		{name: "corrupt data", entries: []rawEntry{{name: "terraform-provider-x", data: big, crc: sum, size: n, corrupt: true}}},
		{name: "truncated data", entries: []rawEntry{{name: "terraform-provider-x", data: big, crc: sum, size: n, cut: 100}}},
		{name: "over the size limit", entries: []rawEntry{{name: "terraform-provider-x", data: big, crc: sum, size: n}}, opts: ExtractOptions{MaxBytes: int64(n) - 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			whole, err := extractBothWays(t, buildRawZip(t, tt.entries...), tt.opts)
			if (err == nil) != tt.ok {
				t.Fatalf("error %v, want success %v", err, tt.ok)
			}
			if inflate.Fast && whole != tt.whole {
				t.Errorf("%d entries inflated whole (extracting and hashing), want %d", whole, tt.whole)
			}
		})
	}
}

// TestExtractWholeDescriptorMismatch: a data descriptor whose CRC-32
// differs from the central directory's fails as archive/zip fails it.
func TestExtractWholeDescriptorMismatch(t *testing.T) {
	big := wholeContent(wholeMin, 2)
	sum := crc32.ChecksumIEEE(big)
	archive := buildRawZip(t, rawEntry{name: "terraform-provider-x", data: big, crc: sum, size: uint64(len(big)), descriptor: true})
	var sig [8]byte
	binary.LittleEndian.PutUint32(sig[:4], 0x08074b50)
	binary.LittleEndian.PutUint32(sig[4:], sum)
	i := bytes.LastIndex(archive, sig[:])
	if i < 0 {
		t.Fatal("no data descriptor")
	}
	archive[i+4] ^= 1
	whole, err := extractBothWays(t, archive, ExtractOptions{})
	if err == nil || whole != 0 {
		t.Fatalf("err %v, %d inflated whole; want an error and none", err, whole)
	}
}
