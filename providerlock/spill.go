package providerlock

import (
	"errors"
	"io"
	"os"
	"sync"
)

// Archives downloaded only to be hashed are kept in memory, within a
// budget shared by the packages handled at once, rather than written to
// disk and read back: on the benchmark machine writing the archives cost
// about an eighth of providers lock's CPU time. What does not fit goes on
// to a temporary file.

// DefaultMemoryBudget is the default total size of the archives held in
// memory at once.
const DefaultMemoryBudget = 512 << 20

// spillChunk is the unit in which memory is taken from the budget.
const spillChunk = 1 << 20

// memoryBudget is a number of bytes shared between spill buffers, handed
// out in chunks of spillChunk bytes. Chunks given back are kept for reuse,
// so that the memory held stays near the largest amount in use at once
// rather than growing with the garbage of earlier packages.
type memoryBudget struct {
	mu   sync.Mutex
	left int64
	free [][]byte
}

func newMemoryBudget(n int64) *memoryBudget { return &memoryBudget{left: n} }

// take returns an empty chunk, or nil when the budget is spent.
func (b *memoryBudget) take() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.left < spillChunk {
		return nil
	}
	b.left -= spillChunk
	if n := len(b.free); n > 0 {
		c := b.free[n-1]
		b.free = b.free[:n-1]
		return c[:0]
	}
	return make([]byte, 0, spillChunk)
}

// give returns chunks taken.
func (b *memoryBudget) give(chunks [][]byte) {
	b.mu.Lock()
	b.left += int64(len(chunks)) * spillChunk
	b.free = append(b.free, chunks...)
	b.mu.Unlock()
}

// spillBuffer is written once, then read at random (io.ReaderAt): in
// memory while the budget allows, in a temporary file in dir from the
// first byte that does not fit. Close releases both.
type spillBuffer struct {
	budget *memoryBudget
	dir    string
	chunks [][]byte // each spillChunk long but the last
	size   int64
	file   *os.File
}

func newSpillBuffer(b *memoryBudget, dir string) *spillBuffer {
	return &spillBuffer{budget: b, dir: dir}
}

func (s *spillBuffer) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		if s.file != nil {
			n, err := s.file.Write(p)
			written += n
			s.size += int64(n)
			return written, err
		}
		last := len(s.chunks) - 1
		if last < 0 || len(s.chunks[last]) == spillChunk {
			c := s.budget.take()
			if c == nil {
				if err := s.spill(); err != nil {
					return written, err
				}
				continue
			}
			s.chunks = append(s.chunks, c)
			last++
		}
		n := min(len(p), spillChunk-len(s.chunks[last]))
		s.chunks[last] = append(s.chunks[last], p[:n]...)
		s.size += int64(n)
		written += n
		p = p[n:]
	}
	return written, nil
}

// spill moves what is in memory to a new temporary file, which receives
// the rest.
func (s *spillBuffer) spill() error {
	f, err := os.CreateTemp(s.dir, "tfdeps-provider-*.zip")
	if err != nil {
		return err
	}
	for _, c := range s.chunks {
		if _, err := f.Write(c); err != nil {
			f.Close()
			os.Remove(f.Name())
			return err
		}
	}
	s.release()
	s.file = f
	return nil
}

func (s *spillBuffer) release() {
	s.budget.give(s.chunks)
	s.chunks = nil
}

// Size is the number of bytes written.
func (s *spillBuffer) Size() int64 { return s.size }

// ReadAt reads what was written.
func (s *spillBuffer) ReadAt(p []byte, off int64) (int, error) {
	if s.file != nil {
		return s.file.ReadAt(p, off)
	}
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	n := 0
	for len(p) > 0 && off < s.size {
		c := s.chunks[off/spillChunk]
		m := copy(p, c[off%spillChunk:])
		n += m
		off += int64(m)
		p = p[m:]
	}
	if len(p) > 0 {
		return n, io.EOF
	}
	return n, nil
}

// Close frees the memory and removes the temporary file, if any.
func (s *spillBuffer) Close() error {
	s.release()
	if s.file == nil {
		return nil
	}
	name := s.file.Name()
	err := s.file.Close()
	if rmErr := os.Remove(name); err == nil {
		err = rmErr
	}
	s.file = nil
	return err
}
