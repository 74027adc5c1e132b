package modules

// This file is an adapter until the module registry client of
// internal/registry (helper "modaddr") lands: the module registry
// protocol (modules.md §3) over the provider client's transport,
// settings, host blocks and credentials.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/go-retryablehttp"
	tfaddr "github.com/opentofu/registry-address/v2"
	"github.com/opentofu/svchost"

	"github.com/tfdeps/tfdeps/internal/registry"
)

const (
	moduleMetaLimit = 16 << 20 // versions and download answers
	// MaxPackageSize bounds a registry-hosted module archive.
	MaxPackageSize = 1 << 30
)

// HTTPRegistry speaks the module registry protocol.
type HTTPRegistry struct {
	client *registry.Client
	meta   *retryablehttp.Client
	plain  *http.Client

	mu    sync.Mutex
	bases map[svchost.Hostname]*url.URL
}

var _ Registry = (*HTTPRegistry)(nil)

// NewHTTPRegistry uses c's transport, settings, host blocks and
// credentials.
func NewHTTPRegistry(c *registry.Client) *HTTPRegistry {
	s := c.Settings()
	meta := retryablehttp.NewClient()
	meta.HTTPClient = &http.Client{Transport: s.Transport, Timeout: s.EffectiveRequestTimeout()}
	meta.Logger = nil
	meta.RetryMax = retryCount(s)
	if s.Backoff != nil {
		meta.Backoff = s.Backoff
	}
	meta.ErrorHandler = func(resp *http.Response, err error, attempts int) (*http.Response, error) {
		detail := ""
		if resp != nil {
			resp.Body.Close()
			detail = fmt.Sprintf("%s returned from %s", resp.Status, resp.Request.URL)
		} else if err != nil {
			detail = err.Error()
		}
		return nil, &registry.RequestError{Attempts: attempts, Detail: detail, Err: err}
	}
	return &HTTPRegistry{client: c, meta: meta, plain: &http.Client{Transport: s.Transport}, bases: map[svchost.Hostname]*url.URL{}}
}

func retryCount(s registry.Settings) int {
	if s.Getenv != nil {
		if n, err := strconv.Atoi(s.Getenv("TF_REGISTRY_DISCOVERY_RETRY")); err == nil && n > 0 {
			return n
		}
	}
	if s.RetryCount != nil {
		return *s.RetryCount
	}
	return registry.DefaultRetryCount
}

// modulesBase is the modules.v1 URL of host, from a host block or
// discovery, with a trailing slash.
func (r *HTTPRegistry) modulesBase(ctx context.Context, host svchost.Hostname) (*url.URL, error) {
	r.mu.Lock()
	base, ok := r.bases[host]
	r.mu.Unlock()
	if ok {
		return base, nil
	}
	services, discoURL, err := r.discover(ctx, host)
	if err != nil {
		return nil, err
	}
	raw, _ := services["modules.v1"].(string)
	if raw == "" {
		return nil, fmt.Errorf("host %s does not provide a modules service", host.ForDisplay())
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("failed to parse service URL: %v", err)
	}
	u = discoURL.ResolveReference(u)
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	r.mu.Lock()
	r.bases[host] = u
	r.mu.Unlock()
	return u, nil
}

func (r *HTTPRegistry) discover(ctx context.Context, host svchost.Hostname) (map[string]any, *url.URL, error) {
	discoURL := &url.URL{Scheme: "https", Host: string(host), Path: "/.well-known/terraform.json"}
	for label, services := range r.client.Settings().HostServices {
		if h, err := svchost.ForComparison(label); err == nil && h == host {
			return services, discoURL, nil
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, discoURL.String(), nil)
	if err != nil {
		return nil, nil, err
	}
	r.headers(req, host, false)
	resp, err := r.plain.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to request discovery document: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return map[string]any{}, resp.Request.URL, nil
	}
	if resp.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("failed to request discovery document: %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, nil, err
	}
	services, err := registry.DecodeDiscovery(body)
	return services, resp.Request.URL, err
}

func (r *HTTPRegistry) headers(req *http.Request, host svchost.Hostname, withVersion bool) {
	for k, v := range r.client.Settings().Headers(withVersion) {
		req.Header[k] = v
	}
	if token, err := r.client.Credentials().Token(host); err == nil && token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
}

// get requests u (relative to host's modules service) with retries.
func (r *HTTPRegistry) get(ctx context.Context, host svchost.Hostname, u *url.URL) (*http.Response, []byte, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, err
	}
	r.headers(req.Request, host, true)
	resp, err := r.meta.Do(req)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, nil, context.Canceled
		}
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, moduleMetaLimit+1))
	if err == nil && len(body) > moduleMetaLimit {
		err = fmt.Errorf("response body is too large (limit %d bytes)", moduleMetaLimit)
	}
	return resp, body, err
}

func (r *HTTPRegistry) packageURL(ctx context.Context, pkg tfaddr.ModulePackage, tail string) (*url.URL, error) {
	base, err := r.modulesBase(ctx, pkg.Host)
	if err != nil {
		return nil, err
	}
	rel := &url.URL{Path: pkg.Namespace + "/" + pkg.Name + "/" + pkg.TargetSystem + "/" + tail}
	return base.ResolveReference(rel), nil
}

// ModuleVersions implements Registry.
func (r *HTTPRegistry) ModuleVersions(ctx context.Context, pkg tfaddr.ModulePackage) ([]string, error) {
	u, err := r.packageURL(ctx, pkg, "versions")
	if err != nil {
		return nil, err
	}
	resp, body, err := r.get(ctx, pkg.Host, u)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, ErrModuleNotFound
	default:
		return nil, fmt.Errorf("error looking up module versions: %s", resp.Status)
	}
	var doc struct {
		Modules []struct {
			Versions []struct {
				Version string `json:"version"`
			} `json:"versions"`
		} `json:"modules"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	if len(doc.Modules) == 0 {
		return nil, ErrNoModules
	}
	out := make([]string, 0, len(doc.Modules[0].Versions))
	for _, v := range doc.Modules[0].Versions {
		out = append(out, v.Version)
	}
	return out, nil
}
