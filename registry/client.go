package registry

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/opentofu/svchost"
	"github.com/tfdeps/tfdeps/addrs"
)

// Client speaks the provider registry protocol to any number of hosts.
// It is safe for concurrent use; create one per process so that discovery
// answers are shared.
type Client struct {
	settings Settings
	creds    *Credentials
	disco    *Disco
	meta     *retryablehttp.Client
}

// New returns a client. Settings are read once, here.
func New(s Settings) *Client {
	s.Transport = s.transport() // one connection pool for every request
	creds := NewCredentials(s.environ(), s.Credentials, s.CredentialsHelper)
	return &Client{
		settings: s,
		creds:    creds,
		disco:    NewDisco(s, creds),
		meta:     newMetadataClient(s),
	}
}

// Disco returns the client's service discovery.
func (c *Client) Disco() *Disco { return c.disco }

// Credentials returns the client's credentials lookup (network mirror
// clients use it for the mirror's host).
func (c *Client) Credentials() *Credentials { return c.creds }

// Settings returns the settings the client was made with.
func (c *Client) Settings() Settings { return c.settings }

// providersBase discovers the providers.v1 base URL of host.
func (c *Client) providersBase(ctx context.Context, host svchost.Hostname) (*url.URL, error) {
	svc, err := c.disco.Discover(ctx, host)
	if err != nil {
		if ctx.Err() != nil {
			return nil, RequestCanceledError{}
		}
		return nil, &HostUnreachableError{Host: host, Err: err}
	}
	base, err := svc.ProvidersV1()
	switch {
	case errors.Is(err, ErrNoProviderRegistry):
		return nil, &NoProviderRegistryError{Host: host, Flavour: c.settings.Flavour}
	case errors.Is(err, ErrOtherProtocol):
		return nil, &NoProviderRegistryError{Host: host, OtherVersion: true, Flavour: c.settings.Flavour}
	case err != nil:
		return nil, &HostUnreachableError{Host: host, Err: err}
	}
	return base, nil
}

// metadataResponse is a completed metadata request.
type metadataResponse struct {
	status   int
	statusTx string
	url      *url.URL // final URL after redirects
	body     []byte   // only for status 200
}

// getMetadata performs a versions or download-metadata request for a
// provider, with X-Terraform-Version and the provider host's credentials.
func (c *Client) getMetadata(ctx context.Context, p addrs.Provider, u *url.URL) (*metadataResponse, bool, error) {
	token, err := c.creds.Token(p.Hostname)
	if err != nil {
		return nil, false, &CredentialsError{Host: p.Hostname, Err: err}
	}
	h := c.settings.Headers(true)
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.get(ctx, u, h, metadataLimit)
	if err != nil {
		if ctx.Err() != nil {
			return nil, token != "", RequestCanceledError{}
		}
		return nil, token != "", &QueryError{Provider: p, Err: err}
	}
	return resp, token != "", nil
}

// get performs a GET with the metadata client and reads a 200 body.
func (c *Client) get(ctx context.Context, u *url.URL, h http.Header, limit int64) (*metadataResponse, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := c.meta.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := &metadataResponse{status: resp.StatusCode, statusTx: resp.Status, url: resp.Request.URL}
	if resp.StatusCode == http.StatusOK {
		if out.body, err = readLimited(resp.Body, limit); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// statusError maps the non-200 statuses common to both endpoints.
func statusError(p addrs.Provider, r *metadataResponse, haveCreds bool) error {
	switch r.status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return &UnauthorizedError{Host: p.Hostname, HaveCredentials: haveCreds}
	}
	return &QueryError{Provider: p, Err: errors.New(r.statusTx)}
}
