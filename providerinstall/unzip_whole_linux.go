package providerinstall

import (
	"crypto/sha256"
	"os"
	"syscall"
)

// writeWhole writes a large entry inflated whole to out, an empty file
// just created, and returns its SHA-256 (zero when w.noHash); done is false
// when it was not done and out is still empty (the caller streams).
//
// The file is given its size with fallocate (so that no write into the
// mapping can fail for want of space: that would kill the process with
// SIGBUS) and mapped, and the entry inflated straight into it: on the
// development machine, inflating 3 × 150 MB into a buffer and writing it
// took 1.1–1.4 CPU-s, into the mapped files 0.6–0.7.
func (w *entryWriter) writeWhole(out *os.File, e plannedEntry) (digest [sha256.Size]byte, done bool, err error) {
	size := int64(e.file.UncompressedSize64)
	held := int64(e.file.CompressedSize64) // the output is the file
	if !w.wholeCandidate(e) || !w.takeWhole(held) {
		return digest, false, nil
	}
	defer giveWhole(held)
	fd := int(out.Fd())
	if syscall.Fallocate(fd, 0, 0, size) != nil {
		return digest, false, out.Truncate(0)
	}
	m, err := syscall.Mmap(fd, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return digest, false, out.Truncate(0)
	}
	ok := w.inflateWhole(e, m)
	if ok && !w.noHash {
		digest = sha256.Sum256(m)
	}
	if err := syscall.Munmap(m); err != nil {
		return digest, false, err
	}
	if !ok {
		return digest, false, out.Truncate(0)
	}
	return digest, true, nil
}
