package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/opentofu/svchost"
	"github.com/tfdeps/tfdeps/flavour"
)

// ProvidersServiceID is the service providers are installed through.
const ProvidersServiceID = "providers.v1"

// Errors from Services.ProvidersV1 that are not failures of the host.
var (
	ErrNoProviderRegistry = errors.New("host offers no provider registry")
	ErrOtherProtocol      = errors.New("host supports another provider registry protocol version")
)

// Disco performs remote service discovery and remembers the answers for
// its lifetime. It is safe for concurrent use.
type Disco struct {
	client *http.Client
	// retrying, for the Terraform flavour, sends the discovery request
	// with Terraform's retries (discovery_terraform.go); nil for OpenTofu,
	// which asks once.
	retrying  *retryablehttp.Client
	userAgent string
	creds     *Credentials
	forced    map[svchost.Hostname]map[string]any

	mu    sync.Mutex
	cache map[svchost.Hostname]*Services
}

// Services is the discovery answer for one host.
type Services struct {
	Host svchost.Hostname
	// base is the URL relative service URLs resolve against: the final
	// discovery URL after redirects.
	base     *url.URL
	services map[string]any
}

// NewDisco returns a discovery client using the settings' transport,
// User-Agent, credentials and host blocks. OpenTofu's asks once, bounded by
// the request timeout; Terraform's retries (newTerraformDiscoveryClient).
func NewDisco(s Settings, creds *Credentials) *Disco {
	d := &Disco{
		client:    &http.Client{Transport: s.transport(), Timeout: s.requestTimeout()},
		userAgent: s.userAgent(),
		creds:     creds,
		forced:    map[svchost.Hostname]map[string]any{},
		cache:     map[svchost.Hostname]*Services{},
	}
	if s.Flavour == flavour.Terraform {
		d.retrying = newTerraformDiscoveryClient(s)
	}
	for label, services := range s.HostServices {
		if host, err := svchost.ForComparison(label); err == nil {
			d.forced[host] = services
		}
	}
	return d
}

func discoveryURL(host svchost.Hostname) *url.URL {
	return &url.URL{Scheme: "https", Host: string(host), Path: "/.well-known/terraform.json"}
}

// Discover returns the services of host, from a host block, the cache or
// the network. Errors carry OpenTofu's texts; a 404 is "no services".
func (d *Disco) Discover(ctx context.Context, host svchost.Hostname) (*Services, error) {
	if forced, ok := d.forced[host]; ok {
		return &Services{Host: host, base: discoveryURL(host), services: forced}, nil
	}
	d.mu.Lock()
	cached, ok := d.cache[host]
	d.mu.Unlock()
	if ok {
		return cached, nil
	}
	svc, err := d.fetch(ctx, host)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.cache[host] = svc
	d.mu.Unlock()
	return svc, nil
}

func (d *Disco) fetch(ctx context.Context, host svchost.Hostname) (*Services, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, discoveryURL(host).String(), nil)
	if err != nil {
		return nil, fmt.Errorf("failed to request discovery document: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", d.userAgent)
	if token, err := d.creds.Token(host); err == nil && token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := d.do(req)
	if err != nil {
		return nil, fmt.Errorf("failed to request discovery document: %w", err)
	}
	defer resp.Body.Close()
	svc := &Services{Host: host, base: resp.Request.URL, services: map[string]any{}}
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		svc.services = nil // no document: "host does not provide a … service"
		return svc, nil
	default:
		return nil, fmt.Errorf("failed to request discovery document: %s", resp.Status)
	}
	if svc.services, err = decodeDiscoveryResponse(resp); err != nil {
		return nil, err
	}
	return svc, nil
}

// do sends the discovery request: once (OpenTofu) or with Terraform's
// retries, whose exhaustion reads "GET URL giving up after N attempt(s)".
func (d *Disco) do(req *http.Request) (*http.Response, error) {
	if d.retrying == nil {
		return d.client.Do(req)
	}
	rreq, err := retryablehttp.FromRequest(req)
	if err != nil {
		return nil, err
	}
	return d.retrying.Do(rreq)
}

// decodeDiscoveryResponse checks the content type and size of a 200
// response and decodes its body.
func decodeDiscoveryResponse(resp *http.Response) (map[string]any, error) {
	ct := resp.Header.Get("Content-Type")
	mediaType, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return nil, fmt.Errorf("discovery URL has a malformed Content-Type %q", ct)
	}
	if mediaType != "application/json" {
		return nil, fmt.Errorf("discovery URL returned an unsupported Content-Type %q", mediaType)
	}
	if resp.ContentLength > discoveryLimit {
		return nil, fmt.Errorf("discovery doc response is too large (got %d bytes; limit %d)", resp.ContentLength, discoveryLimit)
	}
	body, err := readPrefix(resp.Body, discoveryLimit)
	if err != nil {
		return nil, fmt.Errorf("error reading discovery document body: %v", err)
	}
	return DecodeDiscovery(body)
}

// DecodeDiscovery decodes a discovery document, which must be a JSON object.
func DecodeDiscovery(body []byte) (map[string]any, error) {
	var services map[string]any
	if err := checkResponseNesting(body); err != nil {
		return nil, fmt.Errorf("failed to decode discovery document as a JSON object: %v", err)
	}
	if err := json.Unmarshal(body, &services); err != nil {
		return nil, fmt.Errorf("failed to decode discovery document as a JSON object: %v", err)
	}
	if services == nil {
		services = map[string]any{}
	}
	return services, nil
}

// ProvidersV1 returns the providers.v1 base URL. It fails with
// ErrNoProviderRegistry, ErrOtherProtocol, or a "failed to parse service
// URL" error.
func (s *Services) ProvidersV1() (*url.URL, error) {
	raw, present := s.services[ProvidersServiceID]
	if !present {
		for id := range s.services {
			if strings.HasPrefix(id, "providers.") {
				return nil, ErrOtherProtocol
			}
		}
		return nil, ErrNoProviderRegistry
	}
	str, ok := raw.(string)
	if !ok {
		return nil, ErrOtherProtocol
	}
	u, err := s.resolve(str)
	if err != nil {
		return nil, fmt.Errorf("failed to parse service URL: %v", err)
	}
	return u, nil
}

func (s *Services) resolve(str string) (*url.URL, error) {
	u, err := url.Parse(str)
	if err != nil {
		return nil, err
	}
	u = s.base.ResolveReference(u)
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("unsupported scheme %s", u.Scheme)
	}
	if u.User != nil {
		return nil, errors.New("embedded username/password information is not permitted")
	}
	u.Fragment = ""
	u.RawFragment = ""
	return u, nil
}
