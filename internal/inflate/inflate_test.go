package inflate

import (
	"bytes"
	"compress/flate"
	"errors"
	"math/rand/v2"
	"testing"
)

// deflate compresses b with the standard library at level.
func deflate(t *testing.T, b []byte, level int) []byte {
	t.Helper()
	var out bytes.Buffer
	w, err := flate.NewWriter(&out, level)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// sample is n bytes mixing random and repetitive runs (matches, literals,
// several block kinds once deflated).
func sample(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, 0, n)
	for len(b) < n {
		run := min(1+r.IntN(5000), n-len(b))
		if r.IntN(2) == 0 {
			for range run {
				b = append(b, byte(r.IntN(256)))
			}
		} else {
			c := byte('a' + r.IntN(4))
			for i := range run {
				b = append(b, c+byte(i%3))
			}
		}
	}
	return b
}

func TestInflateRoundTrip(t *testing.T) {
	for _, size := range []int{0, 1, 100, 70_000, 3 << 20} {
		for _, level := range []int{flate.NoCompression, flate.BestSpeed, flate.DefaultCompression, flate.HuffmanOnly} {
			want := sample(size, uint64(size))
			src := deflate(t, want, level)
			// Exactly the size, and larger: the count says how much.
			for _, extra := range []int{0, 10} {
				dst := make([]byte, size+extra)
				n, err := Inflate(dst, src)
				if err != nil || n != size || !bytes.Equal(dst[:n], want) {
					t.Errorf("size %d level %d extra %d: got %d bytes, err %v, equal %v", size, level, extra, n, err, bytes.Equal(dst[:min(n, len(dst))], want))
				}
			}
		}
	}
}

func TestInflateTrailingBytesIgnored(t *testing.T) {
	want := sample(50_000, 7)
	src := append(deflate(t, want, flate.DefaultCompression), "trailing junk"...)
	dst := make([]byte, len(want))
	if n, err := Inflate(dst, src); err != nil || n != len(want) || !bytes.Equal(dst, want) {
		t.Fatalf("got %d, %v", n, err)
	}
}

func TestInflateErrors(t *testing.T) {
	want := sample(200_000, 3)
	src := deflate(t, want, flate.DefaultCompression)
	bad := bytes.Clone(src)
	bad[0] |= 0x06 // block type 3: reserved, invalid
	tests := []struct {
		name string
		dst  int
		src  []byte
		err  error
	}{
		{"output larger than the buffer", len(want) - 1, src, ErrTooLong},
		{"empty buffer", 0, src, ErrTooLong},
		{"truncated stream", len(want), src[:len(src)/2], ErrCorrupt},
		{"no input", len(want), nil, ErrCorrupt},
		{"invalid block type", len(want), bad, ErrCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := Inflate(make([]byte, tt.dst), tt.src)
			if !errors.Is(err, tt.err) {
				t.Fatalf("got %d, %v; want %v", n, err, tt.err)
			}
		})
	}
}
