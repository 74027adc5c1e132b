package registrytest

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"time"
)

// zipTime is the modification time of every entry in a generated zip.
func zipTime() time.Time { return time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC) }

// packageID names one package: provider, version and platform.
type packageID struct {
	Namespace, Type, Version, Platform string
}

// Filename is the archive's file name as registries publish it.
func (id packageID) Filename() string {
	return fmt.Sprintf("terraform-provider-%s_%s_%s.zip", id.Type, id.Version, id.Platform)
}

// binaryName is the name of the executable inside the archive.
func (id packageID) binaryName() string {
	return fmt.Sprintf("terraform-provider-%s_v%s", id.Type, id.Version)
}

// PackageInfo describes a generated package.
type PackageInfo struct {
	Filename string
	Size     int64  // size of the zip in bytes
	SHA256   string // lower-case hex SHA-256 of the zip (the zh: value)
	H1       string // "h1:..." hash of the package contents
}

// ZH returns the "zh:" form of the archive checksum.
func (p PackageInfo) ZH() string { return "zh:" + p.SHA256 }

// contentReader returns the executable's content: a header naming the
// package, padded to size bytes (when size exceeds the header) with a
// pseudo-random pattern seeded by the package identity. It is generated on
// the fly, so huge packages cost no memory.
func contentReader(id packageID, size int64) io.Reader {
	header := fmt.Sprintf("#!/bin/sh\n# fake provider %s/%s %s %s\n", id.Namespace, id.Type, id.Version, id.Platform)
	if size < int64(len(header)) {
		size = int64(len(header))
	}
	seed := sha256.Sum256([]byte(header))
	block := make([]byte, 64<<10)
	for i := 0; i < len(block); i += sha256.Size {
		var ctr [8]byte
		binary.BigEndian.PutUint64(ctr[:], uint64(i))
		sum := sha256.Sum256(append(seed[:], ctr[:]...))
		copy(block[i:], sum[:])
	}
	return io.MultiReader(
		stringsReader(header),
		io.LimitReader(&repeatReader{block: block}, size-int64(len(header))),
	)
}

func stringsReader(s string) io.Reader { return &repeatReader{block: []byte(s), once: true} }

// repeatReader repeats block forever (or once).
type repeatReader struct {
	block []byte
	off   int
	once  bool
	done  bool
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.done {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.block[r.off:])
		n += c
		r.off += c
		if r.off == len(r.block) {
			r.off = 0
			if r.once {
				r.done = true
				break
			}
		}
	}
	return n, nil
}

// writeZip writes the package archive to w and returns the SHA-256 of the
// executable's content. The archive is stored (not deflated) so its size
// follows the requested content size.
func writeZip(w io.Writer, id packageID, size int64) ([]byte, error) {
	zw := zip.NewWriter(w)
	hdr := &zip.FileHeader{Name: id.binaryName(), Method: zip.Store, Modified: zipTime()}
	hdr.SetMode(0o755)
	fw, err := zw.CreateHeader(hdr)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	buf := make([]byte, 256<<10)
	if _, err := io.CopyBuffer(io.MultiWriter(fw, h), contentReader(id, size), buf); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// computePackage generates the archive once into hashers to learn its size,
// checksum and h1 hash.
func computePackage(id packageID, size int64, deflate bool) (PackageInfo, *deflatedPieces, error) {
	zh := sha256.New()
	cw := &countWriter{w: zh}
	var d *deflatedPieces
	var contentSum []byte
	var err error
	if deflate {
		if d, contentSum, err = newDeflatedPieces(id, size); err == nil {
			err = writeDeflatedZip(cw, id, d)
		}
	} else {
		contentSum, err = writeZip(cw, id, size)
	}
	if err != nil {
		return PackageInfo{}, nil, err
	}
	summary := fmt.Sprintf("%x  %s\n", contentSum, id.binaryName())
	h1 := sha256.Sum256([]byte(summary))
	return PackageInfo{
		Filename: id.Filename(),
		Size:     cw.n,
		SHA256:   hex.EncodeToString(zh.Sum(nil)),
		H1:       "h1:" + base64.StdEncoding.EncodeToString(h1[:]),
	}, d, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// tamperWriter flips one byte at offset at as the stream passes.
type tamperWriter struct {
	w   io.Writer
	at  int64
	off int64
}

func (t *tamperWriter) Write(p []byte) (int, error) {
	if t.at >= t.off && t.at < t.off+int64(len(p)) {
		q := append([]byte(nil), p...)
		q[t.at-t.off] ^= 0xff
		p = q
	}
	n, err := t.w.Write(p)
	t.off += int64(n)
	return n, err
}
