package registrytest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// authority is a throw-away certificate authority and the loopback server
// certificate it issued. A fresh one is made for every Server.
type authority struct {
	caPEM   []byte
	pool    *x509.CertPool
	leafTLS tls.Certificate
}

func newAuthority() (*authority, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generating CA key: %w", err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "tfdeps registrytest CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("creating CA certificate: %w", err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, err
	}
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generating server key: %w", err)
	}
	leafTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "127.0.0.1"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:     []string{"localhost"},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, caCert, &leafKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("creating server certificate: %w", err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	return &authority{
		caPEM:   pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		pool:    pool,
		leafTLS: tls.Certificate{Certificate: [][]byte{leafDER, caDER}, PrivateKey: leafKey},
	}, nil
}

// LocalCertificate makes a fresh authority and a server certificate it
// signs for 127.0.0.1, ::1 and localhost, valid for a day: the chain to
// serve, and the authority's certificate, PEM-encoded, for clients to
// trust (other test fakes serve HTTPS with it too).
func LocalCertificate() (tls.Certificate, []byte, error) {
	a, err := newAuthority()
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	return a.leafTLS, a.caPEM, nil
}

// CAPEM returns the PEM encoding of the certificate authority that signed the
// server's certificate.
func (s *Server) CAPEM() []byte { return append([]byte(nil), s.ca.caPEM...) }

// CertPool returns a pool holding only the server's certificate authority.
func (s *Server) CertPool() *x509.CertPool { return s.ca.pool.Clone() }

// WriteCAFile writes the CA certificate as PEM to dir/registrytest-ca.pem and
// returns the path, suitable for SSL_CERT_FILE in a child process.
func (s *Server) WriteCAFile(dir string) (string, error) {
	path := filepath.Join(dir, "registrytest-ca.pem")
	tmp, err := os.CreateTemp(dir, ".registrytest-ca-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(s.ca.caPEM); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", err
	}
	return path, nil
}
