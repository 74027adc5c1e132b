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

// install puts package pkg into instPath.
func (f *fetcher) install(ctx context.Context, instPath, pkg string) error {
	f.mu.Lock()
	prev, seen := f.previous[pkg]
	f.mu.Unlock()
	if seen {
		if err := os.Mkdir(instPath, 0o777); err != nil {
			return fmt.Errorf("failed to create directory %s: %w", instPath, err)
		}
		if err := copyTree(instPath, prev, true); err != nil {
			return fmt.Errorf("failed to copy from %s to %s: %w", prev, instPath, err)
		}
		return nil
	}
	if err := f.installFirst(ctx, instPath, pkg); err != nil {
		return err
	}
	f.mu.Lock()
	f.previous[pkg] = instPath
	f.mu.Unlock()
	return nil
}

func (f *fetcher) installFirst(ctx context.Context, instPath, pkg string) error {
	if f.pre != nil {
		if staged, ok := f.pre.staged(ctx, pkg); ok {
			if err := placeStaged(staged, instPath); err == nil {
				return nil
			}
			os.RemoveAll(instPath)
		}
	}
	return f.get(ctx, pkg, instPath)
}

// placeStaged moves a staged package into place, or copies it when it is
// shared (the persistent cache) or on another file system.
func placeStaged(s stagedPackage, instPath string) error {
	if !s.shared && os.Rename(s.dir, instPath) == nil {
		return nil
	}
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

// installDirect puts a registry-hosted archive into instPath.
func (f *fetcher) installDirect(ctx context.Context, reg Registry, loc Location, instPath string) error {
	key := "direct:" + loc.Package
	f.mu.Lock()
	_, seen := f.previous[key]
	f.mu.Unlock()
	if seen {
		return f.install(ctx, instPath, key)
	}
	if s, ok := f.pre.staged(ctx, key); ok && placeStaged(s, instPath) == nil {
	} else if err := reg.DownloadDirect(ctx, loc, instPath); err != nil {
		return err
	}
	f.mu.Lock()
	f.previous[key] = instPath
	f.mu.Unlock()
	return nil
}
