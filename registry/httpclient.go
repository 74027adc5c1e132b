package registry

import (
	"fmt"
	"io"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/tfdeps/tfdeps/flavour"
)

// Body size limits. OpenTofu reads registry JSON without a bound; tfdeps
// caps every read far above what real registries send.
const (
	discoveryLimit = 1 << 20  // 1 MiB, as OpenTofu
	metadataLimit  = 16 << 20 // versions and package responses
	checksumsLimit = 4 << 20  // SHA256SUMS and its signature
)

// newMetadataClient returns the retrying client used for registry metadata,
// SHA256SUMS and signatures.
func newMetadataClient(s Settings) *retryablehttp.Client {
	c := newRetryingClient(s, s.retryCount())
	c.HTTPClient.Timeout = s.requestTimeout()
	c.ErrorHandler = retriesExhausted(s.Flavour)
	return c
}

// newDownloadClient returns the client for package archives: no overall
// timeout, go-retryablehttp's own "giving up" errors.
func newDownloadClient(s Settings, retries int) *retryablehttp.Client {
	return newRetryingClient(s, retries)
}

func newRetryingClient(s Settings, retries int) *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.HTTPClient = &http.Client{Transport: s.transport()}
	c.Logger = nil
	c.RetryMax = retries
	if s.Backoff != nil {
		c.Backoff = s.Backoff
	}
	return c
}

// retriesExhausted produces the flavour's texts for a request whose last
// attempt still failed with a retryable condition. A failed status names
// the URL in OpenTofu's text and only the host in Terraform's.
func retriesExhausted(f flavour.Flavour) retryablehttp.ErrorHandler {
	return func(resp *http.Response, err error, attempts int) (*http.Response, error) {
		var detail string
		switch {
		case resp != nil:
			resp.Body.Close()
			where := resp.Request.URL.String()
			if f == flavour.Terraform {
				where = resp.Request.Host
				if where == "" {
					where = resp.Request.URL.Host
				}
			}
			detail = fmt.Sprintf("%s returned from %s", resp.Status, where)
			return nil, &RequestError{Attempts: attempts, Detail: detail, Status: resp.Status, URL: resp.Request.URL.String(), Flavour: f}
		case err != nil:
			detail = err.Error()
		}
		return nil, &RequestError{Attempts: attempts, Detail: detail, Err: err, Flavour: f}
	}
}

// RequestError is a metadata request that failed after its retries.
type RequestError struct {
	Attempts int
	Detail   string
	Err      error // the transport error, if any
	// Status and URL are those of the last response, if there was one.
	Status, URL string
	// Flavour selects the product's wording.
	Flavour flavour.Flavour
}

func (e *RequestError) Error() string {
	if e.Flavour == flavour.Terraform {
		return e.terraformText()
	}
	if e.Attempts > 1 {
		return fmt.Sprintf("request failed after %d attempts: %s", e.Attempts, e.Detail)
	}
	return "request failed: " + e.Detail
}

func (e *RequestError) Unwrap() error { return e.Err }

func (e *RequestError) terraformText() string {
	msg := "the request failed, please try again later"
	if e.Attempts > 1 {
		msg = fmt.Sprintf("the request failed after %d attempts, please try again later", e.Attempts)
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// readLimited reads a whole body of at most limit bytes.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("response body is too large (limit %d bytes)", limit)
	}
	return b, nil
}

// readPrefix reads at most limit bytes, silently dropping the rest.
func readPrefix(r io.Reader, limit int64) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, limit))
}
