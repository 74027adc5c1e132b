package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/gofrs/flock"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/lockfile"
)

// Working-directory lock. Two inits in one directory would both write
// .terraform/providers and the lock file, and each could see the other's
// half-finished work. init therefore holds an exclusive file lock for the
// working directory while it runs; a second init waits for the first.
//
// The lock file lives outside the working directory, so that nothing of
// tfdeps sits in the directories OpenTofu owns (.terraform): in the user
// cache directory, under tfdeps/workdir-locks/, named by a hash of the
// working directory's real path (symbolic links resolved, so two paths to
// one directory share one lock). The lock is advisory (flock(2), or
// LockFileEx on Windows) and released by the kernel when the process dies,
// so a killed init never leaves a directory locked.

// workdirLockRetry is how often a waiting init retries the lock.
const workdirLockRetry = 50 * time.Millisecond

// acquireWorkdirLock takes the lock of the current working directory,
// waiting for another init to finish, and then removes the temporary files
// killed runs left beside the lock file. It returns the function that
// releases the lock; on failure (ctx cancelled, or the lock file cannot be
// made) it shows an error on view and returns nil and the exit code.
func acquireWorkdirLock(ctx context.Context, m *Meta, view initView) (release func(), code int) {
	fl, err := workdirLock(ctx, m)
	if err != nil {
		view.Diagnostics(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to lock the working directory",
			Detail:   fmt.Sprintf("Another tfdeps init may be running in this directory. %s.", err),
		}})
		return nil, 1
	}
	lockfile.RemoveStaleTempFiles(lockFileName)
	return func() { fl.Unlock() }, 0
}

// workdirLock locks the current directory's lock file, waiting until ctx
// is done.
func workdirLock(ctx context.Context, m *Meta) (*flock.Flock, error) {
	path, err := workdirLockPath(m)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	fl := flock.New(path, flock.SetPermissions(0o600))
	ok, err := fl.TryLockContext(ctx, workdirLockRetry)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	if !ok {
		return nil, fmt.Errorf("locking %s: %w", path, ctx.Err())
	}
	return fl, nil
}

// workdirLockPath is the lock file of the current working directory.
func workdirLockPath(m *Meta) (string, error) {
	wd, err := m.Getwd()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		wd = real
	}
	wd, err = filepath.Abs(wd)
	if err != nil {
		return "", err
	}
	cache, err := userCacheDir(m)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(wd))
	return filepath.Join(cache, "tfdeps", "workdir-locks", hex.EncodeToString(sum[:16])+".lock"), nil
}

// userCacheDir is os.UserCacheDir read from m's environment.
func userCacheDir(m *Meta) (string, error) {
	switch runtime.GOOS {
	case "windows":
		if dir := m.Getenv("LocalAppData"); dir != "" {
			return dir, nil
		}
		return "", fmt.Errorf("%%LocalAppData%% is not defined")
	case "darwin", "ios":
		if home := m.Getenv("HOME"); home != "" {
			return filepath.Join(home, "Library", "Caches"), nil
		}
	default:
		if dir := m.Getenv("XDG_CACHE_HOME"); filepath.IsAbs(dir) {
			return dir, nil
		}
		if home := m.Getenv("HOME"); home != "" {
			return filepath.Join(home, ".cache"), nil
		}
	}
	return "", fmt.Errorf("neither $XDG_CACHE_HOME nor $HOME is defined")
}
