package tfefake

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"
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
	leaf, caPEM, err := issue()
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

// issue makes an authority and a certificate it signs for 127.0.0.1 and
// localhost, valid for a day.
func issue() (tls.Certificate, []byte, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	now := time.Now()
	ca := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "tfefake authority"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	ca, err = x509.ParseCertificate(caDER)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "tfefake"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, leaf, ca, &key.PublicKey, caKey)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	return tls.Certificate{Certificate: [][]byte{der, caDER}, PrivateKey: key}, caPEM, nil
}
