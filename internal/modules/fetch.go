package modules

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	getter "github.com/hashicorp/go-getter"
)

// fetcher installs remote packages into module directories. It remembers,
// for the run, the directory of each package's first install and copies
// later installs of the same package from there without dot entries
// (modules.md §4.4). Packages fetched ahead of the walk (prefetch.go) are
// moved or copied into place instead of being fetched again.
type fetcher struct {
	getters map[string]getter.Getter
	pre     *prefetcher

	mu       sync.Mutex
	previous map[string]string
}

func newFetcher(o GetterOptions) *fetcher {
	return &fetcher{getters: getters(o), previous: map[string]string{}}
}

// ErrOCIUnsupported is the fetch error for oci:// packages.
var ErrOCIUnsupported = errors.New("tfdeps does not install modules from OCI registries (oci:// sources); use a registry, git or archive source instead")

// install puts remote package pkg into instPath.
func (f *fetcher) install(ctx context.Context, instPath, pkg string) error {
	return f.obtain(ctx, instPath, pkg, "", func(dst string) error { return f.get(ctx, pkg, dst) })
}

// obtain puts the package known as key into instPath: a copy of an
// earlier install in this run, else the prefetcher's (or the cache's)
// copy, else fill(instPath) itself, so that errors name the real path.
func (f *fetcher) obtain(ctx context.Context, instPath, key, cacheKey string, fill func(dst string) error) error {
	f.mu.Lock()
	prev, seen := f.previous[key]
	f.mu.Unlock()
	if seen {
		if err := os.Mkdir(instPath, 0o777); err != nil {
			return fmt.Errorf("failed to create directory %s: %w", instPath, err)
		}
		// A registry-hosted archive is downloaded again by OpenTofu each
		// time, so its later copies keep dot entries.
		skipDot := !strings.HasPrefix(key, "direct:")
		if err := copyTree(instPath, prev, skipDot); err != nil {
			return fmt.Errorf("failed to copy from %s to %s: %w", prev, instPath, err)
		}
		return nil
	}
	placed := false
	if f.pre != nil && stageable(key) {
		if st, err := f.pre.fetch(key, cacheKey, fill); err == nil {
			if placeStaged(st, instPath) == nil {
				placed = true
			} else {
				os.RemoveAll(instPath)
			}
		}
	}
	if !placed {
		if err := fill(instPath); err != nil {
			return err
		}
	}
	f.mu.Lock()
	f.previous[key] = instPath
	f.mu.Unlock()
	return nil
}

// stageable: file:// packages are symlinked or extracted in place, OCI
// is refused; everything else can be fetched ahead.
func stageable(key string) bool { return !isLocalFile(key) && !isOCI(key) }

// placeStaged copies a staged or cached package into place.
func placeStaged(s stagedPackage, instPath string) error {
	if err := os.MkdirAll(instPath, 0o777); err != nil {
		return err
	}
	return copyTree(instPath, s.dir, false)
}

// get runs go-getter for pkg into dst, without detection (the address is
// already normalised).
func (f *fetcher) get(ctx context.Context, pkg, dst string) error {
	if isOCI(pkg) {
		return ErrOCIUnsupported
	}
	c := getter.Client{
		Ctx:           ctx,
		Src:           pkg,
		Dst:           dst,
		Pwd:           dst,
		Mode:          getter.ClientModeDir,
		Detectors:     []getter.Detector{},
		Decompressors: decompressors(),
		Getters:       f.getters,
	}
	return c.Get()
}

func isOCI(pkg string) bool {
	return strings.HasPrefix(pkg, "oci://") || strings.HasPrefix(pkg, "oci::")
}

// isLocalFile reports whether pkg is fetched from the local file system
// (a file:// directory is symlinked, so it is never staged).
func isLocalFile(pkg string) bool {
	return strings.HasPrefix(pkg, "file://") || strings.HasPrefix(pkg, "file::")
}
