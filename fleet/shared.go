package fleet

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/moduleinstall"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/providersource"
)

// SharedOptions configure the work a run shares.
type SharedOptions struct {
	// Providers is the source of provider packages every root uses (built
	// once from the CLI configuration); nil leaves Shared.Providers nil.
	Providers providersource.Source
	// Downloader fetches packages served over HTTP (the registry client);
	// nil leaves Shared.Downloader nil.
	Downloader providerinstall.Downloader
	// TempDir is where the run's directory is made ("": chosen with Near).
	TempDir string
	// Near is the directory the roots are under. Without TempDir, the run's
	// directory is made in the first of os.TempDir() and the user cache
	// directory's "tfdeps" that is on Near's file system, so that the
	// extracted provider packages can be hard-linked into the roots rather
	// than copied; on neither, in os.TempDir().
	Near string
	// ModuleCacheDir is the module package cache to share ("": one of the
	// run's own, removed by Close).
	ModuleCacheDir string
	// ModuleRegistry answers module registry sources; nil leaves
	// Shared.ModuleRegistry nil.
	ModuleRegistry moduleinstall.Registry
	// DownloadBytes bounds the provider archives kept for the run (0: no
	// bound; past it, packages are downloaded per root).
	DownloadBytes int64
	// ParseBytes bounds the source bytes of the parsed files kept (0:
	// config.DefaultParseCacheBytes).
	ParseBytes int64
}

// Shared is the work one run shares between its roots; pass its parts to
// every root's initialisation, and Close it when the run is over.
type Shared struct {
	// Providers asks the source once per run for each provider's versions
	// and each package's metadata (nil without SharedOptions.Providers).
	Providers *providersource.Memoize
	// Downloader downloads each provider package once per run; every root
	// still authenticates and hashes its own copy, so its lock file is
	// the one a single init writes (nil without SharedOptions.Downloader).
	Downloader *providerinstall.SharedDownloader
	// Packages extracts each provider package once per run and links its
	// files into each root's providers directory (nil without
	// SharedOptions.Downloader).
	Packages *providerinstall.SharedPackages
	// ModuleRegistry asks the module registry once per run for each
	// package's versions and each version's location (nil without
	// SharedOptions.ModuleRegistry).
	ModuleRegistry *moduleinstall.SharedRegistry
	// Modules is the module package cache: each package is fetched once
	// per run, then copied into each root's .terraform/modules.
	Modules *moduleinstall.Cache
	// Parses parses each distinct configuration file once per run (pass
	// config.WithParseCache(Parses) with each root's loader options).
	Parses *config.ParseCache

	dir string
}

// NewShared makes a run's shared work, in a new directory of its own.
func NewShared(opts SharedOptions) (*Shared, error) {
	dir, err := os.MkdirTemp(runParent(opts), "tfdeps-fleet-")
	if err != nil {
		return nil, err
	}
	s := &Shared{dir: dir, Parses: config.NewParseCache(opts.ParseBytes)}
	if opts.Providers != nil {
		s.Providers = providersource.NewMemoize(opts.Providers)
	}
	if opts.Downloader != nil {
		downloads := filepath.Join(dir, "providers")
		if err := os.Mkdir(downloads, 0o700); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		s.Downloader = providerinstall.NewSharedDownloader(opts.Downloader, downloads)
		s.Downloader.MaxBytes = opts.DownloadBytes
		extracted := filepath.Join(dir, "packages")
		if err := os.Mkdir(extracted, 0o700); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		s.Packages = providerinstall.NewSharedPackages(extracted)
	}
	if opts.ModuleRegistry != nil {
		s.ModuleRegistry = moduleinstall.NewSharedRegistry(opts.ModuleRegistry)
	}
	cacheDir := opts.ModuleCacheDir
	if cacheDir == "" {
		cacheDir = filepath.Join(dir, "modules")
	}
	s.Modules = moduleinstall.OpenCache(cacheDir)
	return s, nil
}

// Close removes the run's directory (its downloads, its extracted
// packages, and its module cache when it had one of its own), then writes
// again the hash memos of the packages linked into the roots
// (providerinstall.SharedPackages.Restamp), so that the next run finds
// them current.
func (s *Shared) Close() error {
	var errs []error
	if s.Downloader != nil {
		errs = append(errs, s.Downloader.Close())
	}
	// Removing the run's package store unlinks the files the roots share,
	// which changes their change time once more; only then are the links
	// final and the roots' memos worth writing.
	errs = append(errs, os.RemoveAll(s.dir))
	if s.Packages != nil {
		s.Packages.Restamp()
	}
	return errors.Join(errs...)
}

// runParent returns the directory to make the run's directory in.
func runParent(opts SharedOptions) string {
	if opts.TempDir != "" || opts.Near == "" {
		return opts.TempDir
	}
	near, ok := device(opts.Near)
	if !ok {
		return ""
	}
	candidates := []string{os.TempDir()}
	if cache, err := os.UserCacheDir(); err == nil {
		candidates = append(candidates, filepath.Join(cache, "tfdeps"))
	}
	for _, dir := range candidates {
		if os.MkdirAll(dir, 0o755) != nil {
			continue
		}
		if d, ok := device(dir); ok && d == near {
			return dir
		}
	}
	return ""
}
