package tfefake

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// Running is a Server serving HTTPS on 127.0.0.1.
type Running struct {
	*Server
	// Host is the server's address as a hostname for a backend
	// ("127.0.0.1:PORT").
	Host string
	// URL is https://Host.
	URL string
	// APIURL is the base URL of the tfe.v2 services, for a CLI
	// configuration host block.
	APIURL string
	// CertPEM is the certificate of the authority that signed the
	// server's, PEM-encoded: what a client trusts.
	CertPEM []byte

	srv *httptest.Server
}

// Start serves s over HTTPS until Close.
func (s *Server) Start() (*Running, error) {
	leaf, caPEM, err := registrytest.LocalCertificate()
	if err != nil {
		return nil, err
	}
	hs := httptest.NewUnstartedServer(s)
	hs.TLS = &tls.Config{Certificates: []tls.Certificate{leaf}}
	hs.Config.ReadHeaderTimeout = 10 * time.Second
	hs.StartTLS()
	host := strings.TrimPrefix(hs.URL, "https://")
	return &Running{Server: s, Host: host, URL: hs.URL, APIURL: hs.URL + apiPrefix, CertPEM: caPEM, srv: hs}, nil
}

// Close stops the server.
func (r *Running) Close() { r.srv.Close() }

// Client is an HTTP client that trusts the server.
func (r *Running) Client() *http.Client {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(r.CertPEM)
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
}
