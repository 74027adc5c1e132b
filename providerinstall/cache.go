package providerinstall

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/versions"
)

// DefaultLockWaitNotice is how long Lock waits for a contended package lock
// before calling LockOptions.OnWait, as OpenTofu does before printing
// "- Waiting for lock on cache directory …".
const DefaultLockWaitNotice = 5 * time.Second

// defaultLockPoll is how often a contended lock is tried again.
const defaultLockPoll = 20 * time.Millisecond

// LockOptions tune Dir.Lock. The zero value is ready to use.
type LockOptions struct {
	// OnWait, when set, is called once if the lock is still held elsewhere
	// after WaitNotice; waiting goes on until the lock is free or the
	// context ends.
	OnWait func()
	// WaitNotice defaults to DefaultLockWaitNotice.
	WaitNotice time.Duration
	// PollInterval is how often a contended lock is tried again.
	PollInterval time.Duration
}

// PackageLock is a held package lock; release it with Unlock.
type PackageLock struct {
	lk   *osFileLock
	once sync.Once
	err  error
}

// Unlock releases the lock. Later calls do nothing.
func (l *PackageLock) Unlock() error {
	l.once.Do(func() { l.err = l.lk.release() })
	return l.err
}

// Lock takes the exclusive lock of a package: an OS lock on its sidecar
// file VERSION/OS_ARCH.lock, created empty (0644) with its parent
// directories if needed and never deleted — the lock OpenTofu takes for
// every install into a provider directory or plugin cache. It waits until
// the lock is free or ctx ends. Holding it, the caller may inspect and
// install the package directory; staging directories left behind by
// crashed installs of this package are removed once the lock is taken.
// The error text is OpenTofu's.
func (d Dir) Lock(ctx context.Context, p addrs.Provider, v versions.Version, pl addrs.Platform, opts LockOptions) (*PackageLock, error) {
	sidecar := d.LockFile(p, v, pl)
	lk, err := acquireFileLock(ctx, sidecar, opts)
	if err != nil {
		return nil, err
	}
	_ = removeStaleStaging(d.PackageDir(p, v, pl))
	// A memo of an earlier tfdeps beside the package (layout_memo.go).
	_ = os.Remove(d.PackageDir(p, v, pl) + legacyMemoSuffix)
	return &PackageLock{lk: lk}, nil
}

// acquireFileLock makes the sidecar (errors as they are, as OpenTofu's) and
// waits for its lock (errors "unable to acquire file lock on ...").
func acquireFileLock(ctx context.Context, sidecar string, opts LockOptions) (*osFileLock, error) {
	lk, err := openSidecar(sidecar)
	if err != nil {
		return nil, err
	}
	if err := waitForLock(ctx, lk, opts); err != nil {
		return nil, fmt.Errorf("unable to acquire file lock on %q: %s", sidecar, err)
	}
	return lk, nil
}

func openSidecar(sidecar string) (*osFileLock, error) {
	if err := os.MkdirAll(filepath.Dir(sidecar), 0o755); err != nil {
		return nil, err
	}
	return openFileLock(sidecar)
}

// waitForLock takes lk's lock, waiting until it is free or ctx ends; on
// failure lk is released.
func waitForLock(ctx context.Context, lk *osFileLock, opts LockOptions) error {
	if opts.WaitNotice <= 0 {
		opts.WaitNotice = DefaultLockWaitNotice
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = defaultLockPoll
	}
	notice := time.NewTimer(opts.WaitNotice)
	defer notice.Stop()
	poll := time.NewTicker(opts.PollInterval)
	defer poll.Stop()
	for {
		ok, err := lk.tryLock()
		if err != nil {
			_ = lk.release()
			return err
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			_ = lk.release()
			return ctx.Err()
		case <-notice.C:
			if opts.OnWait != nil {
				opts.OnWait()
			}
		case <-poll.C:
		}
	}
}

// FillOptions say how Dir.Fill treats an existing package and how it makes
// a missing one.
type FillOptions struct {
	Lock LockOptions
	// Reuse is asked, under the lock, whether an existing package
	// directory may be used as it is (for example: it matches the lock
	// file's hashes). When it says false, or is nil, Produce is called
	// with the directory still in place.
	Reuse func(existing *Installed) (bool, error)
	// Produce makes the package at dir under the lock, e.g. with
	// InstallZip or Link; dir may already exist (see Reuse). It returns
	// the directory's "h1:" hash when it knows it, "" otherwise.
	Produce func(ctx context.Context, dir string) (hashes.Hash, error)
}

// Filled is the result of Dir.Fill.
type Filled struct {
	// Package is the package now in the directory.
	Package *Installed
	// Produced is false when an existing package was reused.
	Produced bool
}

// Fill makes sure a package is in d, producing it at most once however
// many goroutines and processes fill the same package concurrently: it
// takes the package lock, asks Reuse about an existing package directory,
// calls Produce otherwise, and releases the lock. Produce is expected to
// write through a staging directory (ExtractFile, InstallZip and Link do),
// so the package directory is either absent or whole at every instant.
func (d Dir) Fill(ctx context.Context, p addrs.Provider, v versions.Version, pl addrs.Platform, opts FillOptions) (Filled, error) {
	lock, err := d.Lock(ctx, p, v, pl, opts.Lock)
	if err != nil {
		return Filled{}, err
	}
	res, err := d.fillLocked(ctx, p, v, pl, opts)
	return res, errors.Join(err, lock.Unlock())
}

func (d Dir) fillLocked(ctx context.Context, p addrs.Provider, v versions.Version, pl addrs.Platform, opts FillOptions) (Filled, error) {
	dir := d.PackageDir(p, v, pl)
	if existing, ok := d.Lookup(p, v, pl); ok && opts.Reuse != nil {
		reuse, err := opts.Reuse(existing)
		if err != nil || reuse {
			return Filled{Package: existing}, err
		}
	}
	if opts.Produce == nil {
		return Filled{}, fmt.Errorf("no way to install the package at %s", dir)
	}
	if err := ctx.Err(); err != nil {
		return Filled{}, err
	}
	h1, err := opts.Produce(ctx, dir)
	if err != nil {
		return Filled{}, err
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return Filled{}, fmt.Errorf("package directory %s is missing after installation", dir)
	}
	pkg := NewInstalled(p, v, pl, dir)
	if h1 != "" {
		pkg = newInstalledWithHash(p, v, pl, dir, h1)
	}
	return Filled{Package: pkg, Produced: true}, nil
}
