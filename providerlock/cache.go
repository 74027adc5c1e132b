package providerlock

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gofrs/flock"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/versions"
)

// HashCacheEnv names the environment variable that overrides the hash
// cache directory.
const HashCacheEnv = "TFDEPS_HASH_CACHE_DIR"

// HashCache is a persistent store of locally verified package hashes, one
// small JSON file per provider, version and platform:
// DIR/v1/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH.json. Entries are written
// atomically (temporary file and rename) under an exclusive file lock on a
// ".lock" sidecar, so concurrent tfdeps processes can share the directory.
//
// An entry is only ever written after the package's bytes were downloaded,
// authenticated by their source and extracted; a reader still checks it
// against what the source reports before using it (see Locker).
type HashCache struct {
	dir string
}

// CacheEntry is what the cache knows about one package.
type CacheEntry struct {
	// ZH is the "zh:" hash of the archive.
	ZH hashes.Hash `json:"zh"`
	// H1 is the "h1:" hash of the extracted package directory.
	H1 hashes.Hash `json:"h1"`
	// ZipH1 is the "h1:" hash computed from the archive itself, which
	// network mirrors are checked with; empty when not computed.
	ZipH1 hashes.Hash `json:"zip_h1,omitempty"`
	// Size is the archive's size in bytes.
	Size int64 `json:"size"`
}

// NewHashCache returns the cache rooted at dir.
func NewHashCache(dir string) *HashCache { return &HashCache{dir: dir} }

// DefaultHashCacheDir is TFDEPS_HASH_CACHE_DIR when set, else "tfdeps/hashes"
// under the user cache directory (userCacheDir is os.UserCacheDir,
// injected). It returns "" when neither is available.
func DefaultHashCacheDir(getenv func(string) string, userCacheDir func() (string, error)) string {
	if d := getenv(HashCacheEnv); d != "" {
		return d
	}
	base, err := userCacheDir()
	if err != nil || base == "" {
		return ""
	}
	return filepath.Join(base, "tfdeps", "hashes")
}

// Dir returns the cache's root directory.
func (c *HashCache) Dir() string { return c.dir }

func (c *HashCache) path(p addrs.Provider, v versions.Version, pl addrs.Platform) string {
	return filepath.Join(c.dir, "v1", addrs.HostnameForDisplay(p.Hostname), p.Namespace, p.Type, v.String(), pl.String()+".json")
}

// Get returns the entry for a package, or nil when there is none or it
// cannot be read or is malformed (a broken entry is a miss, never an error).
func (c *HashCache) Get(p addrs.Provider, v versions.Version, pl addrs.Platform) *CacheEntry {
	if c == nil {
		return nil
	}
	src, err := os.ReadFile(c.path(p, v, pl))
	if err != nil {
		return nil
	}
	var e CacheEntry
	if json.Unmarshal(src, &e) != nil || !e.valid() {
		return nil
	}
	return &e
}

func (e *CacheEntry) valid() bool {
	if e.Size <= 0 || e.ZH.Scheme() != hashes.SchemeZip || e.H1.Scheme() != hashes.SchemeH1 {
		return false
	}
	return e.ZipH1 == "" || e.ZipH1.Scheme() == hashes.SchemeH1
}

// Put stores the entry for a package, replacing any earlier one.
func (c *HashCache) Put(p addrs.Provider, v versions.Version, pl addrs.Platform, e CacheEntry) error {
	if c == nil {
		return nil
	}
	if !e.valid() {
		return errors.New("refusing to cache an incomplete hash entry")
	}
	path := c.path(p, v, pl)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	lock := flock.New(path + ".lock")
	if err := lock.Lock(); err != nil {
		return fmt.Errorf("locking hash cache entry: %w", err)
	}
	defer lock.Unlock()
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(data, '\n'))
}

// writeFileAtomic writes data to a temporary file beside path and renames
// it over path, mode 0644.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
