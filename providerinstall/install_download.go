package providerinstall

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
)

// Downloader fetches package archives over HTTP into a directory, hashing
// them as they arrive, with OpenTofu's retry policy (registry-protocol.md
// §5); *registry.Client is the one tfdeps uses.
type Downloader interface {
	Download(ctx context.Context, dr registry.DownloadRequest) (*registry.Archive, error)
}

var _ Downloader = (*registry.Client)(nil)

var errNoDownloader = errors.New("no downloader is configured for packages served over HTTP")

// download fetches loc into dir, reporting progress as DownloadProgress
// events at most every 100 ms.
func (pi *packageInstall) download(ctx context.Context, loc providersource.HTTPURL, dir string) (*Archive, error) {
	d := pi.task.run.in.Downloader
	if d == nil {
		return nil, errNoDownloader
	}
	progress := &progressThrottle{pi: pi}
	a, err := d.Download(ctx, registry.DownloadRequest{URL: loc.URL, Dir: dir, Retries: pi.meta.DownloadRetries, Progress: progress.report, Buffer: archiveBuffer})
	if err != nil && ctx.Err() != nil {
		// Cancellation is reported by the interrupt line alone, so the
		// error must say it was caused by the context.
		return nil, fmt.Errorf("provider download was interrupted: %w", ctx.Err())
	}
	return a, err
}

// progressThrottle passes download progress on at most every 100 ms, and
// always when the download is complete.
type progressThrottle struct {
	pi   *packageInstall
	last time.Time
}

func (p *progressThrottle) report(done, total int64) {
	now := time.Now()
	if now.Sub(p.last) < 100*time.Millisecond && done != total {
		return
	}
	p.last = now
	t := p.pi.task
	t.pe.sendNow(func(ev *Events) { ev.DownloadProgress(t.p, t.v, done, total) })
}

// Packages downloaded into memory.
//
// A downloaded archive is read once more after its download — to unpack it
// — and then deleted. Writing it to a temporary file and reading it back
// cost about a fifth of a cold init's CPU on the development machine (3 ×
// 50 MB archives: the kernel's page cache for the file, then a copy out of
// it). An archive whose size the server announces is therefore received
// into memory when it fits in archiveBudget, process-wide; others go to a
// temporary file as before. The bytes are the same, and so are the checks.

// archiveBudget bounds the bytes of archives held in memory at once.
const archiveBudget = 512 << 20

var archiveSem = semaphore.NewWeighted(archiveBudget)

// archiveMemoryOff sends every download to a temporary file, and
// archivesInMemory counts the archives received into memory (tests).
var (
	archiveMemoryOff bool
	archivesInMemory atomic.Int64
)

// archiveBuffer is the registry.DownloadRequest Buffer of installs: a
// buffer of size bytes while the budget has room, nil otherwise (never
// waiting: a temporary file serves as well).
func archiveBuffer(size int64) ([]byte, func()) {
	if archiveMemoryOff || size <= 0 || size > archiveBudget || !archiveSem.TryAcquire(size) {
		return nil, nil
	}
	archivesInMemory.Add(1)
	b, free := wholeBuffer(int(size))
	return b, func() {
		free()
		archiveSem.Release(size)
	}
}
