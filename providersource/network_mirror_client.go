package providersource

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/opentofu/svchost"
	"golang.org/x/net/idna"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/registry"
)

// maxMirrorRedirects is how many redirects a mirror request may follow.
const maxMirrorRedirects = 5

// errTooManyRedirects stops a redirect chain; the request then fails with
// `Get "URL": too many redirects`.
var errTooManyRedirects = errors.New("too many redirects")

// mirrorClient performs the metadata requests of one network mirror.
type mirrorClient struct {
	base    *url.URL
	http    *retryablehttp.Client
	headers http.Header
	creds   *registry.Credentials
}

func newMirrorClient(base *url.URL, s registry.Settings, creds *registry.Credentials) *mirrorClient {
	transport := s.Transport
	if transport == nil {
		transport = http.DefaultTransport.(*http.Transport).Clone()
	}
	hc := &http.Client{
		Transport: transport,
		Timeout:   s.EffectiveRequestTimeout(),
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxMirrorRedirects {
				return errTooManyRedirects
			}
			return nil
		},
	}
	rc := retryablehttp.NewClient()
	rc.HTTPClient = hc
	rc.Logger = nil
	// OpenTofu's mirror client does not retry; Terraform's retries as its
	// registry client does.
	rc.RetryMax = 0
	if s.Flavour == flavour.Terraform {
		rc.RetryMax = s.MetadataRetries()
		if s.Backoff != nil {
			rc.Backoff = s.Backoff
		}
	}
	rc.ErrorHandler = requestFailed(s.Flavour)
	return &mirrorClient{base: base, http: rc, headers: s.Headers(true), creds: creds}
}

// requestFailed gives the registry client's texts in the flavour's words to
// a failed request (transport error, 429, 5xx): a failed status names the
// URL in OpenTofu's text and only the host in Terraform's. Too many
// redirects is reported as Go's client error itself.
func requestFailed(f flavour.Flavour) retryablehttp.ErrorHandler {
	return func(resp *http.Response, err error, attempts int) (*http.Response, error) {
		if errors.Is(err, errTooManyRedirects) {
			if resp != nil {
				resp.Body.Close()
			}
			return nil, err
		}
		re := &registry.RequestError{Attempts: attempts, Err: err, Flavour: f}
		switch {
		case resp != nil:
			resp.Body.Close()
			where := resp.Request.URL.String()
			if f == flavour.Terraform {
				where = resp.Request.Host
				if where == "" {
					where = resp.Request.URL.Host
				}
			}
			re.Detail = fmt.Sprintf("%s returned from %s", resp.Status, where)
		case err != nil:
			re.Detail = err.Error()
		}
		return nil, re
	}
}

// get requests the document at rel (relative to the base URL). A 200
// response must be JSON; its body is left for the caller, who must close
// every returned body.
func (c *mirrorClient) get(ctx context.Context, rel string) (*http.Response, error) {
	if c.base.Scheme != "https" {
		// ParseNetworkMirrorURL rejects such URLs; never send credentials
		// in clear text if a caller skipped it.
		return nil, fmt.Errorf("the mirror must be at an https: URL, not %s", c.base)
	}
	ref, err := url.Parse(rel)
	if err != nil {
		return nil, err
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, c.base.ResolveReference(ref).String(), nil)
	if err != nil {
		return nil, err
	}
	for k, v := range c.headers {
		req.Header[k] = v
	}
	token, err := c.token()
	if err != nil {
		return nil, fmt.Errorf("failed to determine request credentials: %w", err)
	}
	if token != "" {
		// Sent again after a redirect to another host, as OpenTofu does.
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusOK {
		if err := checkJSONContentType(resp.Header.Get("Content-Type")); err != nil {
			resp.Body.Close()
			return nil, err
		}
	}
	return resp, nil
}

// token returns the bearer token for the mirror's own host.
func (c *mirrorClient) token() (string, error) {
	host, err := hostFromURL(c.base)
	if err != nil {
		return "", fmt.Errorf("invalid provider mirror base URL %s: %w", c.base, err)
	}
	if c.creds == nil {
		return "", nil
	}
	return c.creds.Token(host)
}

func checkJSONContentType(ct string) error {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return fmt.Errorf("response has invalid Content-Type: %w", err)
	}
	if mt != "application/json" {
		return errors.New("response has invalid Content-Type: must be application/json")
	}
	return nil
}

// unauthorized is the error for a 401 or 403 answer at finalURL: always the
// "rejected the given authentication credentials" variant.
func unauthorized(finalURL *url.URL) error {
	host, err := hostFromURL(finalURL)
	if err != nil {
		return fmt.Errorf("invalid credentials for %s", finalURL)
	}
	return &registry.UnauthorizedError{Host: host, HaveCredentials: true}
}

// hostFromURL normalises a URL's host (punycode accepted) with its port.
func hostFromURL(u *url.URL) (svchost.Hostname, error) {
	host, port := u.Host, ""
	if i := strings.Index(host, ":"); i >= 0 {
		host, port = host[:i], host[i:]
	}
	uni, err := idna.Display.ToUnicode(host)
	if err != nil {
		return "", err
	}
	return svchost.ForComparison(uni + port)
}
