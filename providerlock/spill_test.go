package providerlock

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// TestSpillBuffer: what is written is read back the same, whether it
// stayed in memory, went to disk from the start, or spilled half way; the
// budget is given back and the temporary file removed on Close.
func TestSpillBuffer(t *testing.T) {
	data := make([]byte, 3*spillChunk+12345)
	for i := range data {
		data[i] = byte(i*31 + i>>11)
	}
	tests := []struct {
		name      string
		budget    int64
		wantSpill bool
	}{
		{"in memory", 8 * spillChunk, false},
		{"no budget", 0, true},
		{"spills after two chunks", 2 * spillChunk, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			b := newMemoryBudget(tt.budget)
			s := newSpillBuffer(b, dir)
			// Uneven writes, across chunk boundaries.
			for rest := data; len(rest) > 0; {
				n := min(len(rest), 700_001)
				if m, err := s.Write(rest[:n]); err != nil || m != n {
					t.Fatalf("Write = %d, %v; want %d, nil", m, err, n)
				}
				rest = rest[n:]
			}
			if got := s.Size(); got != int64(len(data)) {
				t.Errorf("Size = %d, want %d", got, len(data))
			}
			if spilled := s.file != nil; spilled != tt.wantSpill {
				t.Errorf("spilled = %t, want %t", spilled, tt.wantSpill)
			}
			got, err := io.ReadAll(io.NewSectionReader(s, 0, s.Size()))
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("read back %d bytes, %v; want the %d written", len(got), err, len(data))
			}
			p := make([]byte, 10)
			if n, err := s.ReadAt(p, int64(len(data))-4); n != 4 || err != io.EOF || !bytes.Equal(p[:4], data[len(data)-4:]) {
				t.Errorf("ReadAt past the end = %d, %v", n, err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if b.left != tt.budget {
				t.Errorf("budget after Close = %d, want %d", b.left, tt.budget)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("files left behind: %v", left)
			}
		})
	}
}
