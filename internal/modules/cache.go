package modules

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/gofrs/flock"
	"golang.org/x/mod/sumdb/dirhash"
)

// Cache is a module package cache shared by root modules and processes.
// Entries are keyed by the normalised package address with its resolved
// version; each is written in a temporary directory, hashed, and renamed
// into place under a file lock, and verified against its hash when used.
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

// Get returns the directory of the package with the key, calling fill to
// populate an empty directory when the cache lacks a verified copy.
func (c *Cache) Get(ctx context.Context, key string, fill func(dir string) error) (string, error) {
	sum := sha256.Sum256([]byte(key))
	name := hex.EncodeToString(sum[:16])
	base := filepath.Join(c.dir, "v1")
	entry := filepath.Join(base, name)
	if c.valid(entry, key) {
		return filepath.Join(entry, "pkg"), nil
	}
	if err := os.MkdirAll(base, 0o777); err != nil {
		return "", err
	}
	lock := flock.New(entry + ".lock")
	ok, err := lock.TryLockContext(ctx, 50*time.Millisecond)
	if err != nil || !ok {
		return "", fmt.Errorf("locking the module cache: %v", err)
	}
	defer lock.Unlock()
	if c.valid(entry, key) {
		return filepath.Join(entry, "pkg"), nil
	}
	tmp, err := os.MkdirTemp(base, "tmp-"+name+"-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	pkg := filepath.Join(tmp, "pkg")
	if err := fill(pkg); err != nil {
		return "", err
	}
	if !isDir(pkg) {
		return "", errors.New("module package is empty")
	}
	h, err := dirhash.HashDir(pkg, "", dirhash.Hash1)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, "h1"), []byte(h), 0o666); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, "key"), []byte(key), 0o666); err != nil {
		return "", err
	}
	os.RemoveAll(entry)
	if err := os.Rename(tmp, entry); err != nil {
		return "", err
	}
	c.fills.Add(1)
	return filepath.Join(entry, "pkg"), nil
}

// valid reports whether entry holds a complete copy for key whose files
// still hash as recorded.
func (c *Cache) valid(entry, key string) bool {
	k, err := os.ReadFile(filepath.Join(entry, "key"))
	if err != nil || string(k) != key {
		return false
	}
	want, err := os.ReadFile(filepath.Join(entry, "h1"))
	if err != nil {
		return false
	}
	got, err := dirhash.HashDir(filepath.Join(entry, "pkg"), "", dirhash.Hash1)
	return err == nil && got == string(want)
}
