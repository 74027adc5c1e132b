package providerinstall

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/semaphore"

	"github.com/tfdeps/tfdeps/internal/inflate"
)

// Inflating large entries whole.
//
// Inflating is most of the CPU of unpacking a provider (a 150 MB
// executable: 0.27 CPU-s with klauspost/compress/flate, the rest — CRC,
// writing — under 0.1). Package inflate, built with cgo, does it with
// libdeflate in 0.10 CPU-s, given the whole compressed entry and a buffer
// for the whole output. Large deflated entries are therefore inflated
// whole, checked (size, CRC-32, data descriptor), then hashed. When
// unpacking, the output buffer is the target file itself, mapped into
// memory (unzip_whole_linux.go): a copy of 150 MB from a buffer into the
// file cost more system time than the inflating saved.
//
// The fast path is only an optimisation: whenever anything about the
// entry is not exactly as the central directory says — a stream that is
// corrupt or inflates to another size, a CRC-32 or data descriptor that
// does not match, a local header that cannot be read — it gives up and
// the entry is copied through archive/zip's streaming reader, which
// reports the problem with the errors it always did. So the bytes written
// are the same either way, and so are the errors.

// wholeMin is the smallest entry (uncompressed bytes) inflated whole.
const wholeMin = 4 << 20

// wholeBudget bounds the bytes of heap buffers (compressed bytes, and
// the output when it is not the target file itself) held for whole
// inflation at once, in the whole process. An entry waits until its
// buffers fit; one that could never fit is streamed. 512 MiB lets two
// 150 MB packages be hashed at once (providers lock: 200 MB each with the
// compressed bytes), which keeps 2 cores busy, and 10 be unpacked (50 MB
// each: the output is the mapped file).
const wholeBudget = 512 << 20

var wholeSem = semaphore.NewWeighted(wholeBudget)

// wholeOff turns whole inflation off (tests compare both paths), and
// wholeCount counts the entries inflated whole (tests check it was used).
var (
	wholeOff   bool
	wholeCount atomic.Int64
)

// takeWhole waits until n bytes of wholeBudget are free and takes them;
// false when they never will be or the extraction is cancelled.
func (w *entryWriter) takeWhole(n int64) bool {
	return n <= wholeBudget && wholeSem.Acquire(w.ctx, n) == nil
}

func giveWhole(n int64) { wholeSem.Release(n) }

// wholeCandidate reports whether e is worth inflating whole, and is
// within the extraction's budget.
func (w *entryWriter) wholeCandidate(e plannedEntry) bool {
	f := e.file
	size := f.UncompressedSize64
	return !wholeOff && inflate.Fast && f.Method == zip.Deflate && size >= wholeMin && size <= uint64(max(w.budget, 0)) &&
		size <= math.MaxInt && f.CompressedSize64 <= wholeBudget && w.ctx.Err() == nil
}

// inflateWhole inflates e into out (len(out) == its uncompressed size) and
// reports whether it did and all checks passed; e must be a
// wholeCandidate, and the caller must hold wholeBudget for its compressed
// bytes. On success the bytes count against the extraction's budget.
func (w *entryWriter) inflateWhole(e plannedEntry, out []byte) bool {
	f := e.file
	raw, err := f.OpenRaw()
	if err != nil {
		return false
	}
	section, isSection := raw.(*io.SectionReader)
	if !isSection {
		return false
	}
	in, freeIn, err := compressedBytes(section)
	if err != nil {
		return false
	}
	n, err := inflate.Inflate(out, in)
	freeIn()
	if err != nil || n != len(out) || uint64(n) != f.UncompressedSize64 ||
		!checksumsMatch(f, section, crc32.ChecksumIEEE(out)) {
		return false
	}
	w.budget -= int64(n)
	wholeCount.Add(1)
	return true
}

// hashWhole returns the SHA-256 of a large entry's content inflated whole,
// and whether that was done (otherwise the caller streams).
func (w *entryWriter) hashWhole(e plannedEntry) ([sha256.Size]byte, bool) {
	size := int64(e.file.UncompressedSize64)
	held := size + int64(e.file.CompressedSize64)
	if !w.wholeCandidate(e) || !w.takeWhole(held) {
		return [sha256.Size]byte{}, false
	}
	defer giveWhole(held)
	out, free := wholeBuffer(int(size))
	defer free()
	if !w.inflateWhole(e, out) {
		return [sha256.Size]byte{}, false
	}
	return sha256.Sum256(out), true
}

// wholePool keeps buffers given back for later entries of like sizes (at
// most twice as large), up to wholePoolMax bytes: a buffer's pages cost a page fault each the first
// time they are written (on the development machine 65–250 ms of system
// time for 150 MB, more than inflating it), and providers lock inflates
// many packages of like sizes in turn.
var wholePool struct {
	sync.Mutex
	free  [][]byte
	bytes int
}

const wholePoolMax = wholeBudget

// wholeBuffer returns a buffer of n bytes, and the function that gives it
// back (after which it must not be used).
func wholeBuffer(n int) ([]byte, func()) {
	p := &wholePool
	p.Lock()
	best := -1
	for i, b := range p.free {
		if cap(b) >= n && cap(b) <= 2*n && (best < 0 || cap(b) < cap(p.free[best])) {
			best = i
		}
	}
	var b []byte
	if best >= 0 {
		b = p.free[best][:n]
		p.free = slices.Delete(p.free, best, best+1)
		p.bytes -= cap(b)
	}
	p.Unlock()
	if b == nil {
		// From the Go heap. Transparent huge pages (an mmap with
		// MADV_HUGEPAGE) cut the page faults from 290,000 to 54,000 in a
		// providers lock of 12 × 150 MB, but spent 2.4 s of system time
		// compacting memory against 0.9 s for the faults.
		b = make([]byte, n)
	}
	return b, func() {
		p.Lock()
		defer p.Unlock()
		if p.bytes+cap(b) <= wholePoolMax {
			p.free = append(p.free, b)
			p.bytes += cap(b)
		}
	}
}

// compressedBytes returns the bytes of section — a copy, unless the
// archive is in memory — and the function that frees them. (Mapping the archive instead would spare the copy, but a
// file mapped while another process truncates it — a filesystem mirror's
// archive, say — kills the reader with SIGBUS.)
func compressedBytes(section *io.SectionReader) ([]byte, func(), error) {
	if m, off, n := section.Outer(); off >= 0 && n >= 0 {
		if mem, ok := m.(memArchive); ok && off <= int64(len(mem)) && n <= int64(len(mem))-off {
			return mem[off : off+n : off+n], func() {}, nil // in memory already
		}
	}
	b, free := wholeBuffer(int(section.Size()))
	if _, err := section.ReadAt(b, 0); err != nil {
		free()
		return nil, nil, err
	}
	return b, free, nil
}

// checksumsMatch reports whether archive/zip's reader would accept an
// entry whose content has CRC-32 sum: the data descriptor's CRC-32 (when
// the entry has one) and the central directory's must equal it, the
// latter only when it is set if there is no descriptor.
func checksumsMatch(f *zip.File, data *io.SectionReader, sum uint32) bool {
	const hasDataDescriptor = 0x8
	if f.Flags&hasDataDescriptor == 0 {
		return f.CRC32 == 0 || f.CRC32 == sum
	}
	// The descriptor follows the data: an optional signature, then the
	// CRC-32 (the sizes after it are not checked, as archive/zip does not).
	r, off, n := data.Outer()
	var buf [16]byte
	got, _ := r.ReadAt(buf[:], off+n)
	crc, need := binary.LittleEndian.Uint32(buf[:4]), 12
	if crc == 0x08074b50 { // the descriptor's signature
		crc, need = binary.LittleEndian.Uint32(buf[4:8]), 16
	}
	if got < need {
		return false // archive/zip fails on a short descriptor
	}
	return crc == f.CRC32 && sum == f.CRC32
}
