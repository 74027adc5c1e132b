package registrytest

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Options configure a Server.
type Options struct {
	// Providers served by the registry and the mirror.
	Providers []Provider
	// NoPackagesMap leaves the "packages" map out of download responses.
	NoPackagesMap bool
	// NoSigningKeys publishes an empty gpg_public_keys list.
	NoSigningKeys bool
	// SignWith selects the key that signs SHA256SUMS (default TestKey). The
	// published key is always TestKey, plus the signing key when it is
	// neither TestKey nor OtherKey. Provider.SignWith overrides it.
	SignWith Key
	// TerraformStyle serves download responses as the Terraform registry
	// does: no "packages" map, and as signing key only the key that signs
	// the provider's SHA256SUMS (TestKey when that is OtherKey), with
	// "trust_signature" (PartnerKey's made by PartnersTestKey, empty for
	// the others), "source" and "source_url".
	TerraformStyle bool
	// Tokens, when set, makes the metadata endpoints require
	// "Authorization: Bearer T" with T among them: 401 without, 403 with a
	// wrong token.
	Tokens []string
	// Warnings are returned in every versions response.
	Warnings []string
	// Modules served by the module registry (modules.go).
	Modules []Module
}

// Provider is one provider of the fake registry.
type Provider struct {
	Namespace, Type string
	Versions        []Version
	// SignWith, when not TestKey, is the key that signs this provider's
	// SHA256SUMS instead of Options.SignWith.
	SignWith Key
	// BadTrustSignature publishes a trust signature that does not verify
	// (TerraformStyle with a PartnerKey signer).
	BadTrustSignature bool
}

// Version is one provider version.
type Version struct {
	Version string
	// Protocols defaults to ["5.0"].
	Protocols []string
	// Platforms defaults to DefaultPlatforms().
	Platforms []string
	// Size is the size in bytes of the executable inside each zip; small
	// when zero.
	Size int64
	// Deflate compresses the executable (content that shrinks about 3:1)
	// instead of storing it (incompressible content).
	Deflate bool
}

// DefaultPlatforms returns the platforms of a Version that names none.
func DefaultPlatforms() []string { return []string{"darwin_arm64", "linux_amd64", "windows_amd64"} }

// Server is a running fake registry and network mirror.
type Server struct {
	opts    Options
	ca      *authority
	srv     *httptest.Server
	signer  *signer
	testKey *signer
	keys    map[Key]*signer // every test key
	closing chan struct{}

	mu        sync.Mutex
	packages  map[packageID]PackageInfo
	deflated  map[packageID]*deflatedPieces // Version.Deflate packages
	requests  []Request
	faults    map[Endpoint][]*Fault
	overrides map[string]http.HandlerFunc
	closed    bool
}

// Request is a recorded request.
type Request struct {
	Endpoint Endpoint
	Method   string
	Path     string
	Header   http.Header
}

// New starts a server for a test and closes it when the test ends.
func New(t testing.TB, opts Options) *Server {
	t.Helper()
	s, err := Start(opts)
	if err != nil {
		t.Fatalf("starting fake registry: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// Start starts a server listening on 127.0.0.1. Call Close when done.
func Start(opts Options) (*Server, error) {
	ca, err := newAuthority()
	if err != nil {
		return nil, err
	}
	s := &Server{
		opts:      opts,
		ca:        ca,
		closing:   make(chan struct{}),
		packages:  map[packageID]PackageInfo{},
		deflated:  map[packageID]*deflatedPieces{},
		faults:    map[Endpoint][]*Fault{},
		overrides: map[string]http.HandlerFunc{},
	}
	s.keys = map[Key]*signer{}
	for k := TestKey; k <= PartnerKey; k++ {
		if s.keys[k], err = loadSigner(k); err != nil {
			return nil, err
		}
	}
	if s.signer = s.keys[opts.SignWith]; s.signer == nil {
		return nil, fmt.Errorf("unknown test key %d", opts.SignWith)
	}
	s.testKey = s.keys[TestKey]
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening on loopback: %w", err)
	}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	s.srv.Listener.Close()
	s.srv.Listener = ln
	s.srv.TLS = &tls.Config{Certificates: []tls.Certificate{ca.leafTLS}}
	s.srv.StartTLS()
	return s, nil
}

// Close stops the server, releasing hanging handlers first.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.closing)
	s.mu.Unlock()
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// URL returns the server's base URL, "https://127.0.0.1:PORT".
func (s *Server) URL() string { return s.srv.URL }

// Host returns "127.0.0.1:PORT".
func (s *Server) Host() string { return strings.TrimPrefix(s.srv.URL, "https://") }

// ProvidersBaseURL is the providers.v1 base URL, ending in "/".
func (s *Server) ProvidersBaseURL() string { return s.srv.URL + "/v1/providers/" }

// MirrorBaseURL is the base URL of the network mirror, ending in "/".
func (s *Server) MirrorBaseURL() string { return s.srv.URL + "/mirror/" }

// Transport returns a fresh transport that trusts the server's CA.
func (s *Server) Transport() *http.Transport {
	return &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: s.ca.pool.Clone()},
		ForceAttemptHTTP2: true,
	}
}

// Client returns a client that trusts the server's CA.
func (s *Server) Client() *http.Client { return &http.Client{Transport: s.Transport()} }

// KeyID returns the "%016X" primary key ID of the key signing SHA256SUMS.
func (s *Server) KeyID() string { return s.signer.KeyID() }

// KeyIDOf returns the "%016X" primary key ID of test key k ("" for an
// unknown key).
func (s *Server) KeyIDOf(k Key) string {
	if key := s.keys[k]; key != nil {
		return key.KeyID()
	}
	return ""
}

// Requests returns every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Count returns how many requests reached endpoint e.
func (s *Server) Count(e Endpoint) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		if r.Endpoint == e {
			n++
		}
	}
	return n
}

// CountPath returns how many requests were made for the exact URL path.
func (s *Server) CountPath(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		if r.Path == path {
			n++
		}
	}
	return n
}

// Paths returns the distinct request paths seen, sorted.
func (s *Server) Paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
	for _, r := range s.requests {
		seen[r.Path] = true
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// ResetRequests forgets the recorded requests.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
}

// Override serves path (exact match) with h instead of the normal handler,
// for tests that need a hand-written response. Requests are still recorded.
func (s *Server) Override(path string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.overrides[path] = h
}

func (s *Server) record(e Endpoint, r *http.Request) http.HandlerFunc {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Endpoint: e, Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone()})
	return s.overrides[r.URL.Path]
}
