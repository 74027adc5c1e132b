package registry

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// DownloadTo is Download into w instead of a temporary file: the same
// request, retries, idle timeout, size check and errors. It returns the
// number of bytes written and their SHA-256. w sees every byte of the
// response body once, in order; a failed download may have written part
// of it (a retried attempt only starts over before the body is read).
//
// It lets a caller that only hashes a package keep it in memory rather than
// write it to disk and read it back (providers lock).
//
// (It repeats Download's request logic, which download.go does not expose
// separately; the two are meant to be folded into one.)
func (c *Client) DownloadTo(ctx context.Context, dr DownloadRequest, w io.Writer) (int64, [32]byte, error) {
	var sum [32]byte
	idle := c.settings.DownloadIdleTimeout()
	dctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stalled := &idleError{timeout: idle, host: dr.URL.Host}
	timer := time.AfterFunc(idle, func() { cancel(stalled) })
	defer timer.Stop()

	req, err := retryablehttp.NewRequestWithContext(dctx, http.MethodGet, dr.URL.String(), nil)
	if err != nil {
		return 0, sum, err
	}
	req.Header = c.settings.Headers(false)
	client := newDownloadClient(c.settings, c.settings.DownloadRetries(dr.Retries))
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(context.Cause(dctx), stalled) {
			return 0, sum, stalled
		}
		if ctx.Err() != nil {
			return 0, sum, errors.New("provider download was interrupted")
		}
		return 0, sum, fmt.Errorf("%s: %w", dr.URL.Host, err)
	}
	defer resp.Body.Close()
	timer.Reset(idle)
	if resp.StatusCode != http.StatusOK {
		return 0, sum, fmt.Errorf("unsuccessful request to %s: %s", dr.URL, resp.Status)
	}
	body := &idleReader{ReadCloser: resp.Body, timer: timer, idle: idle}
	h := sha256.New()
	sink := io.MultiWriter(w, h)
	if dr.Progress != nil {
		sink = io.MultiWriter(sink, &progressWriter{report: dr.Progress, total: resp.ContentLength})
	}
	n, err := io.CopyBuffer(sink, body, make([]byte, copyBufferSize))
	switch {
	case err != nil && errors.Is(context.Cause(dctx), stalled):
		return n, sum, stalled
	case ctx.Err() != nil:
		return n, sum, errors.New("provider download was interrupted")
	case resp.ContentLength >= 0 && n < resp.ContentLength && (err == nil || errors.Is(err, io.ErrUnexpectedEOF)):
		return n, sum, fmt.Errorf("incorrect response size: expected %d bytes, but got %d bytes", resp.ContentLength, n)
	case err != nil:
		return n, sum, fmt.Errorf("%s: %w", dr.URL.Host, err)
	}
	copy(sum[:], h.Sum(nil))
	return n, sum, nil
}
