package cloudfake

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Domain is the domain under which the proxy serves its handler over
// HTTPS: Azure's metadata host is "metadata." + Domain and a storage
// account's blob endpoint is ACCOUNT.blob.Domain.
const Domain = "fake.test"

// Proxy is an HTTP proxy that answers CONNECT to any host of Domain by
// serving Handler itself over TLS, with a certificate of its own
// authority (CertPEM). Clients set it as their HTTPS proxy and trust
// CertPEM.
type Proxy struct {
	// URL is the proxy's address (http://127.0.0.1:PORT).
	URL string
	// CertPEM is the certificate to trust, PEM-encoded.
	CertPEM []byte

	srv   *httptest.Server
	inner *http.Server
	conns *connListener
}

// StartProxy starts a proxy serving h.
func StartProxy(h http.Handler) (*Proxy, error) {
	cert, certPEM, err := selfSigned()
	if err != nil {
		return nil, err
	}
	p := &Proxy{CertPEM: certPEM, conns: newConnListener()}
	p.inner = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go p.inner.Serve(tls.NewListener(p.conns, &tls.Config{Certificates: []tls.Certificate{cert}}))
	p.srv = httptest.NewServer(http.HandlerFunc(p.connect))
	p.URL = p.srv.URL
	return p, nil
}

// Close stops the proxy.
func (p *Proxy) Close() {
	p.srv.Close()
	p.inner.Close()
	p.conns.Close()
}

// Client is an HTTP client that goes through the proxy and trusts it.
func (p *Proxy) Client() *http.Client {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(p.CertPEM)
	u, _ := http.NewRequest(http.MethodGet, p.URL, nil)
	return &http.Client{Transport: &http.Transport{
		Proxy:           http.ProxyURL(u.URL),
		TLSClientConfig: &tls.Config{RootCAs: pool},
	}}
}

func (p *Proxy) connect(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect {
		http.Error(w, "only CONNECT", http.StatusMethodNotAllowed)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "no hijacking", http.StatusInternalServerError)
		return
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	if _, err := conn.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		conn.Close()
		return
	}
	p.conns.push(&bufferedConn{Conn: conn, r: buf.Reader})
}

// bufferedConn is a hijacked connection with what its reader buffered.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// connListener hands the hijacked connections to the TLS server.
type connListener struct {
	ch   chan net.Conn
	once sync.Once
	done chan struct{}
}

func newConnListener() *connListener {
	return &connListener{ch: make(chan net.Conn), done: make(chan struct{})}
}

func (l *connListener) push(c net.Conn) {
	select {
	case l.ch <- c:
	case <-l.done:
		c.Close()
	}
}

func (l *connListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, errors.New("closed")
	}
}

func (l *connListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *connListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

// selfSigned is a certificate for Domain and its subdomains, its own
// authority.
func selfSigned() (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "cloudfake"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:              []string{Domain, "*." + Domain, "*.blob." + Domain},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, certPEM, nil
}
