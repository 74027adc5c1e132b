package installer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// lockPackage takes the exclusive lock on a package's sidecar file,
// creating its parent directories, and returns the function releasing it.
// onWait is called once when the lock is still held elsewhere after
// lockWaitNotice; waiting continues until ctx ends.
func lockPackage(ctx context.Context, sidecar string, onWait func()) (func(), error) {
	fail := func(err error) (func(), error) {
		return nil, fmt.Errorf("unable to acquire file lock on %q: %s", sidecar, err)
	}
	if err := os.MkdirAll(filepath.Dir(sidecar), 0o755); err != nil {
		return fail(err)
	}
	lk, err := openFileLock(sidecar)
	if err != nil {
		return fail(err)
	}
	start, warned := time.Now(), false
	for {
		ok, err := lk.tryLock()
		if err != nil {
			_ = lk.release()
			return fail(err)
		}
		if ok {
			return func() { _ = lk.release() }, nil
		}
		if !warned && time.Since(start) >= lockWaitNotice {
			warned = true
			onWait()
		}
		if err := sleepCtx(ctx, lockPollInterval); err != nil {
			_ = lk.release()
			return fail(err)
		}
	}
}
