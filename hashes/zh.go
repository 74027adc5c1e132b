package hashes

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"os"
)

// ZipHasher computes the "zh:" hash of the bytes written to it, so that a
// download can be hashed in the same pass that stores it (use it with
// io.MultiWriter or io.TeeReader). The zero value is not usable; call
// [NewZipHasher].
type ZipHasher struct {
	sha hash.Hash
}

// NewZipHasher returns a hasher for the "zh:" scheme.
func NewZipHasher() *ZipHasher {
	return &ZipHasher{sha: sha256.New()}
}

// Write adds p to the hashed bytes. It never fails.
func (z *ZipHasher) Write(p []byte) (int, error) {
	return z.sha.Write(p)
}

// Sum returns the "zh:" hash of everything written so far.
func (z *ZipHasher) Sum() Hash {
	return Hash(string(SchemeZip) + hex.EncodeToString(z.sha.Sum(nil)))
}

// ZipHash returns the "zh:" hash of everything read from r.
func ZipHash(r io.Reader) (Hash, error) {
	z := NewZipHasher()
	// Hide any WriterTo of r so that the large buffer is used.
	src := struct{ io.Reader }{r}
	if _, err := io.CopyBuffer(z, src, make([]byte, 256*1024)); err != nil {
		return "", err
	}
	return z.Sum(), nil
}

// ZipHashFile returns the "zh:" hash of the file at path (a symlink is
// followed).
func ZipHashFile(path string) (Hash, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return ZipHash(f)
}
