// Package installer installs provider packages the way `tofu init` does.
//
// This part of the package owns the package files on disk:
//
//   - Dir: a directory of unpacked packages — the working directory's
//     TF_DATA_DIR/providers (default .terraform/providers) or the shared
//     plugin cache — laid out as BASE/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH
//     with HOST in Unicode display form (port kept) and VERSION canonical,
//     exactly as OpenTofu writes and reads it, so that tofu and tfdeps can
//     use each other's directories. Dir lists and looks up installed
//     packages (Installed), whose "h1:" hash is computed lazily, once,
//     and remembered across runs in a memo with a fingerprint of every
//     file, kept in tfdeps's own state directory (Installer.MemoDir), not
//     beside the package, so an unchanged package is not read again
//     (layout_memo.go).
//   - Extract and ExtractFile: safe unzipping of a package archive, with
//     the "h1:" hash computed while the files are written.
//   - Link: installing an unpacked package (filesystem mirror or plugin
//     cache) into another Dir by an absolute symlink, or by a copy where
//     symlinks cannot be made.
//   - Dir.Lock and Dir.Fill: the per-package sidecar lock file
//     (OS_ARCH.lock) that serialises installs of one package across
//     goroutines and processes, tofu's included. In the Terraform flavour
//     the lock files live in a directory of tfdeps' own (Dir.WithLocksIn,
//     layout_terraform.go), as Terraform leaves none beside packages.
//
// Every package directory is built in a staging directory next to it and
// renamed into place when complete, so a crash or an interrupt never leaves
// a partial package that a later run would trust.
//
// This part does not choose versions, download, authenticate, compare
// against the lock file or print anything; the init orchestrator does,
// calling these pieces in the order of OpenTofu's algorithm.
package providerinstall

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// DefaultDataDir is the working directory's data directory when
// TF_DATA_DIR is not set.
const DefaultDataDir = ".terraform"

// Dir is a directory of unpacked provider packages: a working directory's
// providers directory or a plugin cache. The zero value is not usable.
type Dir struct {
	base string
	// locks, when set, is the directory holding the package lock files
	// instead of OS_ARCH.lock beside each package (WithLocksIn).
	locks string
}

// NewDir returns the package directory tree rooted at base. base is used
// as given (relative paths stay relative), cleaned.
func NewDir(base string) Dir {
	return Dir{base: filepath.Clean(base)}
}

// ProvidersDir returns the providers directory of a data directory:
// dataDir/providers, with dataDir DefaultDataDir when empty. dataDir is the
// value of TF_DATA_DIR, relative to the working directory.
func ProvidersDir(dataDir string) Dir {
	if dataDir == "" {
		dataDir = DefaultDataDir
	}
	return NewDir(filepath.Join(dataDir, "providers"))
}

// Base returns the root of the tree, cleaned. It is the path named in the
// "Waiting for lock on cache directory" line.
func (d Dir) Base() string { return d.base }

// PackageDir returns BASE/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH for a
// package.
func (d Dir) PackageDir(p addrs.Provider, v versions.Version, pl addrs.Platform) string {
	return filepath.Join(d.versionDir(p, v), pl.String())
}

// LockFile returns the path of a package's lock sidecar,
// BASE/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH.lock, or, for a Dir made by
// WithLocksIn, LOCKS/DIGEST.lock with DIGEST naming the package directory's
// absolute path.
func (d Dir) LockFile(p addrs.Provider, v versions.Version, pl addrs.Platform) string {
	if d.locks != "" {
		return filepath.Join(d.locks, packageLockName(d.PackageDir(p, v, pl)))
	}
	return filepath.Join(d.versionDir(p, v), pl.String()+".lock")
}

// WithLocksIn returns d with its package lock files kept in locks (an
// absolute directory of tfdeps' own, created on first use) instead of
// beside the packages: Terraform's layout, which has no lock files, for
// the Terraform flavour. Processes that lock the same package through the
// same locks directory still exclude each other.
func (d Dir) WithLocksIn(locks string) Dir {
	d.locks = filepath.Clean(locks)
	return d
}

// packageLockName names the lock file of a package directory: a digest of
// its absolute path (the relative path when it cannot be made absolute).
func packageLockName(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	sum := sha256.Sum256([]byte(dir))
	return hex.EncodeToString(sum[:16]) + ".lock"
}

func (d Dir) versionDir(p addrs.Provider, v versions.Version) string {
	return filepath.Join(d.base, addrs.HostnameForDisplay(p.Hostname), p.Namespace, p.Type, v.String())
}

// Lookup returns the installed package for (p, v, pl) if its directory
// exists and is a directory (symlinks followed), as OpenTofu checks before
// printing "Using previously-installed …". The package's "h1:" hash is
// remembered in a sidecar beside it (layout_memo.go).
func (d Dir) Lookup(p addrs.Provider, v versions.Version, pl addrs.Platform) (*Installed, bool) {
	return d.lookup(p, v, pl, nil)
}

func (d Dir) lookup(p addrs.Provider, v versions.Version, pl addrs.Platform, h *dirHasher) (*Installed, bool) {
	dir := d.PackageDir(p, v, pl)
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() {
		return nil, false
	}
	return inDir(p, v, pl, dir, h), true
}
