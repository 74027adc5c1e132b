// Package ocitest runs an OCI distribution registry inside a test process,
// over TLS with a certificate of its own authority, so that OCI provider
// mirrors and oci:// module sources can be exercised without the network,
// by tfdeps and by a reference binary (which trusts the authority through
// SSL_CERT_FILE).
//
// The registry itself is go-containerregistry's in-memory implementation of
// the distribution API. This package adds TLS, optional basic
// authentication, request counting, and low-level helpers to store blobs and
// manifests; the files beside this one build the artifacts of each kind.
package ocitest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/go-containerregistry/pkg/registry"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// Server is a running in-process registry.
type Server struct {
	// Host is the registry's "127.0.0.1:PORT", as it appears in
	// repository references.
	Host string
	// Client trusts the server's authority; it carries the basic
	// credentials, when the server requires them, only if built by
	// AuthClient.
	Client *http.Client

	caPEM []byte
	srv   *http.Server
	ln    net.Listener

	mu       sync.Mutex
	user     string
	password string
	requests atomic.Int64
	blobGets atomic.Int64
	uploads  atomic.Int64
	tampered map[string][]byte
}

// Start starts a registry on a loopback port.
func Start() (*Server, error) {
	leaf, caPEM, err := registrytest.LocalCertificate()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{Host: ln.Addr().String(), caPEM: caPEM, ln: ln}
	reg := registry.New(registry.Logger(log.New(io.Discard, "", 0)))
	s.srv = &http.Server{Handler: s.wrap(reg), TLSConfig: &tls.Config{Certificates: []tls.Certificate{leaf}}}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	s.Client = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	go func() { _ = s.srv.ServeTLS(ln, "", "") }()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// CAPEM returns the PEM of the authority that signed the server's
// certificate.
func (s *Server) CAPEM() []byte { return append([]byte(nil), s.caPEM...) }

// CertPool returns a pool holding only the server's authority.
func (s *Server) CertPool() *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.caPEM)
	return pool
}

// WriteCAFile writes the authority's PEM to dir/ocitest-ca.pem and returns
// the path, for SSL_CERT_FILE in a child process.
func (s *Server) WriteCAFile(dir string) (string, error) {
	path := filepath.Join(dir, "ocitest-ca.pem")
	return path, os.WriteFile(path, s.caPEM, 0o644)
}

// RequireBasicAuth makes every later request without these credentials
// fail with 401 and a Basic challenge, as a private registry does.
func (s *Server) RequireBasicAuth(user, password string) {
	s.mu.Lock()
	s.user, s.password = user, password
	s.mu.Unlock()
}

// TamperBlob makes later downloads of the blob with this digest answer
// body instead (a corrupted store or a hostile proxy).
func (s *Server) TamperBlob(digest string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tampered == nil {
		s.tampered = map[string][]byte{}
	}
	s.tampered[digest] = body
}

// Requests returns how many requests the server has answered.
func (s *Server) Requests() int64 { return s.requests.Load() }

// BlobGets returns how many blob downloads (GET .../blobs/...) it answered.
func (s *Server) BlobGets() int64 { return s.blobGets.Load() }

// BlobUploads returns how many blob uploads it started (POST
// .../blobs/uploads/).
func (s *Server) BlobUploads() int64 { return s.uploads.Load() }

func (s *Server) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.mu.Lock()
		user, password := s.user, s.password
		s.mu.Unlock()
		if user != "" {
			u, p, ok := r.BasicAuth()
			if !ok || u != user || p != password {
				w.Header().Set("WWW-Authenticate", `Basic realm="ocitest"`)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = io.WriteString(w, `{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}`)
				return
			}
		}
		if r.Method == http.MethodPost && strings.Contains(r.URL.Path, "/blobs/uploads/") {
			s.uploads.Add(1)
		}
		if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/blobs/") {
			s.blobGets.Add(1)
			s.mu.Lock()
			body, ok := s.tampered[r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]]
			s.mu.Unlock()
			if ok {
				w.Header().Set("Content-Type", "application/octet-stream")
				w.Header().Set("Content-Length", fmt.Sprint(len(body)))
				_, _ = w.Write(body)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// Digest returns the "sha256:HEX" digest of b.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func (s *Server) do(ctx context.Context, method, url, contentType string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	s.mu.Lock()
	if s.user != "" {
		req.SetBasicAuth(s.user, s.password)
	}
	s.mu.Unlock()
	return s.Client.Do(req)
}

// PushBlob stores b in repository repo ("namespace/name") and returns its
// digest.
func (s *Server) PushBlob(ctx context.Context, repo string, b []byte) (string, error) {
	d := Digest(b)
	url := fmt.Sprintf("https://%s/v2/%s/blobs/uploads/?digest=%s", s.Host, repo, d)
	resp, err := s.do(ctx, http.MethodPost, url, "application/octet-stream", b)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return "", fmt.Errorf("ocitest: push blob %s: %s: %s", d, resp.Status, msg)
	}
	return d, nil
}

// PushManifest stores manifest under ref (a tag or a digest) with the given
// media type and returns the manifest's digest.
func (s *Server) PushManifest(ctx context.Context, repo, ref, mediaType string, manifest []byte) (string, error) {
	if ref == "" {
		return "", errors.New("ocitest: empty reference")
	}
	url := fmt.Sprintf("https://%s/v2/%s/manifests/%s", s.Host, repo, ref)
	resp, err := s.do(ctx, http.MethodPut, url, mediaType, manifest)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return "", fmt.Errorf("ocitest: push manifest %s:%s: %s: %s", repo, ref, resp.Status, msg)
	}
	return Digest(manifest), nil
}
