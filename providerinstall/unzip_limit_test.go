package providerinstall

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// craftedZip returns an archive whose stored entries each hold "hello"
// but declare the given uncompressed sizes (zip64 where needed).
func craftedZip(t *testing.T, sizes ...uint64) string {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for i, size := range sizes {
		content := []byte("hello")
		hdr := &zip.FileHeader{Name: "terraform-provider-x" + string(rune('a'+i)), Method: zip.Store,
			CompressedSize64: uint64(len(content)), UncompressedSize64: size, CRC32: 0x3610a686}
		fw, err := w.CreateRaw(hdr)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(content)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "crafted.zip")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDeclaredSizesCannotWrap: issue #14. Declared sizes of 20 and
// 2^64-20 bytes add up to 0 in 64 bits; the archive must be refused before
// anything is written (extraction) or read (hashing).
func TestDeclaredSizesCannotWrap(t *testing.T) {
	tests := []struct {
		name  string
		sizes []uint64
	}{
		{"20 + 2^64-20", []uint64{20, 1<<64 - 20}},
		{"2^64-20 + 20", []uint64{1<<64 - 20, 20}},
		{"max + 1", []uint64{1<<64 - 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			zipPath := craftedZip(t, tt.sizes...)
			parent := t.TempDir()
			_, err := ExtractFile(context.Background(), zipPath, filepath.Join(parent, "linux_amd64"), ExtractOptions{})
			var ae *ArchiveError
			if !errors.As(err, &ae) || ae.Problem != ProblemTooLarge {
				t.Errorf("ExtractFile error = %v, want ProblemTooLarge", err)
			}
			if diff := cmp.Diff([]string(nil), treeListing(t, parent)); diff != "" {
				t.Errorf("files written (-want +got):\n%s", diff)
			}
			_, err = HashArchiveFile(context.Background(), zipPath, ExtractOptions{})
			if !errors.As(err, &ae) || ae.Problem != ProblemTooLarge {
				t.Errorf("HashArchiveFile error = %v, want ProblemTooLarge", err)
			}
		})
	}
}
