//go:build !linux

package providerinstall

import "github.com/gofrs/flock"

// osFileLock is an exclusive lock on a whole sidecar file, taken with
// gofrs/flock (flock(2) on BSD-like systems, LockFileEx on Windows). It
// excludes other tfdeps processes and goroutines; OpenTofu's classic POSIX
// record locks do not conflict with flock(2) on every system.
type osFileLock struct {
	fl *flock.Flock
}

func openFileLock(path string) (*osFileLock, error) {
	fl := flock.New(path, flock.SetPermissions(0o644))
	return &osFileLock{fl: fl}, nil
}

// tryLock takes the lock if it is free and reports whether it did.
func (l *osFileLock) tryLock() (bool, error) {
	return l.fl.TryLock()
}

// release drops the lock and closes the file.
func (l *osFileLock) release() error {
	return l.fl.Close()
}
