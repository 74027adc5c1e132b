package serve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/tfdeps/tfdeps/internal/serve/storage"
)

// Listen says where Run serves and keeps its bucket.
type Listen struct {
	// Address is the TCP address to listen on (":8080").
	Address string
	// Storage is the bucket's location, as storage.Open takes it.
	Storage string
	// TLSCert and TLSKey are the certificate and key files for HTTPS (both
	// or neither: plain HTTP).
	TLSCert, TLSKey string
}

// drainTimeout bounds how long Run waits, once asked to stop, for the
// requests and downloads in flight.
const drainTimeout = 5 * time.Minute

// Run opens the storage at l.Storage and serves opts (whose Store it
// sets) on l.Address until ctx is done; then it stops accepting requests
// and drains those in flight and the downloads they started. It logs to
// opts.Logger, which must be set.
func Run(ctx context.Context, l Listen, opts Options) error {
	logger := opts.Logger
	st, err := storage.Open(ctx, l.Storage)
	if err != nil {
		return err
	}
	defer st.Close()
	opts.Store = st
	srv, err := New(opts)
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", l.Address)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	errc := make(chan error, 1)
	go func() {
		if l.TLSCert != "" {
			errc <- hs.ServeTLS(ln, l.TLSCert, l.TLSKey)
		} else {
			errc <- hs.Serve(ln)
		}
	}()
	logger.Info("serving", "address", ln.Addr().String(), "storage", l.Storage, "upstreams", opts.Upstreams, "tls", l.TLSCert != "")
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down: draining requests and downloads")
	sctx, cancel := context.WithTimeout(context.Background(), drainTimeout)
	defer cancel()
	err = errors.Join(hs.Shutdown(sctx), srv.Drain(sctx))
	logger.Info("stopped")
	return err
}
