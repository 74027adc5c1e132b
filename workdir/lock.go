package workdir

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/tfdeps/tfdeps/lockfile"
)

// Working-directory lock. Two initialisations of one directory would both
// write .terraform/providers and the lock file, and each could see the
// other's half-finished work. Lock therefore takes an exclusive file lock
// for the working directory; a second caller waits for the first.
//
// The lock file lives outside the working directory, so that nothing of
// tfdeps sits in the directories OpenTofu owns (.terraform): in the user
// cache directory, under tfdeps/workdir-locks/, named by a hash of the
// working directory's real path (symbolic links resolved, so two paths to
// one directory share one lock). The lock is advisory (flock(2), or
// LockFileEx on Windows) and released by the kernel when the process dies,
// so a killed init never leaves a directory locked.

// lockRetry is how often a waiting caller retries the lock.
const lockRetry = 50 * time.Millisecond

// Lock takes the lock of working directory dir, whose lock file lives
// under cacheDir (the user cache directory), waiting until another holder
// releases it or ctx is done; then it removes the temporary files killed
// runs left beside dir's dependency lock file. It returns the function
// that releases the lock.
func Lock(ctx context.Context, dir, cacheDir string) (release func(), err error) {
	path, err := lockPath(dir, cacheDir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	fl := flock.New(path, flock.SetPermissions(0o600))
	ok, err := fl.TryLockContext(ctx, lockRetry)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	if !ok {
		return nil, fmt.Errorf("locking %s: %w", path, ctx.Err())
	}
	lockfile.RemoveStaleTempFiles(filepath.Join(dir, LockFileName))
	return func() { fl.Unlock() }, nil
}

// lockPath is the lock file of working directory dir.
func lockPath(dir, cacheDir string) (string, error) {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join(cacheDir, "tfdeps", "workdir-locks", hex.EncodeToString(sum[:16])+".lock"), nil
}
