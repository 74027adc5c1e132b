package hashes

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"
)

// TestHashZipBoundsContent: an archive whose entries declare more content
// than MaxZipContent is refused before anything is decompressed.
func TestHashZipBoundsContent(t *testing.T) {
	tests := []struct {
		name    string
		sizes   []uint64
		wantErr bool
	}{
		{"one small entry", []uint64{5}, false},
		{"one entry over the bound", []uint64{MaxZipContent + 1}, true},
		{"entries adding up over the bound", []uint64{MaxZipContent / 2, MaxZipContent/2 + 1}, true},
		// Issue #14: 5 + (2^64-5) wraps a 64-bit sum around to 0.
		{"sizes wrapping the sum around", []uint64{5, 1<<64 - 5}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := zip.NewWriter(&buf)
			for i, size := range tc.sizes {
				content := []byte("hello")
				hdr := &zip.FileHeader{Name: string(rune('a' + i)), Method: zip.Store,
					CompressedSize64: uint64(len(content)), UncompressedSize64: size}
				if size == uint64(len(content)) {
					hdr.CRC32 = 0x3610a686 // crc32 of "hello"
				}
				fw, err := w.CreateRaw(hdr)
				if err != nil {
					t.Fatal(err)
				}
				fw.Write(content)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			_, err := HashZip(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), "declares more than") {
					t.Fatalf("HashZip error = %v, want the content bound", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("HashZip: %v", err)
			}
		})
	}
}
