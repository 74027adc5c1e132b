package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/backend"
)

// tfdeps records a backend's configuration without contacting it: the
// credentials and reachability of a remote backend are checked by the
// first plan. With -backend-check init does what the reference tool does
// with the backends tfdeps can reach itself: the http backend's state is
// read (as init reads it, for the providers it records), the local
// backend's as always. Other backends are recorded unchecked.

// backendCheckTypes are the backend types -backend-check contacts.
var backendCheckTypes = map[string]bool{"local": true, "http": true}

// maxRemoteStateSize bounds a remote state read with -backend-check.
const maxRemoteStateSize = 256 << 20

// backendCheck validates rec's settings as the backend does when it is
// configured (before any request): for http, the addresses, methods and
// headers. These checks need no network and are always made.
func (r *initRun) backendCheck(rec *backend.SavedBackend) hcl.Diagnostics {
	if rec.Type != "http" {
		return nil
	}
	if d := r.httpAddressInput(rec); d != nil {
		return hcl.Diagnostics{d}
	}
	_, err := r.httpSettings(rec)
	if err != nil {
		return hcl.Diagnostics{errorDiag(err.Error(), "")}
	}
	return nil
}

// httpAddressInput handles an http backend configured without an
// address (none in the block, -backend-config or TF_HTTP_ADDRESS): as
// tofu init, it asks for one when input is enabled, recording the answer
// with the settings; otherwise the backend's error.
func (r *initRun) httpAddressInput(rec *backend.SavedBackend) *hcl.Diagnostic {
	if r.m.Getenv("TF_HTTP_ADDRESS") != "" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(rec.Config))
	dec.UseNumber()
	var cfg map[string]any
	if err := dec.Decode(&cfg); err != nil || cfg == nil {
		return nil
	}
	if a, ok := cfg["address"]; ok && a != nil {
		return nil
	}
	required := errorDiag(`"address": required field is not set`, "")
	if r.opts.json || !inputEnabled(r.m, r.opts.input) {
		return required
	}
	answer, ok := r.m.promptBackendArgument("address", "The address of the REST endpoint")
	if !ok {
		return errorDiag(`Error asking for input to configure backend "http": address: input canceled`, "")
	}
	cfg["address"] = answer
	out, err := json.Marshal(cfg)
	if err != nil {
		return required
	}
	rec.Config = out
	return nil
}

// promptBackendArgument asks for a backend argument on standard input,
// as tofu init asks for a required one left unset.
func (m *Meta) promptBackendArgument(name, description string) (string, bool) {
	text := fmt.Sprintf("[reset][bold]%s[reset]\n  %s\n\n  [bold]Enter a value:[reset] ", name, description)
	fmt.Fprint(m.Stdout, colorize(text, m.Color))
	line, err := bufio.NewReader(m.Stdin).ReadString('\n')
	if err != nil && line == "" {
		return "", false
	}
	fmt.Fprint(m.Stdout, "\n")
	return strings.TrimRight(line, "\r\n"), true
}

// openRemoteState opens workspace ws of a remote backend, as init does
// to read the providers its state records: the http backend has only
// the default workspace; with -backend-check its state is read (kept in
// r.remoteState for the provider requirements).
func (r *initRun) openRemoteState(rec *backend.SavedBackend, ws string) *hcl.Diagnostic {
	if rec.Type != "http" {
		return nil
	}
	if ws != "default" {
		return errorDiag("Error loading state", "workspaces not supported")
	}
	if !r.opts.backendCheck {
		return nil
	}
	hs, err := r.httpSettings(rec)
	if err != nil {
		return errorDiag("Error loading state", err.Error())
	}
	body, err := hs.get(context.Background())
	if err != nil {
		return errorDiag("Error refreshing state", err.Error())
	}
	r.remoteState = body
	return nil
}

// httpSettings are the http backend's settings, from its recorded
// configuration and, for arguments left unset, the TF_HTTP_ variables.
type httpSettings struct {
	address            *url.URL
	username, password string
	headers            map[string]string
	retryMax           int
	waitMin, waitMax   time.Duration
	client             *http.Client
}

func (r *initRun) httpSettings(rec *backend.SavedBackend) (*httpSettings, error) {
	schema, ok := backend.Lookup(r.m.Flavour, "http")
	if !ok {
		return nil, errors.New("unknown backend type http")
	}
	v, err := rec.Value(schema)
	if err != nil {
		return nil, err
	}
	str := func(name, env, def string) string {
		if v.Type().HasAttribute(name) {
			if a := v.GetAttr(name); !a.IsNull() && a.Type() == cty.String {
				return a.AsString()
			}
		}
		if e := r.m.Getenv(env); e != "" {
			return e
		}
		return def
	}
	num := func(name, env string, def int) int {
		if v.Type().HasAttribute(name) {
			if a := v.GetAttr(name); !a.IsNull() && a.Type() == cty.Number {
				n, _ := a.AsBigFloat().Int64()
				return int(n)
			}
		}
		if e := r.m.Getenv(env); e != "" {
			if n, err := strconv.Atoi(e); err == nil {
				return n
			}
		}
		return def
	}
	hs := &httpSettings{
		username: str("username", "TF_HTTP_USERNAME", ""),
		password: str("password", "TF_HTTP_PASSWORD", ""),
		retryMax: num("retry_max", "TF_HTTP_RETRY_MAX", 2),
		waitMin:  time.Duration(num("retry_wait_min", "TF_HTTP_RETRY_WAIT_MIN", 1)) * time.Second,
		waitMax:  time.Duration(num("retry_wait_max", "TF_HTTP_RETRY_WAIT_MAX", 30)) * time.Second,
	}
	hs.address, err = url.Parse(str("address", "TF_HTTP_ADDRESS", ""))
	if err != nil {
		return nil, fmt.Errorf("failed to parse address URL: %w", err)
	}
	if hs.address.Scheme != "http" && hs.address.Scheme != "https" {
		return nil, errors.New("address must be HTTP or HTTPS")
	}
	for _, a := range []struct{ name, env, what string }{
		{"lock_address", "TF_HTTP_LOCK_ADDRESS", "lockAddress"},
		{"unlock_address", "TF_HTTP_UNLOCK_ADDRESS", "unlockAddress"},
	} {
		s := str(a.name, a.env, "")
		if s == "" {
			continue
		}
		u, err := url.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("failed to parse %s URL: %w", a.what, err)
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			return nil, fmt.Errorf("%s must be HTTP or HTTPS", a.what)
		}
	}
	if v.Type().HasAttribute("headers") {
		if h := v.GetAttr("headers"); !h.IsNull() && h.CanIterateElements() {
			hs.headers = map[string]string{}
			for it := h.ElementIterator(); it.Next(); {
				k, val := it.Element()
				name := k.AsString()
				switch strings.ToLower(name) {
				case "authorization":
					if hs.username != "" {
						return nil, fmt.Errorf("headers %q cannot be set when providing username", name)
					}
				case "content-type", "content-md5":
					return nil, fmt.Errorf("headers %q is reserved", name)
				}
				if !val.IsNull() && val.Type() == cty.String {
					hs.headers[name] = val.AsString()
				}
			}
		}
	}
	tlsConfig := &tls.Config{}
	if v.Type().HasAttribute("skip_cert_verification") {
		if a := v.GetAttr("skip_cert_verification"); !a.IsNull() && a.Type() == cty.Bool && a.True() {
			tlsConfig.InsecureSkipVerify = true
		}
	}
	if ca := str("client_ca_certificate_pem", "TF_HTTP_CLIENT_CA_CERTIFICATE_PEM", ""); ca != "" {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM([]byte(ca)) {
			return nil, errors.New("failed to append certs")
		}
		tlsConfig.RootCAs = pool
	}
	cert, key := str("client_certificate_pem", "TF_HTTP_CLIENT_CERTIFICATE_PEM", ""), str("client_private_key_pem", "TF_HTTP_CLIENT_PRIVATE_KEY_PEM", "")
	switch {
	case cert != "" && key != "":
		pair, err := tls.X509KeyPair([]byte(cert), []byte(key))
		if err != nil {
			return nil, fmt.Errorf("cannot load client certificate: %w", err)
		}
		tlsConfig.Certificates = []tls.Certificate{pair}
	case cert != "":
		return nil, errors.New("client_certificate_pem is set but client_private_key_pem is not")
	case key != "":
		return nil, errors.New("client_private_key_pem is set but client_certificate_pem is not")
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = tlsConfig
	hs.client = &http.Client{Transport: transport}
	return hs, nil
}

// get reads the state at the address, retrying failed connections and
// server errors as the backend's client does. No state (404, 204, an
// empty body) is nil.
func (hs *httpSettings) get(ctx context.Context) ([]byte, error) {
	var lastErr error
	attempts := hs.retryMax + 1
	wait := hs.waitMin
	for i := 0; i < attempts; i++ {
		if i > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(wait):
			}
			if wait *= 2; wait > hs.waitMax {
				wait = hs.waitMax
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, hs.address.String(), nil)
		if err != nil {
			return nil, fmt.Errorf("Failed to make get state HTTP request: %w", err)
		}
		for k, v := range hs.headers {
			req.Header.Set(k, v)
		}
		if hs.username != "" {
			req.SetBasicAuth(hs.username, hs.password)
		}
		resp, err := hs.client.Do(req)
		if err != nil {
			lastErr = err
			continue
		}
		if resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented && i < attempts-1 {
			resp.Body.Close()
			continue
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxRemoteStateSize+1))
		resp.Body.Close()
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
		if err != nil {
			return nil, fmt.Errorf("Failed to read remote state: %w", err)
		}
		if len(body) > maxRemoteStateSize {
			return nil, fmt.Errorf("Failed to read remote state: larger than %d bytes", maxRemoteStateSize)
		}
		if len(body) == 0 {
			return nil, nil
		}
		return body, nil
	}
	return nil, fmt.Errorf("Failed to get state: GET %s giving up after %d attempt(s): %w", hs.address.Redacted(), attempts, lastErr)
}

// remoteStateFile writes a state read from a remote backend to a
// temporary file, for the provider requirements (which read a file); the
// returned function removes it.
func remoteStateFile(state []byte) (string, func(), error) {
	f, err := os.CreateTemp("", "tfdeps-remote-state-*.tfstate")
	if err != nil {
		return "", func() {}, err
	}
	name := f.Name()
	_, err = f.Write(state)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return name, func() { os.Remove(name) }, err
}
