package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/opentofu/svchost"
	"golang.org/x/sync/singleflight"

	"github.com/tfdeps/tfdeps/internal/serve/storage"
	"github.com/tfdeps/tfdeps/registry"
)

// DefaultUpstreams are the registries mirrored when none are configured.
var DefaultUpstreams = []string{"registry.opentofu.org", "registry.terraform.io"}

// Options configure a Server. Store is required.
type Options struct {
	Store *storage.Store
	// Upstreams are the registry hostnames the mirror serves and may
	// contact (default DefaultUpstreams). Each may carry a port.
	Upstreams []string
	// Registry are the registry client settings from the CLI
	// configuration (host blocks, credentials, retries, environment).
	// Their Transport is replaced by a guarded clone of BaseTransport.
	Registry registry.Settings
	// BaseTransport is cloned for upstream connections (nil: Go's default
	// transport; its TLS roots honour SSL_CERT_FILE).
	BaseTransport *http.Transport
	// AllowAddresses are further "host:port" destinations that may resolve
	// to non-public addresses.
	AllowAddresses []string
	// ReadTokens, when any, are required (Authorization: Bearer) to read.
	// PublishTokens are required to publish; without any, publishing is
	// refused.
	ReadTokens, PublishTokens []string
	// Logger receives access logs and errors (nil: discarded).
	Logger *slog.Logger
	// IndexTTL is how long a cached upstream version list is served before
	// it is refreshed (default 10 minutes; a failed refresh serves the old
	// list).
	IndexTTL time.Duration
	// LeaseTTL is the lifetime of a download lease, renewed every third of
	// it while the download runs (default 10 s). A lease whose holder is
	// known dead on this machine is broken at once (storage.Holder).
	LeaseTTL time.Duration
	// PullTimeout bounds one pull-through download (default 30 minutes).
	PullTimeout time.Duration
	// PresignTTL, when positive, answers archive requests with a redirect
	// to a presigned storage URL valid that long, where the backend can
	// sign.
	PresignTTL time.Duration
	// MaxArchiveSize bounds upstream archives and uploads (default 2 GiB).
	MaxArchiveSize int64
	// TempDir receives, in a directory of this process's own
	// (storage.ProcessTempDir), downloads and uploads before they are
	// checked (default os.TempDir()). Those of dead processes of this
	// machine are removed when a Server is made.
	TempDir string
	// Retry says how upstream requests are retried after a 429, a 5xx, a
	// broken connection or no answer within 5 s (zero value: 3 tries,
	// pauses from 500 ms, Retry-After honoured up to 5 s). The registry client's own retry
	// settings (retry_count, TF_REGISTRY_DISCOVERY_RETRY,
	// TF_PROVIDER_DOWNLOAD_RETRY) do not apply to the server.
	Retry RetryPolicy
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Server serves the mirror and registry protocols over a Store.
type Server struct {
	opts      Options
	store     *storage.Store
	upstreams map[svchost.Hostname]bool
	up        *upstream
	guard     *dialGuard
	read      tokenSet
	publish   tokenSet
	signer    *urlSigner
	docs      docCache
	// versionsMem holds *versionsDoc by key, used while fresh.
	versionsMem sync.Map
	log         *slog.Logger
	metrics     *metrics
	// self names this process in leases and temporary files.
	self storage.Holder
	// tempDir is this process's directory below TempDir.
	tempDir string

	flight singleflight.Group
	// pulls tracks in-flight upstream downloads for Drain; base is their
	// context, canceled by Close.
	pulls      sync.WaitGroup
	base       context.Context
	cancelBase context.CancelFunc
}

// New checks the options and builds a Server. It removes what dead
// processes left behind: the temporary files of their interrupted writes
// in a local store (at once for dead processes of this machine, after an
// hour for others: storage.SweepTemp) and their directories below
// TempDir.
func New(opts Options) (*Server, error) {
	if opts.Store == nil {
		return nil, errors.New("serve: no storage")
	}
	setDefaults(&opts)
	s := &Server{opts: opts, store: opts.Store, upstreams: map[svchost.Hostname]bool{}, log: opts.Logger}
	s.guard = newDialGuard(opts.AllowAddresses)
	for _, u := range opts.Upstreams {
		h, err := svchost.ForComparison(u)
		if err != nil {
			return nil, fmt.Errorf("serve: invalid upstream host %q: %w", u, err)
		}
		s.upstreams[h] = true
		s.guard.allowURL("https://" + string(h) + "/")
	}
	for _, services := range opts.Registry.HostServices {
		for _, v := range services {
			if str, ok := v.(string); ok {
				s.guard.allowURL(str)
			}
		}
	}
	s.metrics = newMetrics()
	s.up = newUpstream(registry.New(s.upstreamSettings()), opts.Registry.Getenv)
	s.read = newTokenSet(opts.ReadTokens)
	s.publish = newTokenSet(opts.PublishTokens)
	s.signer = &urlSigner{store: opts.Store, now: opts.Now}
	s.self = storage.Self()
	if n, err := opts.Store.SweepTemp(time.Hour, opts.Now()); n > 0 || err != nil {
		s.log.Info("removed temporary files of interrupted writes", "count", n, "error", err)
	}
	tmp, removed, err := storage.ProcessTempDir(opts.TempDir)
	if err != nil {
		return nil, fmt.Errorf("serve: temporary directory: %w", err)
	}
	if removed > 0 {
		s.log.Info("removed the temporary files of dead server processes", "directories", removed)
	}
	s.tempDir = tmp
	s.base, s.cancelBase = context.WithCancel(context.Background())
	return s, nil
}

// upstreamSettings are the registry client settings for upstream requests:
// every connection through the dial guard, bounded responses, and retries
// done by retryTransport alone (the client's own are off: zero metadata
// retries here, zero download retries in upstream.fetch).
func (s *Server) upstreamSettings() registry.Settings {
	settings := s.opts.Registry
	limited := &limitTransport{base: guardedTransport(s.opts.BaseTransport, s.guard), max: s.opts.MaxArchiveSize}
	settings.Transport = &retryTransport{base: limited, policy: s.opts.Retry, now: s.opts.Now,
		failures: func(reason string) { s.metrics.upstreamFailures.WithLabelValues(reason).Inc() }}
	noRetries := 0
	settings.RetryCount = &noRetries
	if settings.RequestTimeout < s.opts.Retry.budget() {
		settings.RequestTimeout = s.opts.Retry.budget() // room for the retries of one request
	}
	getenv := settings.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	settings.Getenv = func(k string) string {
		if k == "TF_REGISTRY_DISCOVERY_RETRY" {
			return ""
		}
		return getenv(k)
	}
	return settings
}

func setDefaults(o *Options) {
	if len(o.Upstreams) == 0 {
		o.Upstreams = DefaultUpstreams
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.IndexTTL == 0 {
		o.IndexTTL = 10 * time.Minute
	}
	if o.LeaseTTL == 0 {
		o.LeaseTTL = 10 * time.Second
	}
	if o.PullTimeout == 0 {
		o.PullTimeout = 30 * time.Minute
	}
	if o.MaxArchiveSize == 0 {
		o.MaxArchiveSize = 2 << 30
	}
	if o.TempDir == "" {
		o.TempDir = os.TempDir()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	o.Retry.setDefaults()
}

// Drain waits until the upstream downloads in flight have finished, or ctx
// ends. Call it after http.Server.Shutdown so that no new ones start.
func (s *Server) Drain(ctx context.Context) error {
	done := make(chan struct{})
	go func() { s.pulls.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		s.cancelBase()
		<-done
		return ctx.Err()
	}
}

// Close cancels downloads still running and removes the temporary
// directory.
func (s *Server) Close() {
	s.cancelBase()
	s.pulls.Wait()
	os.RemoveAll(s.tempDir)
}

// Handler is the server's HTTP handler.
func (s *Server) Handler() http.Handler {
	return s.observe(http.HandlerFunc(s.route))
}

// route dispatches a checked request path.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	segs, err := checkPath(r)
	if err != nil {
		setRoute(w, "invalid")
		http.Error(w, "invalid request path", http.StatusBadRequest)
		return
	}
	switch {
	case len(segs) == 1 && segs[0] == "healthz":
		setRoute(w, "healthz")
		s.serveHealth(w, r)
		return
	case len(segs) == 1 && segs[0] == "metrics":
		setRoute(w, "metrics")
		s.metrics.handler().ServeHTTP(w, r)
		return
	case len(segs) >= 2 && segs[0] == "api" && segs[1] == "v1":
		s.servePublish(w, r, segs[2:])
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		setRoute(w, "method")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if !s.read.allows(r) && !s.signer.valid(r) {
		setRoute(w, "unauthorized")
		s.refuse(w, r, s.read)
		return
	}
	switch {
	case len(segs) == 2 && segs[0] == ".well-known" && segs[1] == "terraform.json":
		setRoute(w, "discovery")
		writeJSON(w, r, map[string]string{"providers.v1": "/v1/providers/", "modules.v1": "/v1/modules/"})
	case len(segs) >= 2 && segs[0] == "v1" && segs[1] == "providers":
		s.serveProviderRegistry(w, r, segs[2:])
	case len(segs) >= 2 && segs[0] == "v1" && segs[1] == "modules":
		s.serveModuleRegistry(w, r, segs[2:])
	case len(segs) == 4 && s.isUpstream(segs[0]):
		s.serveMirror(w, r, segs)
	default:
		setRoute(w, "not_found")
		http.NotFound(w, r)
	}
}

// serveHealth answers 200 when storage answers within two seconds, else
// 503, so that a load balancer stops sending requests to a replica that
// lost its bucket.
func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		s.log.Error("health check", "error", err)
		http.Error(w, "storage unavailable", http.StatusServiceUnavailable)
		return
	}
	io.WriteString(w, "ok\n")
}

func (s *Server) isUpstream(seg string) bool {
	h, ok := parseHost(seg)
	return ok && s.upstreams[h]
}

// refuse answers 401 without credentials and 403 with wrong ones.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, set tokenSet) {
	if r.Header.Get("Authorization") == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="tfdeps"`)
		http.Error(w, "authentication required", http.StatusUnauthorized)
		return
	}
	http.Error(w, "invalid credentials", http.StatusForbidden)
}

// limitTransport fails responses larger than max bytes.
type limitTransport struct {
	base http.RoundTripper
	max  int64
}

func (t *limitTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	if resp.ContentLength > t.max {
		resp.Body.Close()
		return nil, fmt.Errorf("response from %s is larger than %d bytes", r.URL.Host, t.max)
	}
	resp.Body = &limitedBody{ReadCloser: resp.Body, left: t.max}
	return resp, nil
}

type limitedBody struct {
	io.ReadCloser
	left int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errors.New("response body exceeds the size limit")
	}
	if int64(len(p)) > b.left {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n, errors.New("response body exceeds the size limit")
	}
	return n, err
}

// clientIP is the request's remote host, for logs.
func clientIP(r *http.Request) string {
	if i := strings.LastIndexByte(r.RemoteAddr, ':'); i > 0 {
		return r.RemoteAddr[:i]
	}
	return r.RemoteAddr
}
