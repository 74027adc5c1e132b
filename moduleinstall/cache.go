package moduleinstall

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync/atomic"
	"time"

	"github.com/gofrs/flock"
	"golang.org/x/mod/sumdb/dirhash"
)

// Cache is a module package cache shared by root modules and processes.
// Entries are keyed by the normalised package address with what pins its
// content (cachekey.go): a registry package by module, version and
// location; a git package by its address and the commit its ref resolves
// to; an http(s) package by its address, or by its checksum parameter.
// Each is written in a temporary directory, hashed, and renamed into
// place under a file lock, and verified against its hash when used.
//
// Layout: DIR/v1/HASH/{pkg/,key,h1} and the lock DIR/v1/HASH.lock.
type Cache struct {
	dir   string
	fills atomic.Int64
}

// Fills counts the packages this Cache fetched (for tests and benchmarks).
func (c *Cache) Fills() int { return int(c.fills.Load()) }

// OpenCache returns the cache in dir (created on first use).
func OpenCache(dir string) *Cache { return &Cache{dir: dir} }

// Dir is the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// Entry is a package in the cache.
type Entry struct {
	// Dir holds the package's files; read it, never write it.
	Dir   string
	entry string
	h1    string
	// fresh: filled and hashed by this call, so not verified again.
	fresh bool
}

// ErrCorrupt: a cache entry's files no longer hash as recorded (the entry
// is removed).
var ErrCorrupt = errors.New("module cache entry does not match its recorded hash")

// Get returns the entry of the package with the key, calling fill to
// populate an empty directory when the cache lacks a complete copy, or
// always with refresh (an upgrade of a package whose address does not pin
// its content). An entry found is verified when it is copied out
// (CopyTo).
func (c *Cache) Get(ctx context.Context, key string, refresh bool, fill func(dir string) error) (Entry, error) {
	sum := sha256.Sum256([]byte(key))
	name := hex.EncodeToString(sum[:16])
	base := filepath.Join(c.dir, "v1")
	entry := filepath.Join(base, name)
	if e, ok := c.lookup(entry, key); ok && !refresh {
		return e, nil
	}
	if err := os.MkdirAll(base, 0o777); err != nil {
		return Entry{}, err
	}
	lock := flock.New(entry + ".lock")
	ok, err := lock.TryLockContext(ctx, 10*time.Millisecond)
	if err != nil || !ok {
		return Entry{}, fmt.Errorf("locking the module cache: %v", err)
	}
	defer lock.Unlock()
	if e, ok := c.lookup(entry, key); ok && !refresh {
		return e, nil
	}
	return c.fill(base, entry, name, key, fill)
}

// fill fills the entry in a temporary directory and renames it into
// place (with the lock held).
func (c *Cache) fill(base, entry, name, key string, fill func(dir string) error) (Entry, error) {
	tmp, err := os.MkdirTemp(base, "tmp-"+name+"-")
	if err != nil {
		return Entry{}, err
	}
	defer os.RemoveAll(tmp)
	pkg := filepath.Join(tmp, "pkg")
	if err := fill(pkg); err != nil {
		return Entry{}, err
	}
	if !isDir(pkg) {
		return Entry{}, errors.New("module package is empty")
	}
	h, err := dirhash.HashDir(pkg, "", dirhash.Hash1)
	if err != nil {
		return Entry{}, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "h1"), []byte(h), 0o666); err != nil {
		return Entry{}, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "key"), []byte(key), 0o666); err != nil {
		return Entry{}, err
	}
	os.RemoveAll(entry)
	if err := os.Rename(tmp, entry); err != nil {
		return Entry{}, err
	}
	c.fills.Add(1)
	return Entry{Dir: filepath.Join(entry, "pkg"), entry: entry, h1: h, fresh: true}, nil
}

// lookup returns the complete entry for key, if there is one: its key
// and hash files are written before the rename that publishes it.
func (c *Cache) lookup(entry, key string) (Entry, bool) {
	k, err := os.ReadFile(filepath.Join(entry, "key"))
	if err != nil || string(k) != key {
		return Entry{}, false
	}
	h, err := os.ReadFile(filepath.Join(entry, "h1"))
	if err != nil || !isDir(filepath.Join(entry, "pkg")) {
		return Entry{}, false
	}
	return Entry{Dir: filepath.Join(entry, "pkg"), entry: entry, h1: string(h)}, true
}

// CopyTo copies the package into dst (created if missing), dot entries
// included, hashing what it reads: when the files no longer match the
// recorded hash the entry is removed and the error is ErrCorrupt (dst is
// then incomplete; the caller removes it).
func (e Entry) CopyTo(dst string) error {
	if err := os.MkdirAll(dst, 0o777); err != nil {
		return err
	}
	if e.fresh {
		return copyTree(dst, e.Dir, false)
	}
	sums := map[string][]byte{}
	err := copyTreeHashing(dst, e.Dir, false, func(rel string, sum []byte) { sums[rel] = sum })
	if err != nil {
		return err
	}
	if hashSums(sums) != e.h1 {
		os.RemoveAll(e.entry)
		return ErrCorrupt
	}
	return nil
}

// hashSums is dirhash.Hash1 from the SHA-256 of each file.
func hashSums(sums map[string][]byte) string {
	names := make([]string, 0, len(sums))
	for n := range sums {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%x  %s\n", sums[n], n)
	}
	return "h1:" + base64.StdEncoding.EncodeToString(h.Sum(nil))
}
