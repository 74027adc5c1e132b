package providerinstall

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	getter "github.com/hashicorp/go-getter"
)

// TestExtractErrorsAsGoGetter checks that a damaged archive fails with the
// text OpenTofu prints: it unpacks with go-getter's zip decompressor and
// prints that error alone ("zip: not a valid zip file", not wrapped with
// the archive's name). go-getter itself is the oracle here, on the same
// bytes, with whole inflation on and off; cmd/tfdeps agreed with tofu
// v1.12.6 on these cases from a filesystem mirror.
func TestExtractErrorsAsGoGetter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	noise := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return string(b)
	}
	small := noise(9000)
	big := string(bytes.Repeat([]byte(noise(1<<16)), (wholeMin>>16)+2)) // inflated whole
	const name = "terraform-provider-b"
	dataStart := 30 + len(name) // archive/zip writes no extra field here

	cases := map[string]func() []byte{
		"garbage": func() []byte { return []byte("garbage\n") },
		"method 99": func() []byte {
			z := buildZip(t, zipEntry{name: name, content: small, store: true})
			binary.LittleEndian.PutUint16(z[8:], 99)
			cd := bytes.LastIndex(z, []byte("PK\x01\x02"))
			binary.LittleEndian.PutUint16(z[cd+10:], 99)
			return z
		},
		"bad local header": func() []byte {
			z := buildZip(t, zipEntry{name: name, content: small, store: true})
			copy(z, "XXXX")
			return z
		},
	}
	for label, content := range map[string]string{"small": small, "big": big} {
		cases["stored, content changed, "+label] = func() []byte {
			z := buildZip(t, zipEntry{name: name, content: content, store: true})
			z[dataStart+100] ^= 0xff
			return z
		}
		cases["deflated, stream changed, "+label] = func() []byte {
			z := buildZip(t, zipEntry{name: name, content: content})
			z[dataStart+200] ^= 0x55
			return z
		}
		cases["data cut out, "+label] = func() []byte {
			z := buildZip(t, zipEntry{name: name, content: content})
			cd := bytes.LastIndex(z, []byte("PK\x01\x02"))
			return append(z[:200:200], z[cd:]...)
		}
	}

	for label, build := range cases {
		t.Run(label, func(t *testing.T) {
			zipPath := filepath.Join(t.TempDir(), "p.zip")
			if err := os.WriteFile(zipPath, build(), 0o644); err != nil {
				t.Fatal(err)
			}
			want := (&getter.ZipDecompressor{}).Decompress(filepath.Join(t.TempDir(), "getter"), zipPath, true, 0)
			if want == nil {
				t.Fatal("go-getter unpacked the damaged archive")
			}
			for _, off := range []bool{false, true} {
				wholeOff = off
				_, err := ExtractFile(context.Background(), zipPath, filepath.Join(t.TempDir(), "p"), ExtractOptions{})
				wholeOff = false
				if err == nil || err.Error() != want.Error() {
					t.Errorf("whole inflation off=%v: error %v, want %q", off, err, want)
				}
				_, err = HashArchiveFile(context.Background(), zipPath, ExtractOptions{})
				if err == nil || err.Error() != want.Error() {
					t.Errorf("whole inflation off=%v: HashArchiveFile error %v, want %q", off, err, want)
				}
			}
		})
	}
}
