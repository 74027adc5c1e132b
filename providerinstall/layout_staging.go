package providerinstall

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// Staging directories.
//
// A package directory is never written in place: its content is built in a
// staging directory beside it and renamed into place when complete, so a
// package directory that exists is always whole. A staging directory is
// named ".OS-ARCH.tfdeps-tmp-N" (for package directory OS_ARCH): hidden,
// and without the underscore that OpenTofu's directory scan requires of a
// platform directory, so no scanner mistakes a leftover of a crashed run
// for a package. Leftovers are removed by the next run that takes the
// package's lock (see Dir.Lock).

const stagingMarker = ".tfdeps-tmp-"

// stagingPrefix returns the name prefix of the staging directories of the
// package directory dir.
func stagingPrefix(dir string) string {
	return "." + strings.ReplaceAll(filepath.Base(dir), "_", "-") + stagingMarker
}

// newStagingDir creates an empty staging directory (mode 0755 less the
// umask) beside dir, creating dir's parent directories as needed.
func newStagingDir(dir string) (string, error) {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	prefix := filepath.Join(parent, stagingPrefix(dir))
	for {
		name := prefix + strconv.FormatUint(rand.Uint64(), 10)
		err := os.Mkdir(name, 0o755)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", err
		}
	}
}

// newStagingLink creates a symlink to target under a fresh staging name
// beside dir, whose parent directory must exist.
func newStagingLink(symlink func(oldname, newname string) error, target, dir string) (string, error) {
	prefix := filepath.Join(filepath.Dir(dir), stagingPrefix(dir))
	for {
		name := prefix + strconv.FormatUint(rand.Uint64(), 10)
		err := symlink(target, name)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", err
		}
	}
}

// removeStaleStaging removes every staging directory of dir. Call it only
// while holding dir's package lock: staging directories of a live install
// belong to the lock holder.
func removeStaleStaging(dir string) error {
	matches, err := filepath.Glob(filepath.Join(filepath.Dir(dir), globEscape(stagingPrefix(dir))+"*"))
	if err != nil {
		return err
	}
	var errs []error
	for _, m := range matches {
		errs = append(errs, os.RemoveAll(m))
	}
	return errors.Join(errs...)
}

// globEscape quotes the glob metacharacters of s.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// cleanStaleStaging removes the staging entries of a package directory
// that installs killed before they cleaned up left behind (a kill right
// after a package was moved into place leaves its download), when no live
// process holds the package's lock: a lock holder owns the staging entries
// there. It never waits and ignores every failure. Paths that install
// without taking the package's lock (reusing a cached or installed
// package) call it, so leftovers do not outlive the next run.
//
// linkers are the other directories under whose package lock entries are
// staged in d: a plugin cache links its packages into the working
// directory under the cache's lock (linkFromCache), so the target's
// entries are stale only when that lock is free too.
func (d Dir) cleanStaleStaging(p addrs.Provider, v versions.Version, pl addrs.Platform, linkers ...Dir) {
	dir := d.PackageDir(p, v, pl)
	matches, err := filepath.Glob(filepath.Join(filepath.Dir(dir), globEscape(stagingPrefix(dir))+"*"))
	if err != nil || len(matches) == 0 {
		return
	}
	for _, lockDir := range append([]Dir{d}, linkers...) {
		lk, err := openFileLock(lockDir.LockFile(p, v, pl))
		if err != nil {
			return
		}
		defer lk.release()
		if ok, err := lk.tryLock(); err != nil || !ok {
			return
		}
	}
	_ = removeStaleStaging(dir)
}
