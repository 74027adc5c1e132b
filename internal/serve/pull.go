package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/serve/storage"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// leasePoll is how often a replica waiting for another's download looks
// for the finished archive.
const leasePoll = 100 * time.Millisecond

// detached is the context of work shared by several requests: it outlives
// any one client but not the server.
func (s *Server) detached() (context.Context, context.CancelFunc) {
	return context.WithTimeout(s.base, s.opts.PullTimeout)
}

func (s *Server) serveMirrorArchive(w http.ResponseWriter, r *http.Request, p addrs.Provider, v versions.Version, pl addrs.Platform) {
	key := archiveKey(p, v, pl)
	if _, err := s.store.Stat(r.Context(), key); err == nil {
		s.metrics.cache.WithLabelValues("archive", "hit").Inc()
	} else if !isNotFound(err) {
		s.storageFailure(w, r, err)
		return
	} else {
		s.metrics.cache.WithLabelValues("archive", "miss").Inc()
		if err := s.pull(r.Context(), recordKey(p, v, pl), func(ctx context.Context) error { return s.pullArchive(ctx, p, v, pl) }); err != nil {
			s.upstreamFailure(w, r, "archive", err)
			return
		}
	}
	s.serveObject(w, r, key, "application/zip")
}

// pull makes sure key exists, calling produce at most once per key at a
// time in this process (single-flight) and, across replicas sharing the
// bucket, only while holding the key's lease; the others wait for the
// object to appear. For a package, key is its record, which is stored
// after the archive: an archive whose record a crash kept from being
// written is pulled again. The work runs in the server's context, so a client
// that goes away does not cancel it for the others.
func (s *Server) pull(ctx context.Context, key string, produce func(context.Context) error) error {
	ch := s.flight.DoChan("object:"+key, func() (any, error) {
		s.pulls.Add(1)
		defer s.pulls.Done()
		wctx, cancel := s.detached()
		defer cancel()
		return nil, s.produceOnce(wctx, key, produce)
	})
	select {
	case res := <-ch:
		return res.Err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Server) produceOnce(ctx context.Context, key string, produce func(context.Context) error) error {
	for {
		if _, err := s.store.Stat(ctx, key); err == nil {
			return nil
		} else if !isNotFound(err) {
			return err
		}
		lease, err := s.store.AcquireLease(ctx, leaseKey(key), s.self, s.opts.LeaseTTL, s.opts.Now)
		if errors.Is(err, storage.ErrLeaseHeld) {
			select {
			case <-time.After(leasePoll):
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if err != nil {
			return err
		}
		return s.underLease(ctx, lease, key, produce)
	}
}

// underLease runs produce while renewing the lease, then releases it.
func (s *Server) underLease(ctx context.Context, lease *storage.Lease, key string, produce func(context.Context) error) error {
	done := make(chan struct{})
	defer func() {
		close(done)
		lease.Release(context.WithoutCancel(ctx))
	}()
	go func() {
		t := time.NewTicker(s.opts.LeaseTTL / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				lease.Renew(ctx, s.opts.LeaseTTL, s.opts.Now)
			}
		}
	}()
	if _, err := s.store.Stat(ctx, key); err == nil {
		return nil // another replica finished between our check and the lease
	}
	return produce(ctx)
}

// pullArchive downloads and authenticates one package from upstream, then
// stores the archive and, after it, its record.
func (s *Server) pullArchive(ctx context.Context, p addrs.Provider, v versions.Version, pl addrs.Platform) error {
	start := time.Now()
	s.metrics.inflight.Inc()
	defer s.metrics.inflight.Dec()
	f, err := s.up.fetch(ctx, p, v, pl, s.tempDir)
	if err != nil {
		return err
	}
	defer f.archive.Remove()
	s.metrics.upstreamBytes.Add(float64(f.archive.Size))
	s.compareStated(ctx, p, v, pl, f.h1)
	rec, err := s.storePackage(ctx, p, v, pl, f, "upstream")
	if err != nil {
		return err
	}
	s.metrics.upstreamFetch.Observe(time.Since(start).Seconds())
	s.log.Info("stored package from upstream", "provider", p.String(), "version", v.String(), "platform", pl.String(),
		"bytes", f.archive.Size, "authentication", rec.Auth, "key_ids", rec.KeyIDs)
	return nil
}

// compareStated logs when the h1: the registry stated for a package (and
// VERSION.json listed until now) is not the one computed from the archive,
// which replaces it from now on.
func (s *Server) compareStated(ctx context.Context, p addrs.Provider, v versions.Version, pl addrs.Platform, computed hashes.Hash) {
	var doc platformsDoc
	if err := s.readImmutable(ctx, platformsKey(p, v), &doc); err != nil {
		return
	}
	for _, h := range parseHashList(doc.Platforms[pl.String()]) {
		if h.Scheme() == hashes.SchemeH1 && h != computed {
			s.log.Warn("the upstream registry stated a wrong h1: hash; listing the computed one",
				"provider", p.String(), "version", v.String(), "platform", pl.String(), "stated", string(h), "computed", string(computed))
		}
	}
}

// storePackage stores an authenticated archive and, after it, its record.
func (s *Server) storePackage(ctx context.Context, p addrs.Provider, v versions.Version, pl addrs.Platform, f *fetched, origin string) (*packageRecord, error) {
	file, err := os.Open(f.archive.Path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	if _, err := s.store.Put(ctx, archiveKey(p, v, pl), file, storage.PutOptions{ContentType: "application/zip"}); err != nil {
		return nil, fmt.Errorf("storing archive: %w", err)
	}
	rec := &packageRecord{
		Hashes:  hashes.Strings(hashes.SortedUnique([]hashes.Hash{f.h1, f.archive.ZH()})),
		Size:    f.archive.Size,
		Auth:    f.auth.Summary(),
		KeyIDs:  f.auth.KeyIDs(),
		Stored:  s.opts.Now().UTC(),
		Origin:  origin,
		Warning: f.auth.Warnings,
	}
	if err := writeDoc(ctx, s.store, recordKey(p, v, pl), rec); err != nil {
		return nil, fmt.Errorf("storing package record: %w", err)
	}
	return rec, nil
}

// serveObject sends a stored object, or redirects to a presigned URL when
// configured and the backend can sign.
func (s *Server) serveObject(w http.ResponseWriter, r *http.Request, key, contentType string) {
	if s.opts.PresignTTL > 0 {
		u, err := s.store.SignedURL(r.Context(), key, s.opts.PresignTTL)
		if err == nil {
			http.Redirect(w, r, u, http.StatusFound)
			return
		}
		if !errors.Is(err, storage.ErrNoSignedURL) {
			s.log.Warn("presigning failed; serving the object", "key", key, "error", err)
		}
	}
	obj, err := s.store.Open(r.Context(), key)
	if err != nil {
		s.storageFailure(w, r, err)
		return
	}
	defer obj.Close()
	w.Header().Set("Content-Type", contentType)
	if f, ok := storage.LocalFile(obj); ok {
		http.ServeContent(w, r, "", obj.ModTime(), f) // lets the kernel copy (sendfile)
		return
	}
	http.ServeContent(w, r, "", obj.ModTime(), obj)
}

func (s *Server) storageFailure(w http.ResponseWriter, r *http.Request, err error) {
	if isNotFound(err) {
		http.NotFound(w, r)
		return
	}
	s.log.Error("storage", "path", r.URL.EscapedPath(), "error", err)
	http.Error(w, "storage error", http.StatusInternalServerError)
}

// upstreamFailure maps an upstream error to the answer the network mirror
// protocol expects: 404 for what upstream does not have; for an upstream
// 429 or 503 that outlasted the retries, the same status with a
// Retry-After (the upstream's, else DefaultRetryAfter), which OpenTofu's
// download client and go-retryablehttp clients honour; 502 for other
// upstream failures (other 5xx, broken connections, failed checks); 504
// for a timeout. The body is the error text.
func (s *Server) upstreamFailure(w http.ResponseWriter, r *http.Request, kind string, err error) {
	var (
		unknown  *registry.ProviderUnknownError
		platform *registry.PlatformUnsupportedError
		protocol *registry.ProtocolUnsupportedError
		status   *UpstreamStatusError
	)
	switch {
	case errors.As(err, &unknown), errors.As(err, &platform), errors.As(err, &protocol):
		http.Error(w, publicError(err), http.StatusNotFound)
		return
	case errors.Is(err, context.Canceled) && r.Context().Err() != nil:
		return // the client went away
	}
	s.metrics.upstreamErrors.WithLabelValues(kind).Inc()
	s.log.Error("upstream", "kind", kind, "path", r.URL.EscapedPath(), "error", err)
	code := http.StatusBadGateway
	switch {
	case errors.As(err, &status) && (status.Status == http.StatusTooManyRequests || status.Status == http.StatusServiceUnavailable):
		code = status.Status
		after := status.RetryAfter
		if after <= 0 {
			after = DefaultRetryAfter
		}
		w.Header().Set("Retry-After", strconv.FormatInt(int64((after+time.Second-1)/time.Second), 10))
	case errors.Is(err, context.DeadlineExceeded):
		code = http.StatusGatewayTimeout
	}
	http.Error(w, "upstream: "+publicError(err), code)
}

// Internal detail in error texts: URLs (which may carry credentials or
// name internal services) and IP addresses (resolvers, internal hosts).
var (
	urlInText     = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s"'<>]+`)
	addressInText = regexp.MustCompile(`\b(?:[0-9]{1,3}\.){3}[0-9]{1,3}(?::[0-9]+)?\b|\[[0-9a-fA-F:.%a-z0-9]+\](?::[0-9]+)?`)
	pathInText    = regexp.MustCompile(`(?:^|[\s:"])(/[^\s:"]+)`)
)

// publicError is the text of err for a client: what failed, without
// internal detail (URLs, addresses, local paths), which only the log gets
// (upstreamFailure logs err whole).
func publicError(err error) string {
	s := urlInText.ReplaceAllString(err.Error(), "(URL withheld)")
	s = addressInText.ReplaceAllString(s, "(address withheld)")
	return pathInText.ReplaceAllStringFunc(s, func(m string) string {
		return strings.TrimSuffix(m, strings.TrimLeft(m, " \t\n:\"")) + "(path withheld)"
	})
}

// DefaultRetryAfter is the Retry-After sent with a 429 or 503 passed on
// from an upstream that gave none.
const DefaultRetryAfter = 10 * time.Second

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
