package registrytest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
)

// Deflated packages (Version.Deflate): an executable that compresses about
// as well as real provider binaries (roughly 3:1), stored with Deflate, for
// benchmarks whose cost is inflating. Compressing hundreds of megabytes
// per request would be slow, so the content is a header followed by one
// pseudo-random chunk repeated: each piece is compressed once, on its own
// and ended by a sync flush, and the archive's compressed data is those
// pieces concatenated and closed by an empty final block — a valid deflate
// stream whose back-references never cross a piece.

// deflateChunk is the size of the repeated chunk of content.
const deflateChunk = 1 << 20

// deflatedPieces are the compressed pieces of one package's executable.
type deflatedPieces struct {
	header, chunk, tail []byte // compressed
	repeats             int    // copies of chunk between header and tail
	crc                 uint32
	size                int64 // uncompressed
}

// finalBlock is an empty stored block with BFINAL set.
var finalBlock = [...]byte{0x01, 0x00, 0x00, 0xff, 0xff}

func (d *deflatedPieces) compressedSize() int64 {
	return int64(len(d.header)) + int64(d.repeats)*int64(len(d.chunk)) + int64(len(d.tail)) + int64(len(finalBlock))
}

// newDeflatedPieces builds the executable of id, size bytes (at least its
// header), and returns it compressed in pieces, with the SHA-256 of the
// content.
func newDeflatedPieces(id packageID, size int64) (*deflatedPieces, []byte, error) {
	header := []byte(fmt.Sprintf("#!/bin/sh\n# fake provider %s/%s %s %s (deflated)\n", id.Namespace, id.Type, id.Version, id.Platform))
	body := max(size-int64(len(header)), 0)
	chunk := compressibleChunk(header)
	d := &deflatedPieces{repeats: int(body / deflateChunk), size: int64(len(header)) + body}
	tail := chunk[:body%deflateChunk]
	var err error
	if d.header, err = deflatePiece(header); err != nil {
		return nil, nil, err
	}
	if d.chunk, err = deflatePiece(chunk); err != nil {
		return nil, nil, err
	}
	if d.tail, err = deflatePiece(tail); err != nil {
		return nil, nil, err
	}
	crc, sum := crc32.NewIEEE(), sha256.New()
	w := io.MultiWriter(crc, sum)
	w.Write(header)
	for i := 0; i < d.repeats; i++ {
		w.Write(chunk)
	}
	w.Write(tail)
	d.crc = crc.Sum32()
	return d, sum.Sum(nil), nil
}

// compressibleChunk returns deflateChunk bytes of pseudo-random "words"
// drawn from a small vocabulary, seeded by seed.
func compressibleChunk(seed []byte) []byte {
	s := sha256.Sum256(seed)
	state := binary.LittleEndian.Uint64(s[:8]) | 1
	next := func() uint64 { // xorshift64
		state ^= state << 13
		state ^= state >> 7
		state ^= state << 17
		return state
	}
	words := make([][]byte, 768)
	for i := range words {
		w := make([]byte, 6+next()%40)
		for j := range w {
			w[j] = byte(next())
		}
		words[i] = w
	}
	out := make([]byte, 0, deflateChunk+16)
	for len(out) < deflateChunk {
		r := next()
		if r%8 == 0 {
			out = append(out, byte(r>>8), byte(r>>16), byte(r>>24), byte(r>>32), byte(r>>40))
			continue
		}
		out = append(out, words[(r>>8)%uint64(len(words))]...)
	}
	return out[:deflateChunk]
}

// deflatePiece compresses b on its own, ended by a sync flush.
func deflatePiece(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, flate.DefaultCompression)
	if err != nil {
		return nil, err
	}
	if _, err := fw.Write(b); err != nil {
		return nil, err
	}
	if err := fw.Flush(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeDeflatedZip writes the package archive of id from its pieces.
func writeDeflatedZip(w io.Writer, id packageID, d *deflatedPieces) error {
	zw := zip.NewWriter(w)
	hdr := &zip.FileHeader{
		Name: id.binaryName(), Method: zip.Deflate, Modified: zipTime(),
		CRC32: d.crc, CompressedSize64: uint64(d.compressedSize()), UncompressedSize64: uint64(d.size),
	}
	hdr.SetMode(0o755)
	fw, err := zw.CreateRaw(hdr)
	if err != nil {
		return err
	}
	if _, err := fw.Write(d.header); err != nil {
		return err
	}
	for i := 0; i < d.repeats; i++ {
		if _, err := fw.Write(d.chunk); err != nil {
			return err
		}
	}
	if _, err := fw.Write(d.tail); err != nil {
		return err
	}
	if _, err := fw.Write(finalBlock[:]); err != nil {
		return err
	}
	return zw.Close()
}
