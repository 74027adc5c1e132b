package serve

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// RetryPolicy says how upstream requests that meet a 429, a 5xx, a broken
// connection or no answer in time are retried. Every upstream request (discovery,
// versions, package metadata, SHA256SUMS, signature, archive) goes through
// it; the registry client's own retries are off, so that the final answer
// keeps its status for the client (see upstreamFailure).
type RetryPolicy struct {
	// Attempts is the number of tries of one request (default 3).
	Attempts int
	// Backoff is the pause before try n+1 after try n failed without a
	// usable Retry-After (default 500 ms × 2^(n-1)).
	Backoff func(n int) time.Duration
	// MaxWait bounds one pause: a Retry-After longer than it is not waited
	// for here but passed on to the client (default 5 s). The pauses of one
	// request add up to at most twice MaxWait, which keeps a mirror
	// metadata request under the 10 s timeout of OpenTofu's client.
	MaxWait time.Duration
	// TryTimeout bounds how long one try waits for the upstream's
	// response headers (default 5 s); a try that times out is retried like
	// a broken connection. The body that follows is not bounded by it.
	TryTimeout time.Duration
	// Sleep pauses (default: a timer that stops when ctx ends). Tests
	// record the pauses instead of waiting.
	Sleep func(ctx context.Context, d time.Duration) error
}

func (p *RetryPolicy) setDefaults() {
	if p.Attempts <= 0 {
		p.Attempts = 3
	}
	if p.Backoff == nil {
		p.Backoff = func(n int) time.Duration { return 500 * time.Millisecond << (n - 1) }
	}
	if p.MaxWait <= 0 {
		p.MaxWait = 5 * time.Second
	}
	if p.TryTimeout <= 0 {
		p.TryTimeout = 5 * time.Second
	}
	if p.Sleep == nil {
		p.Sleep = sleepContext
	}
}

// budget is the longest one metadata request may take through the retries:
// every try timing out and the longest pauses between them.
func (p *RetryPolicy) budget() time.Duration {
	return time.Duration(p.Attempts)*p.TryTimeout + 2*p.MaxWait
}

// TimeoutError is an upstream that sent no response headers within
// RetryPolicy.TryTimeout, on every try.
type TimeoutError struct {
	Host     string
	After    time.Duration
	Attempts int
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("upstream %s sent no answer within %s to %d tries", e.Host, e.After, e.Attempts)
}

// Unwrap makes a TimeoutError a context.DeadlineExceeded (a 504 for the
// client).
func (e *TimeoutError) Unwrap() error { return context.DeadlineExceeded }

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// UpstreamStatusError is an upstream answer of 429 or 5xx that persisted
// through the retries. RetryAfter is the upstream's Retry-After (zero when
// it sent none).
type UpstreamStatusError struct {
	URL        string
	Status     int
	StatusText string
	// Attempts is the number of tries; 0 when the upstream was not asked
	// because the Retry-After of an earlier answer has not passed.
	Attempts   int
	RetryAfter time.Duration
}

func (e *UpstreamStatusError) Error() string {
	if e.Attempts == 0 {
		return fmt.Sprintf("upstream answered %s with a Retry-After that has not passed (%s left); not asked again", e.StatusText, e.RetryAfter)
	}
	s := "upstream answered " + e.StatusText
	if e.Attempts > 1 {
		s += fmt.Sprintf(" to %d tries", e.Attempts)
	}
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (Retry-After %s)", e.RetryAfter)
	}
	return s
}

// retryTransport retries upstream requests as its policy says, counting
// each failed try in failures (by reason: "429", "5xx", "connection",
// "timeout").
// When a 429 or 503 with a Retry-After outlasts the retries, the host is
// not asked again until that time has passed: requests meanwhile fail at
// once with the same status and the time left.
type retryTransport struct {
	base     http.RoundTripper
	policy   RetryPolicy
	failures func(reason string)
	now      func() time.Time

	mu   sync.Mutex
	held map[string]holdOff // by host
}

// holdOff is a host's answer that asked to wait, and when the wait ends.
type holdOff struct {
	answer UpstreamStatusError
	until  time.Time
}

// holding returns the error of a request to a host that asked to wait.
func (t *retryTransport) holding(host string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	h, ok := t.held[host]
	if !ok {
		return nil
	}
	left := h.until.Sub(t.now())
	if left <= 0 {
		delete(t.held, host)
		return nil
	}
	e := h.answer
	e.Attempts, e.RetryAfter = 0, left
	return &e
}

// hold remembers a final 429 or 503 with a Retry-After.
func (t *retryTransport) hold(host string, e *UpstreamStatusError) {
	if e.RetryAfter <= 0 || (e.Status != http.StatusTooManyRequests && e.Status != http.StatusServiceUnavailable) {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.held == nil {
		t.held = map[string]holdOff{}
	}
	t.held[host] = holdOff{answer: *e, until: t.now().Add(e.RetryAfter)}
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.holding(req.URL.Host); err != nil {
		return nil, err
	}
	// Upstream requests are GETs; one with a body is tried once (a
	// RoundTripper must not change the request to resend it).
	replayable := req.Body == nil || req.Body == http.NoBody
	var waited time.Duration
	for n := 1; ; n++ {
		resp, err, timedOut := t.try(req)
		reason := retryReason(req.Context(), resp, err)
		if timedOut && req.Context().Err() == nil {
			reason, err = "timeout", &TimeoutError{Host: req.URL.Host, After: t.policy.TryTimeout, Attempts: n}
		}
		if reason == "" {
			return resp, err
		}
		t.failures(reason)
		retryAfter := t.retryAfter(resp)
		pause := t.policy.Backoff(n)
		if retryAfter > 0 {
			pause = retryAfter
		}
		last := !replayable || n >= t.policy.Attempts || pause > t.policy.MaxWait || waited+pause > 2*t.policy.MaxWait
		if last {
			if resp == nil {
				return nil, err
			}
			drain(resp)
			e := &UpstreamStatusError{URL: req.URL.Redacted(), Status: resp.StatusCode, StatusText: resp.Status, Attempts: n, RetryAfter: retryAfter}
			t.hold(req.URL.Host, e)
			return nil, e
		}
		if resp != nil {
			drain(resp)
		}
		if err := t.policy.Sleep(req.Context(), pause); err != nil {
			return nil, err
		}
		waited += pause
	}
}

// try sends req once, giving up when no response headers came within the
// policy's TryTimeout (timedOut). The response body, when there is one,
// keeps the try's context until it is closed.
func (t *retryTransport) try(req *http.Request) (resp *http.Response, err error, timedOut bool) {
	ctx, cancel := context.WithCancel(req.Context())
	var fired atomic.Bool
	timer := time.AfterFunc(t.policy.TryTimeout, func() { fired.Store(true); cancel() })
	resp, err = t.base.RoundTrip(req.WithContext(ctx))
	if !timer.Stop() && fired.Load() {
		if resp != nil {
			resp.Body.Close()
		}
		cancel()
		return nil, err, true
	}
	if err != nil {
		cancel()
		return nil, err, false
	}
	resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil, false
}

// cancelBody ends a try's context when its body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// retryReason classifies a try: "" when its outcome is final.
func retryReason(ctx context.Context, resp *http.Response, err error) string {
	if ctx.Err() != nil {
		return ""
	}
	if err != nil {
		var (
			unknownCA *x509.UnknownAuthorityError
			certErr   *tls.CertificateVerificationError
			hostErr   x509.HostnameError
			netErr    net.Error
		)
		switch {
		case errors.Is(err, ErrForbiddenAddress), errors.As(err, &unknownCA), errors.As(err, &certErr), errors.As(err, &hostErr):
			return ""
		case errors.As(err, &netErr), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return "connection"
		}
		return ""
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return "429"
	case resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented:
		return "5xx"
	}
	return ""
}

// retryAfter reads a Retry-After header (seconds or an HTTP date).
func (t *retryTransport) retryAfter(resp *http.Response) time.Duration {
	if resp == nil {
		return 0
	}
	return parseRetryAfter(resp.Header.Get("Retry-After"), t.now())
}

func parseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n <= 0 {
			return 0
		}
		return time.Duration(min(n, 86400)) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil {
		if d := at.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// drain reads a little of a failed response so that the connection can be
// reused, then closes it.
func drain(resp *http.Response) {
	io.CopyN(io.Discard, resp.Body, 4<<10)
	resp.Body.Close()
}
