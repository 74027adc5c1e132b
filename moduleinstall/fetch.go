package moduleinstall

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	getter "github.com/hashicorp/go-getter"

	"github.com/tfdeps/tfdeps/flavour"
)

// fetcher installs remote packages into module directories. It remembers,
// for the run, the directory of each package's first install and copies
// later installs of the same package from there without dot entries
// (modules.md §4.4). Packages fetched ahead of the walk (prefetch.go) are
// moved or copied into place instead of being fetched again; without
// fetching ahead, packages still go through the shared cache.
type fetcher struct {
	// opts make each go-getter run's own getters: go-getter's Client
	// stores itself in every getter it uses, so getters must not be
	// shared by fetches running at the same time.
	opts    GetterOptions
	pre     *prefetcher
	cache   *Cache
	upgrade bool
	refs    gitRefs
	// ociUnknown makes oci:// an unknown scheme for go-getter (Terraform
	// has no OCI getter; OpenTofu has one).
	ociUnknown bool
	// events hears about each go-getter run (nil: no one).
	events *FetchEvents

	mu       sync.Mutex
	previous map[string]string
}

func newFetcher(o Options) *fetcher {
	return &fetcher{opts: o.Getters, cache: o.Cache, upgrade: o.Upgrade, ociUnknown: o.Flavour == flavour.Terraform, events: o.Fetches, previous: map[string]string{}}
}

// packageFetch says how to obtain one package.
type packageFetch struct {
	// key names the package for the run (fetcher.previous, prefetch jobs).
	key string
	// cacheKey names it in the shared cache ("": not cached); refresh
	// replaces the cached copy (an upgrade of a mutable key).
	cacheKey string
	refresh  bool
	// fill fetches the package into the empty directory dst.
	fill func(dst string) error
	// cacheFill, when set, replaces fill for the cache's entry.
	cacheFill func(dst string) error
}

// fillCache is the fill of the package's cache entry.
func (pf packageFetch) fillCache() func(dst string) error {
	if pf.cacheFill != nil {
		return pf.cacheFill
	}
	return pf.fill
}

// remotePackage is the packageFetch of remote package pkg.
func (f *fetcher) remotePackage(ctx context.Context, pkg string) packageFetch {
	pf := packageFetch{key: pkg, fill: func(dst string) error { return f.get(ctx, pkg, dst) }}
	if f.cache == nil || !f.stageable(pkg) {
		return pf
	}
	key, mutable := f.remoteCacheKey(ctx, pkg)
	pf.cacheKey, pf.refresh = key, mutable && f.upgrade
	if byDigest, ok := ociDigestAddress(key); ok {
		// A tag may have moved since it was resolved: fill the entry
		// from the digest the key names (errors are reported by fill,
		// from the address as written).
		pf.cacheFill = func(dst string) error { return f.fetch(ctx, pkg, byDigest, dst) }
	}
	if strings.HasPrefix(key, "git ") {
		// The ref may have moved since ls-remote: never cache a checkout
		// under another commit's key.
		want := key[strings.LastIndexByte(key, ' ')+1:]
		pf.fill = func(dst string) error {
			if err := f.get(ctx, pkg, dst); err != nil {
				return err
			}
			if head, err := gitHead(ctx, dst); err != nil || head != want {
				return fmt.Errorf("git checkout of %s is at %q, not the commit %s its ref named", pkg, head, want)
			}
			return nil
		}
	}
	return pf
}

// install puts remote package pkg into instPath.
func (f *fetcher) install(ctx context.Context, instPath, pkg string) error {
	return f.obtain(ctx, instPath, f.remotePackage(ctx, pkg))
}

// obtain puts the package pf into instPath: a copy of an earlier install
// in this run, else the prefetcher's (or the cache's) copy, else
// pf.fill(instPath) itself, so that errors name the real path.
func (f *fetcher) obtain(ctx context.Context, instPath string, pf packageFetch) error {
	if info, err := os.Lstat(instPath); err == nil && !info.IsDir() {
		// Something else is in the way (the directory of a recorded module
		// was replaced): OpenTofu hands it to go-getter as it is, which
		// fails on it ("mkdir …: not a directory", "failed to read the
		// destination directory … during git update") or, for a file://
		// directory's symlink, replaces it. So does tfdeps.
		return pf.fill(instPath)
	}
	f.mu.Lock()
	prev, seen := f.previous[pf.key]
	f.mu.Unlock()
	if seen {
		if err := os.Mkdir(instPath, 0o777); err != nil {
			return fmt.Errorf("failed to create directory %s: %w", instPath, err)
		}
		// A registry-hosted archive is downloaded again by OpenTofu each
		// time, so its later copies keep dot entries.
		skipDot := !strings.HasPrefix(pf.key, "direct:")
		if err := copyTree(instPath, prev, skipDot); err != nil {
			return fmt.Errorf("failed to copy from %s to %s: %w", prev, instPath, err)
		}
		return nil
	}
	var err error
	switch {
	case !f.stageable(pf.key):
		err = errors.New("not staged")
	case f.pre != nil:
		err = f.pre.place(pf, instPath)
	case f.cache != nil && pf.cacheKey != "":
		var e Entry
		if e, err = f.cache.Get(ctx, pf.cacheKey, pf.refresh, pf.fillCache()); err == nil {
			err = e.CopyTo(instPath)
		}
	default:
		err = errors.New("not staged")
	}
	if err != nil {
		os.RemoveAll(instPath)
		if err := pf.fill(instPath); err != nil {
			return err
		}
	}
	f.mu.Lock()
	f.previous[pf.key] = instPath
	f.mu.Unlock()
	return nil
}

// stageable: file:// packages are symlinked or extracted in place, and
// oci:// fails at once where it is unknown (Terraform); everything else
// can be fetched ahead.
func (f *fetcher) stageable(key string) bool {
	return !isLocalFile(key) && !(f.ociUnknown && isOCI(key))
}

// copyInto copies a staged or cached package into place, keeping its dot
// entries (a first install, such as git's .git).
func copyInto(instPath, dir string) error {
	if err := os.MkdirAll(instPath, 0o777); err != nil {
		return err
	}
	return copyTree(instPath, dir, false)
}

// get runs go-getter for pkg into dst, without detection (the address is
// already normalised).
func (f *fetcher) get(ctx context.Context, pkg, dst string) error {
	return f.fetch(ctx, pkg, pkg, dst)
}

// fetch runs go-getter for src into dst, reporting it as the fetch of
// package pkg.
func (f *fetcher) fetch(ctx context.Context, pkg, src, dst string) error {
	c := getter.Client{
		Ctx:           ctx,
		Src:           src,
		Dst:           dst,
		Pwd:           dst,
		Mode:          getter.ClientModeDir,
		Detectors:     []getter.Detector{},
		Decompressors: decompressors(),
		Getters:       getters(f.opts, !f.ociUnknown),
	}
	return f.events.around(pkg, func(progress getter.ProgressTracker) error {
		c.ProgressListener = progress
		return c.Get()
	})
}

func isOCI(pkg string) bool {
	return strings.HasPrefix(pkg, "oci://") || strings.HasPrefix(pkg, "oci::")
}

// isLocalFile reports whether pkg is fetched from the local file system
// (a file:// directory is symlinked, so it is never staged).
func isLocalFile(pkg string) bool {
	return strings.HasPrefix(pkg, "file://") || strings.HasPrefix(pkg, "file::")
}
