package backend

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// The http backend keeps one state (the default workspace) at an
// address: GET reads it, 404 and 204 (or an empty body) mean none. Its
// settings come from the block, else from the TF_HTTP_ variables. Failed
// connections and server errors (but 501) are retried retry_max times
// (default 2), waiting from retry_wait_min to retry_wait_max seconds
// (defaults 1 and 30), by the same retrying client the products use, so
// that the error after the last attempt is theirs word for word.

// httpRemote is a configured http backend.
type httpRemote struct {
	address            *url.URL
	username, password string
	headers            map[string]string
	client             *retryablehttp.Client
}

// HTTPAddressMissing reports whether an http backend's settings leave its
// address unset, in the block and in TF_HTTP_ADDRESS: OpenTofu then asks
// for it (with input enabled) or fails with HTTPAddressRequired;
// Terraform, whose schema has the address optional, fails when it
// configures the backend.
func HTTPAddressMissing(rec *SavedBackend, o CheckOptions) bool {
	schema, ok := Lookup(o.Flavour, "http")
	if !ok || rec.Type != "http" {
		return false
	}
	v, err := rec.Value(schema)
	if err != nil {
		return false
	}
	_, set := settings{v: v, o: &o}.str("address", "TF_HTTP_ADDRESS")
	return !set
}

// HTTPAddressRequired is the http backend's error for an unset address.
func HTTPAddressRequired(f flavour.Flavour) string {
	if f == flavour.Terraform {
		return "address argument is required"
	}
	return `"address": required field is not set`
}

// validateHTTP checks the addresses, headers and TLS material.
func validateHTTP(s settings) hcl.Diagnostics {
	_, diags := openHTTP(s)
	return diags
}

func openHTTP(s settings) (remoteClient, hcl.Diagnostics) {
	h, err := httpSettings(s)
	if err != nil {
		return nil, hcl.Diagnostics{sourceless(err.Error())}
	}
	return h, nil
}

func httpSettings(s settings) (*httpRemote, error) {
	h := &httpRemote{
		username: s.string("username", "TF_HTTP_USERNAME"),
		password: s.string("password", "TF_HTTP_PASSWORD"),
	}
	address, ok := s.str("address", "TF_HTTP_ADDRESS")
	if !ok || address == "" {
		return nil, errors.New(HTTPAddressRequired(s.o.Flavour))
	}
	var err error
	h.address, err = url.Parse(address)
	if err != nil {
		return nil, fmt.Errorf("failed to parse address URL: %w", err)
	}
	if h.address.Scheme != "http" && h.address.Scheme != "https" {
		return nil, errors.New("address must be HTTP or HTTPS")
	}
	// OpenTofu names the lock addresses in camel case in its errors,
	// Terraform by their arguments.
	lock, unlock := "lockAddress", "unlockAddress"
	if s.o.Flavour == flavour.Terraform {
		lock, unlock = "lock_address", "unlock_address"
	}
	for _, a := range []struct{ name, env, what string }{
		{"lock_address", "TF_HTTP_LOCK_ADDRESS", lock},
		{"unlock_address", "TF_HTTP_UNLOCK_ADDRESS", unlock},
	} {
		v := s.string(a.name, a.env)
		if v == "" {
			continue
		}
		u, err := url.Parse(v)
		if err != nil {
			return nil, fmt.Errorf("failed to parse %s URL: %w", a.what, err)
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			return nil, fmt.Errorf("%s must be HTTP or HTTPS", a.what)
		}
	}
	if h.headers, err = httpHeaders(s.stringMap("headers"), h.username); err != nil {
		return nil, err
	}
	client := retryablehttp.NewClient()
	client.Logger = nil
	client.RetryMax = s.integer("retry_max", "TF_HTTP_RETRY_MAX", 2)
	client.RetryWaitMin = time.Duration(s.integer("retry_wait_min", "TF_HTTP_RETRY_WAIT_MIN", 1)) * time.Second
	client.RetryWaitMax = time.Duration(s.integer("retry_wait_max", "TF_HTTP_RETRY_WAIT_MAX", 30)) * time.Second
	client.HTTPClient = s.o.httpClient()
	if err := httpTLS(s, client); err != nil {
		return nil, err
	}
	h.client = client
	return h, nil
}

// httpHeaders checks the headers argument: Authorization only without a
// username, Content-Type and Content-MD5 never.
func httpHeaders(in map[string]string, username string) (map[string]string, error) {
	if in == nil {
		return nil, nil
	}
	for k := range in {
		switch strings.ToLower(k) {
		case "authorization":
			if username != "" {
				return nil, fmt.Errorf("headers %q cannot be set when providing username", k)
			}
		case "content-type", "content-md5":
			return nil, fmt.Errorf("headers %q is reserved", k)
		}
	}
	return in, nil
}

// httpTLS applies the TLS arguments, on a transport of the backend's own.
func httpTLS(s settings, client *retryablehttp.Client) error {
	skip := s.isTrue("skip_cert_verification")
	ca := s.string("client_ca_certificate_pem", "TF_HTTP_CLIENT_CA_CERTIFICATE_PEM")
	cert := s.string("client_certificate_pem", "TF_HTTP_CLIENT_CERTIFICATE_PEM")
	key := s.string("client_private_key_pem", "TF_HTTP_CLIENT_PRIVATE_KEY_PEM")
	if !skip && ca == "" && cert == "" && key == "" {
		return nil
	}
	if cert != "" && key == "" {
		return errors.New("client_certificate_pem is set but client_private_key_pem is not")
	}
	if key != "" && cert == "" {
		return errors.New("client_private_key_pem is set but client_certificate_pem is not")
	}
	cfg := &tls.Config{InsecureSkipVerify: skip}
	if ca != "" {
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM([]byte(ca)) {
			return errors.New("failed to append certs")
		}
	}
	if cert != "" {
		pair, err := tls.X509KeyPair([]byte(cert), []byte(key))
		if err != nil {
			return fmt.Errorf("cannot load client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	t := s.o.transport()
	t.TLSClientConfig = cfg
	c := *client.HTTPClient
	c.Transport = t
	client.HTTPClient = &c
	return nil
}

func (h *httpRemote) workspaces(context.Context) ([]string, error) {
	return nil, ErrWorkspacesNotSupported
}

func (h *httpRemote) readState(ctx context.Context, workspace string) ([]byte, error) {
	if workspace != "default" {
		return nil, ErrWorkspacesNotSupported
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, h.address.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("Failed to make get state HTTP request: %w", err)
	}
	for k, v := range h.headers {
		req.Header.Set(k, v)
	}
	if h.username != "" {
		req.SetBasicAuth(h.username, h.password)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("Failed to get state: %w", err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNoContent, http.StatusNotFound:
		return nil, nil
	case http.StatusUnauthorized:
		return nil, errors.New("HTTP remote state endpoint requires auth")
	case http.StatusForbidden:
		return nil, errors.New("HTTP remote state endpoint invalid auth")
	case http.StatusInternalServerError:
		return nil, errors.New("HTTP remote state internal server error")
	default:
		return nil, fmt.Errorf("Unexpected HTTP response code %d", resp.StatusCode)
	}
	body, err := readAllMax(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("Failed to read remote state: %w", err)
	}
	return body, nil
}
