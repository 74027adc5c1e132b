package fleet

import (
	"io"
	"sync"
)

// Output is what a root's function wrote to its stdout and stderr, in the
// order it was written, held until the root's turn comes.
type Output struct {
	mu     sync.Mutex
	chunks []chunk
}

type chunk struct {
	stderr bool
	data   []byte
}

// stream is one of a root's two writers.
type stream struct {
	out    *Output
	stderr bool
}

// Write appends p to the root's output; it may be called from several
// goroutines.
func (s stream) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	o := s.out
	o.mu.Lock()
	defer o.mu.Unlock()
	// Consecutive writes to the same stream are kept as one chunk.
	if n := len(o.chunks); n > 0 && o.chunks[n-1].stderr == s.stderr {
		o.chunks[n-1].data = append(o.chunks[n-1].data, p...)
	} else {
		o.chunks = append(o.chunks, chunk{stderr: s.stderr, data: append([]byte(nil), p...)})
	}
	return len(p), nil
}

// WriteTo replays the output: what went to stdout is written to stdout,
// what went to stderr to stderr, in the order the root wrote them.
func (o *Output) WriteTo(stdout, stderr io.Writer) error {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, c := range o.chunks {
		w := stdout
		if c.stderr {
			w = stderr
		}
		if w == nil {
			continue
		}
		if _, err := w.Write(c.data); err != nil {
			return err
		}
	}
	return nil
}

// Bytes returns what went to stdout (stderr false) or to stderr (true).
func (o *Output) Bytes(stderr bool) []byte {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	var b []byte
	for _, c := range o.chunks {
		if c.stderr == stderr {
			b = append(b, c.data...)
		}
	}
	return b
}
