package registrytest

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
)

// StartTLS serves h over HTTPS on 127.0.0.1 with the fake's certificate, so
// that a client trusting CAPEM (SSL_CERT_FILE) trusts it too: for a mirror
// or a server under test that runs beside the fake. Close it when done.
func (s *Server) StartTLS(h http.Handler) *httptest.Server {
	hs := httptest.NewUnstartedServer(h)
	hs.TLS = &tls.Config{Certificates: []tls.Certificate{s.ca.leafTLS}}
	hs.StartTLS()
	return hs
}
