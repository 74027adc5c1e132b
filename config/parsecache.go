package config

import (
	"crypto/sha256"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
)

// ParseCache keeps parsed configuration files so that loads sharing it
// parse each distinct file once: many root modules of one repository
// calling the same modules, loaded in one process. A file is the same
// when its name as given and its content are: the name is part of every
// source range and diagnostic, so a file reached under another name
// (another relative path) is parsed again, and the diagnostics a load
// reports are those it would report without the cache. Only syntax trees
// are kept, which decoding reads but never changes; decoding, which
// builds the values each module owns and changes while merging and
// evaluating, is done by each load.
//
// It is safe for concurrent use: loads asking for a file being parsed wait
// for that parse. It is bounded: once the source bytes of the files kept
// exceed its limit, the oldest are let go.
type ParseCache struct {
	max    int64
	parses atomic.Int64

	mu      sync.Mutex
	entries map[parseKey]*parseEntry
	order   []parseKey // oldest first
	bytes   int64
}

type parseKey struct {
	name string
	sum  [sha256.Size]byte
}

type parseEntry struct {
	ready chan struct{}
	file  *hcl.File
	diags hcl.Diagnostics
	size  int64
	// panicked is what parsing panicked with: every load waiting for the
	// file panics the same way (and reports it as its own diagnostic).
	panicked any
}

// DefaultParseCacheBytes is NewParseCache's limit for 0: the source bytes
// of the files kept (their syntax trees take several times as much).
const DefaultParseCacheBytes = 64 << 20

// NewParseCache returns an empty cache keeping files up to maxBytes of
// source in all (0: DefaultParseCacheBytes).
func NewParseCache(maxBytes int64) *ParseCache {
	if maxBytes <= 0 {
		maxBytes = DefaultParseCacheBytes
	}
	return &ParseCache{max: maxBytes, entries: map[parseKey]*parseEntry{}}
}

// WithParseCache parses files through c (see ParseCache).
func WithParseCache(c *ParseCache) Option { return func(o *options) { o.parseCache = c } }

// Parses counts the files c parsed (the loads' misses).
func (c *ParseCache) Parses() int { return int(c.parses.Load()) }

// parse is parseFile through the cache (without one when c is nil). The
// diagnostics returned are the caller's own copies: loaders append to
// them and mark them.
func (c *ParseCache) parse(name string, src []byte) (*hcl.File, hcl.Diagnostics) {
	if c == nil || int64(len(src)) > c.max {
		c.count()
		return parseFile(name, src)
	}
	key := parseKey{name: name, sum: sha256.Sum256(src)}
	c.mu.Lock()
	e, found := c.entries[key]
	if !found {
		e = &parseEntry{ready: make(chan struct{}), size: int64(len(src))}
		c.entries[key] = e
	}
	c.mu.Unlock()
	if !found {
		c.fill(key, e, name, src)
	}
	<-e.ready
	if e.panicked != nil {
		panic(e.panicked)
	}
	return e.file, copyDiagnostics(e.diags)
}

// fill parses the file of a new entry.
func (c *ParseCache) fill(key parseKey, e *parseEntry, name string, src []byte) {
	defer close(e.ready)
	defer func() {
		if r := recover(); r != nil {
			e.panicked = r
			c.forget(key)
		}
	}()
	c.count()
	e.file, e.diags = parseFile(name, src)
	c.keep(key, e.size)
}

func (c *ParseCache) count() {
	if c != nil {
		c.parses.Add(1)
	}
}

// keep records a new entry's size, letting the oldest go while the cache
// is over its limit.
func (c *ParseCache) keep(key parseKey, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries[key] == nil {
		return
	}
	c.order = append(c.order, key)
	c.bytes += size
	for c.bytes > c.max && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		if e := c.entries[old]; e != nil {
			c.bytes -= e.size
			delete(c.entries, old)
		}
	}
}

func (c *ParseCache) forget(key parseKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, key)
}

// copyDiagnostics copies the diagnostics themselves, not only the slice:
// the Terraform flavour rewrites syntax diagnostics in place.
func copyDiagnostics(diags hcl.Diagnostics) hcl.Diagnostics {
	if diags == nil {
		return nil
	}
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		c := *d
		out[i] = &c
	}
	return out
}
