//go:build linux

package providerinstall

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// osFileLock is an exclusive lock on a whole sidecar file, taken as a Linux
// open-file-description (OFD) lock. OFD locks conflict with the classic
// POSIX record locks OpenTofu takes on the same sidecar (fcntl F_SETLK), so
// tfdeps and tofu processes exclude each other; unlike classic POSIX locks
// they belong to the open file, not the process, so two goroutines of one
// process holding separate opens exclude each other too, and closing some
// other descriptor of the file does not drop the lock.
type osFileLock struct {
	f *os.File
}

func openFileLock(path string) (*osFileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	return &osFileLock{f: f}, nil
}

// tryLock takes the lock if it is free and reports whether it did.
func (l *osFileLock) tryLock() (bool, error) {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: io.SeekStart}
	err := unix.FcntlFlock(l.f.Fd(), unix.F_OFD_SETLK, &lk)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, unix.EAGAIN), errors.Is(err, unix.EACCES):
		return false, nil
	}
	return false, err
}

// release drops the lock and closes the file.
func (l *osFileLock) release() error {
	lk := unix.Flock_t{Type: unix.F_UNLCK, Whence: io.SeekStart}
	err := unix.FcntlFlock(l.f.Fd(), unix.F_OFD_SETLK, &lk)
	return errors.Join(err, l.f.Close())
}
