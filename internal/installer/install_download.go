package installer

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"time"
)

// DefaultDownloadRetries is the number of extra download attempts when
// neither the installation method nor TF_PROVIDER_DOWNLOAD_RETRY says.
const DefaultDownloadRetries = 2

// download fetches loc into path, hashing the bytes ("zh:") as they
// arrive, with OpenTofu's retry policy (registry-protocol.md §5).
func (pi *packageInstall) download(ctx context.Context, rawURL string, path string) (*Archive, error) {
	in := pi.task.run.in
	retries := in.DownloadRetries
	if pi.meta.DownloadRetries != nil {
		retries = *pi.meta.DownloadRetries
	}
	client := in.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	host := rawURL
	if u, err := url.Parse(rawURL); err == nil {
		host = u.Host
	}
	var lastErr error
	for attempt := 0; attempt <= retries; attempt++ {
		if attempt > 0 {
			if err := sleepCtx(ctx, backoff(attempt-1)); err != nil {
				return nil, errors.New("provider download was interrupted")
			}
		}
		a, retry, err := pi.downloadOnce(ctx, client, rawURL, path)
		if err == nil {
			return a, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("provider download was interrupted: %w", ctx.Err())
		}
		if !retry {
			return nil, err
		}
		lastErr = err
	}
	return nil, fmt.Errorf("%s: GET %s giving up after %d attempt(s)%s", host, redactURL(rawURL), retries+1, transportSuffix(lastErr))
}

// retryableStatusError is a status the retry policy tries again.
type retryableStatusError struct{ status int }

func (e *retryableStatusError) Error() string { return strconv.Itoa(e.status) }

func transportSuffix(err error) string {
	var rs *retryableStatusError
	if err == nil || errors.As(err, &rs) {
		return ""
	}
	return ": " + err.Error()
}

// downloadOnce makes one attempt and says whether a failure may be retried.
func (pi *packageInstall) downloadOnce(ctx context.Context, client *http.Client, rawURL, path string) (*Archive, bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, false, err
	}
	if ua := pi.task.run.in.UserAgent; ua != "" {
		req.Header.Set("User-Agent", ua)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, true, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusOK:
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented:
		return nil, true, &retryableStatusError{resp.StatusCode}
	default:
		return nil, false, fmt.Errorf("unsuccessful request to %s: %s", rawURL, resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	sum := sha256.New()
	progress := &progressWriter{pi: pi, total: resp.ContentLength}
	n, err := io.CopyBuffer(io.MultiWriter(f, sum, progress), struct{ io.Reader }{resp.Body}, make([]byte, 256<<10))
	if err != nil {
		return nil, true, err
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return nil, false, fmt.Errorf("incorrect response size: expected %d bytes, but got %d bytes", resp.ContentLength, n)
	}
	if err := f.Close(); err != nil {
		return nil, false, err
	}
	a := &Archive{Path: path, Size: n}
	copy(a.SHA256[:], sum.Sum(nil))
	return a, false, nil
}

// progressWriter reports download progress at most every 100 ms.
type progressWriter struct {
	pi    *packageInstall
	total int64
	done  int64
	last  time.Time
}

func (w *progressWriter) Write(p []byte) (int, error) {
	w.done += int64(len(p))
	if now := time.Now(); now.Sub(w.last) >= 100*time.Millisecond || w.done == w.total {
		w.last = now
		t, done, total := w.pi.task, w.done, w.total
		t.pe.sendNow(func(ev *Events) { ev.DownloadProgress(t.p, t.v, done, total) })
	}
	return len(p), nil
}

// backoff is go-retryablehttp's default: 1 s × 2^attempt, at most 30 s.
func backoff(attempt int) time.Duration {
	d := time.Second << attempt
	if d > 30*time.Second || d <= 0 {
		d = 30 * time.Second
	}
	return d
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// redactURL hides any password in rawURL.
func redactURL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL
	}
	return u.Redacted()
}
