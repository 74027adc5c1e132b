package providerlock

import (
	"io"
	"net/http"
	"sync"
)

// DefaultParallelism is the default number of concurrent requests per host
// (and of packages handled at once).
const DefaultParallelism = 4

// hostLimiter is an http.RoundTripper that lets at most n requests per
// host be in flight. A request counts from the moment it is sent until its
// response body is closed (or read to the end), so a long download holds
// its slot for its whole duration.
type hostLimiter struct {
	next http.RoundTripper
	n    int

	mu    sync.Mutex
	hosts map[string]chan struct{}
}

// LimitHosts wraps next so that at most n requests (n < 1 means 1) to the
// same host:port run at once. Requests over the limit wait for a slot or
// for their context to end.
func LimitHosts(next http.RoundTripper, n int) http.RoundTripper {
	if n < 1 {
		n = 1
	}
	return &hostLimiter{next: next, n: n, hosts: map[string]chan struct{}{}}
}

func (l *hostLimiter) slots(host string) chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	ch, ok := l.hosts[host]
	if !ok {
		ch = make(chan struct{}, l.n)
		l.hosts[host] = ch
	}
	return ch
}

// RoundTrip waits for a slot of the request's host, then sends it.
func (l *hostLimiter) RoundTrip(req *http.Request) (*http.Response, error) {
	slots := l.slots(req.URL.Host)
	select {
	case slots <- struct{}{}:
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
	release := sync.OnceFunc(func() { <-slots })
	resp, err := l.next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		release()
		return resp, err
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: release}
	return resp, nil
}

// releasingBody gives the host slot back when the body is closed or
// exhausted.
type releasingBody struct {
	io.ReadCloser
	release func()
}

func (b *releasingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.release()
	}
	return n, err
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}
