package providerinstall

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// failingReader yields n bytes of data, then err.
type failingReader struct {
	r   io.Reader
	err error
}

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if errors.Is(err, io.EOF) {
		return n, f.err
	}
	return n, err
}

// failingWriter accepts n bytes, then fails.
type failingWriter struct {
	n   int
	err error
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		w := f.n
		f.n = 0
		return w, f.err
	}
	f.n -= len(p)
	return len(p), nil
}

// countingReader counts the reads made after stopped was set.
type countingReader struct {
	r       io.Reader
	stopped atomic.Bool
	late    atomic.Int32
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.stopped.Load() {
		c.late.Add(1)
	}
	return c.r.Read(p)
}

func TestCopyPipelined(t *testing.T) {
	data := make([]byte, 5*pipelineBufferSize+12345)
	for i := range data {
		data[i] = byte(rand.Uint32())
	}
	readErr, writeErr := errors.New("read failed"), errors.New("write failed")
	tests := []struct {
		name    string
		src     io.Reader
		dst     func() io.Writer
		want    int64
		wantErr error
	}{
		{name: "whole copy", src: bytes.NewReader(data), want: int64(len(data))},
		{name: "empty", src: bytes.NewReader(nil), want: 0},
		{name: "read error", src: &failingReader{r: bytes.NewReader(data[:3*pipelineBufferSize+7]), err: readErr}, want: 3*pipelineBufferSize + 7, wantErr: readErr},
		// archive/zip's error for an entry shorter than stated, and
		// a decompressor's for a truncated stream: not the end of
		// the data.
		{name: "unexpected EOF", src: &failingReader{r: bytes.NewReader(data[:2*pipelineBufferSize+3]), err: io.ErrUnexpectedEOF}, want: 2*pipelineBufferSize + 3, wantErr: io.ErrUnexpectedEOF},
		{name: "write error", src: bytes.NewReader(data), dst: func() io.Writer { return &failingWriter{n: 2*pipelineBufferSize + 5, err: writeErr} }, want: 2*pipelineBufferSize + 5, wantErr: writeErr},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			var dst io.Writer = &buf
			if tt.dst != nil {
				dst = tt.dst()
			}
			src := &countingReader{r: tt.src}
			n, err := copyPipelined(dst, src)
			src.stopped.Store(true)
			if !errors.Is(err, tt.wantErr) || n != tt.want {
				t.Fatalf("copyPipelined = %d, %v; want %d, %v", n, err, tt.want, tt.wantErr)
			}
			if tt.dst == nil && tt.wantErr == nil && !bytes.Equal(buf.Bytes(), data[:n]) {
				t.Error("copied bytes differ")
			}
			if late := src.late.Load(); late != 0 {
				t.Errorf("source read %d times after copyPipelined returned", late)
			}
		})
	}
}

// TestExtractLargeEntries: entries large enough to be pipelined unpack to
// the same hash as HashArchiveFile computes, and the byte limit still
// refuses an entry larger than it.
func TestExtractLargeEntries(t *testing.T) {
	big := strings.Repeat("provider bytes 0123456789 ", (pipelineMin/26)+100000)
	zipPath := writeZip(t, zipEntry{name: "terraform-provider-big", content: big}, zipEntry{name: "small", content: "x"})
	dir := filepath.Join(t.TempDir(), "linux_amd64")
	h1, err := ExtractFile(context.Background(), zipPath, dir, ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hashed, err := HashArchiveFile(context.Background(), zipPath, ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(hashed.H1, h1); diff != "" {
		t.Errorf("h1 (-HashArchiveFile +ExtractFile):\n%s", diff)
	}

	// A budget below the entry's size.
	_, err = ExtractFile(context.Background(), zipPath, filepath.Join(t.TempDir(), "linux_amd64"), ExtractOptions{MaxBytes: int64(len(big)) - 1})
	var ae *ArchiveError
	if !errors.As(err, &ae) || ae.Problem != ProblemTooLarge {
		t.Errorf("over budget: error %v, want ProblemTooLarge", err)
	}
}
