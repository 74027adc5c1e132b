package registry

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/tfdeps/tfdeps/hashes"
)

// DownloadRequest says what to download and where.
type DownloadRequest struct {
	URL *url.URL
	// Dir receives the temporary archive ("" means os.TempDir()).
	Dir string
	// Retries is the installation method's download_retry_count, nil when
	// not configured (see Settings.DownloadRetries).
	Retries *int
	// Progress, when set, is told after each chunk how many bytes of total
	// have arrived (total is -1 when the server does not say).
	Progress func(done, total int64)
	// Buffer, when set, is offered the size the response announces
	// (Content-Length) once it is 200 OK. If it returns a slice of exactly
	// that length, the body is received into it instead of a temporary
	// file (Archive.Data), and release is called when the archive is
	// removed or the download fails; a nil slice means a temporary file.
	Buffer func(size int64) (buf []byte, release func())
}

// Archive is a downloaded package archive: in a temporary file (Path), or
// in memory (Data, when the request's Buffer offered it). The caller owns
// it and must Remove it.
type Archive struct {
	Path string
	// Data holds the archive's bytes when it is in memory (Path is then "").
	Data []byte
	// URL is where it was downloaded from (userinfo redacted), which
	// names an archive in memory in messages.
	URL  string
	Size int64
	// SHA256 of the bytes written, computed while downloading.
	SHA256 [32]byte

	release func()
}

// ZH returns the archive's "zh:" hash.
func (a *Archive) ZH() hashes.Hash { return hashes.Hash("zh:" + hex.EncodeToString(a.SHA256[:])) }

// Remove deletes the temporary file, or gives the memory back.
func (a *Archive) Remove() error {
	if a.Data != nil || a.release != nil {
		if a.release != nil {
			a.release()
		}
		a.Data, a.release = nil, nil
		return nil
	}
	return os.Remove(a.Path)
}

// copyBufferSize is the size of the buffer between the network and the
// file; large enough that syscalls do not dominate.
const copyBufferSize = 1 << 20

// Download fetches a package archive (from a registry or a network mirror)
// into a new temporary file, hashing it in the same pass. It sends only
// User-Agent, has no overall timeout, and retries as configured. The
// response size is checked against Content-Length; authenticity is not
// checked here.
//
// A download that receives no byte for the idle timeout (see
// DownloadIdleTimeout) fails: waiting for the response or stalled in the
// middle of the body. (Deviation: OpenTofu waits for ever.)
func (c *Client) Download(ctx context.Context, dr DownloadRequest) (*Archive, error) {
	var f *os.File
	var mem *sliceWriter
	n, sum, err := c.download(ctx, dr, func(size int64) (io.Writer, error) {
		if dr.Buffer != nil && size > 0 {
			if b, release := dr.Buffer(size); int64(len(b)) == size {
				mem = &sliceWriter{buf: b, release: release}
				return mem, nil
			} else if release != nil {
				release()
			}
		}
		var err error
		if f, err = os.CreateTemp(dr.Dir, "tfdeps-provider-*.zip"); err != nil {
			return nil, fmt.Errorf("failed to create temporary file for provider package: %w", err)
		}
		return f, nil
	})
	if mem != nil {
		a := &Archive{Data: mem.buf, URL: dr.URL.Redacted(), Size: n, SHA256: sum, release: mem.release}
		if err == nil && n != int64(len(mem.buf)) {
			err = fmt.Errorf("incorrect response size: expected %d bytes, but got %d bytes", len(mem.buf), n)
		}
		if err != nil {
			a.Remove()
			return nil, err
		}
		return a, nil
	}
	if f == nil {
		return nil, err
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return nil, err
	}
	return &Archive{Path: f.Name(), Size: n, SHA256: sum}, nil
}

// DownloadTo is Download into w instead of a temporary file: the same
// request, retries, idle timeout, size check and errors. It returns the
// number of bytes written and their SHA-256. w sees every byte of the
// response body once, in order; a failed download may have written part
// of it (a retried attempt only starts over before the body is read).
//
// It lets a caller that only hashes a package keep it in memory rather than
// write it to disk and read it back (providers lock).
func (c *Client) DownloadTo(ctx context.Context, dr DownloadRequest, w io.Writer) (int64, [32]byte, error) {
	return c.download(ctx, dr, func(int64) (io.Writer, error) { return w, nil })
}

// download is Download and DownloadTo: it sends the request and, once the
// response is 200 OK (as OpenTofu, which makes its temporary file only
// then), copies the body into the writer open returns, hashing it in the
// same pass. open is given the size the response announces (-1: unknown).
func (c *Client) download(ctx context.Context, dr DownloadRequest, open func(size int64) (io.Writer, error)) (int64, [32]byte, error) {
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
	timer.Reset(idle) // the headers arrived
	if resp.StatusCode != http.StatusOK {
		return 0, sum, fmt.Errorf("unsuccessful request to %s: %s", dr.URL, resp.Status)
	}
	w, err := open(resp.ContentLength)
	if err != nil {
		return 0, sum, err
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

// DefaultDownloadIdleTimeout is how long a download may receive nothing
// before it fails, unless TFDEPS_DOWNLOAD_IDLE_TIMEOUT says otherwise.
const DefaultDownloadIdleTimeout = 5 * time.Minute

// EnvDownloadIdleTimeout names the environment variable that sets the
// download idle timeout: a Go duration ("90s", "10m") or a number of
// seconds. Anything else, or a value not above zero, means the default.
const EnvDownloadIdleTimeout = "TFDEPS_DOWNLOAD_IDLE_TIMEOUT"

// DownloadIdleTimeout is the download idle timeout: TFDEPS_DOWNLOAD_IDLE_TIMEOUT
// or DefaultDownloadIdleTimeout.
func (s Settings) DownloadIdleTimeout() time.Duration {
	v := s.getenv(EnvDownloadIdleTimeout)
	if d, err := time.ParseDuration(v); err == nil && d > 0 {
		return d
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return DefaultDownloadIdleTimeout
}

// idleError is the error of a download that received nothing for timeout.
type idleError struct {
	timeout time.Duration
	host    string
}

func (e *idleError) Error() string {
	return fmt.Sprintf("%s: no data received for %s (the limit %s sets)", e.host, e.timeout, EnvDownloadIdleTimeout)
}

// idleReader restarts the idle timer whenever bytes arrive.
type idleReader struct {
	io.ReadCloser
	timer *time.Timer
	idle  time.Duration
}

func (r *idleReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	if n > 0 {
		r.timer.Reset(r.idle)
	}
	return n, err
}

// FetchPackage downloads meta's archive into dir and authenticates it. On
// any failure the temporary file is removed. The caller removes the
// returned archive after extracting it.
func (c *Client) FetchPackage(ctx context.Context, meta *PackageMeta, dir string, retries *int) (*Archive, *AuthResult, error) {
	a, err := c.Download(ctx, DownloadRequest{URL: meta.DownloadURL, Dir: dir, Retries: retries})
	if err != nil {
		return nil, nil, err
	}
	res, err := c.Authenticate(meta, a)
	if err != nil {
		a.Remove()
		return nil, nil, err
	}
	return a, res, nil
}

// progressWriter counts the bytes written through it for a Progress callback.
type progressWriter struct {
	report      func(done, total int64)
	done, total int64
}

func (w *progressWriter) Write(p []byte) (int, error) {
	w.done += int64(len(p))
	w.report(w.done, w.total)
	return len(p), nil
}

// sliceWriter receives a response body of a size announced in advance
// into buf.
type sliceWriter struct {
	buf     []byte
	n       int
	release func()
}

func (w *sliceWriter) Write(p []byte) (int, error) {
	if len(p) > len(w.buf)-w.n {
		return 0, fmt.Errorf("incorrect response size: expected %d bytes, but got more", len(w.buf))
	}
	w.n += copy(w.buf[w.n:], p)
	return len(p), nil
}
