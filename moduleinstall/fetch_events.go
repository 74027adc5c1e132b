package moduleinstall

import (
	"io"

	getter "github.com/hashicorp/go-getter"
)

// FetchEvents hears about remote package fetches as they happen, for a
// live display. Unlike Events, its calls come from the goroutines that
// fetch (several at once, fetches ahead of the walk included), in no
// fixed order; a package fetched twice (once ahead, once by the walk
// after a failure) is reported twice. Every field is optional.
type FetchEvents struct {
	// Started: go-getter starts fetching package pkg.
	Started func(pkg string)
	// Bytes: done of total bytes of pkg's current file are in (total <= 0:
	// unknown). Only the getters that stream files report them (http(s)
	// archives, S3).
	Bytes func(pkg string, done, total int64)
	// Finished: the fetch of pkg ended, err telling how.
	Finished func(pkg string, err error)
}

// around reports the fetch of pkg: its start, the bytes through the
// progress listener fetch gets (nil when no one listens to bytes, or
// fetch cannot report them), its end.
func (e *FetchEvents) around(pkg string, fetch func(getter.ProgressTracker) error) error {
	err := fetch(e.started(pkg))
	e.finished(pkg, err)
	return err
}

func (e *FetchEvents) started(pkg string) getter.ProgressTracker {
	if e == nil {
		return nil
	}
	if e.Started != nil {
		e.Started(pkg)
	}
	if e.Bytes == nil {
		return nil
	}
	return byteCounter{pkg: pkg, report: e.Bytes}
}

func (e *FetchEvents) finished(pkg string, err error) {
	if e != nil && e.Finished != nil {
		e.Finished(pkg, err)
	}
}

// byteCounter is a go-getter ProgressTracker that reports the bytes read
// from each stream.
type byteCounter struct {
	pkg    string
	report func(pkg string, done, total int64)
}

func (c byteCounter) TrackProgress(_ string, current, total int64, stream io.ReadCloser) io.ReadCloser {
	r := &countingReader{ReadCloser: stream, c: c, total: total, done: current}
	c.report(c.pkg, current, total)
	return r
}

type countingReader struct {
	io.ReadCloser
	c     byteCounter
	total int64
	done  int64
}

func (r *countingReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	if n > 0 {
		r.done += int64(n)
		r.c.report(r.c.pkg, r.done, r.total)
	}
	return n, err
}
