package installer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tfdeps/tfdeps/internal/registry"
	"github.com/tfdeps/tfdeps/internal/sources"
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
func (pi *packageInstall) download(ctx context.Context, loc sources.HTTPURL, dir string) (*Archive, error) {
	d := pi.task.run.in.Downloader
	if d == nil {
		return nil, errNoDownloader
	}
	progress := &progressThrottle{pi: pi}
	a, err := d.Download(ctx, registry.DownloadRequest{URL: loc.URL, Dir: dir, Retries: pi.meta.DownloadRetries, Progress: progress.report})
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
