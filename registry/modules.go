package registry

// The client side of the module registry protocol (modules.md §3): service
// discovery of modules.v1, the versions list and the download location.
// The direct download of registry-hosted archives is in modules_download.go.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/opentofu/svchost"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleaddr"
)

// ModulesServiceID is the service modules are installed through.
const ModulesServiceID = "modules.v1"

// ModuleServiceError is a failure to find the host's modules.v1 service:
// discovery failed or the host does not offer it. Its text is the inner
// error's, as OpenTofu prints it inside M10/M15.
type ModuleServiceError struct {
	Host svchost.Hostname
	Err  error
}

func (e *ModuleServiceError) Error() string { return e.Err.Error() }
func (e *ModuleServiceError) Unwrap() error { return e.Err }

// ModuleNotFoundError is a versions request answered 404 (M9 "Module not
// found").
type ModuleNotFoundError struct {
	Package moduleaddr.Registry
}

func (e *ModuleNotFoundError) Error() string {
	return fmt.Sprintf("module %s not found", e.Package.Package())
}

// ErrNoModulesListed is a versions answer whose "modules" list is empty
// (M12 "Invalid response from remote module registry").
var ErrNoModulesListed = errors.New("registry returned no modules in its versions response")

// modulesBase discovers host's modules.v1 URL, with a trailing "/".
func (c *Client) modulesBase(ctx context.Context, host svchost.Hostname) (*url.URL, error) {
	svc, err := c.disco.Discover(ctx, host)
	if err != nil {
		if ctx.Err() != nil {
			return nil, RequestCanceledError{}
		}
		return nil, &ModuleServiceError{Host: host, Err: err}
	}
	u, err := svc.serviceURL(ModulesServiceID)
	if err != nil {
		return nil, &ModuleServiceError{Host: host, Err: err}
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
		if u.RawPath != "" {
			u.RawPath += "/"
		}
	}
	return u, nil
}

// serviceURL resolves a versioned service (NAME.vN) with svchost's rules
// and texts: missing → "host %s does not provide a %s service" (without the
// host when discovery answered 404), another version only → "host %s does
// not support %s version %d".
func (s *Services) serviceURL(id string) (*url.URL, error) {
	name, ver, _ := strings.Cut(id, ".v")
	raw, ok := s.services[id].(string)
	if !ok {
		if s.services == nil {
			return nil, fmt.Errorf("host does not provide a %s service", name)
		}
		for other := range s.services {
			if strings.HasPrefix(other, name+".") {
				return nil, fmt.Errorf("host %s does not support %s version %s", s.Host.ForDisplay(), name, ver)
			}
		}
		return nil, fmt.Errorf("host %s does not provide a %s service", s.Host.ForDisplay(), name)
	}
	u, err := s.resolve(raw)
	if err != nil {
		return nil, fmt.Errorf("failed to parse service URL: %v", err)
	}
	return u, nil
}

// moduleEndpoint is BASE/NAMESPACE/NAME/SYSTEM/more... (path.Join, case as
// written).
func moduleEndpoint(base *url.URL, pkg moduleaddr.Registry, more ...string) (*url.URL, error) {
	rel := path.Join(append([]string{pkg.Namespace, pkg.Name, pkg.System}, more...)...)
	ref, err := url.Parse(rel)
	if err != nil {
		return nil, err
	}
	return base.ResolveReference(ref), nil
}

// moduleRequest performs a GET with X-Terraform-Version and the host's
// credentials (a credentials failure is ignored, as OpenTofu does) through
// the retrying metadata client. The caller closes the body.
func (c *Client) moduleRequest(ctx context.Context, host svchost.Hostname, u *url.URL, withCreds bool, extra http.Header) (*http.Response, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	for k, v := range c.settings.Headers(true) {
		req.Header[k] = v
	}
	for k, v := range extra {
		req.Header[k] = v
	}
	if withCreds {
		if token, err := c.creds.Token(host); err == nil && token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
	}
	resp, err := c.meta.Do(req)
	if err != nil && ctx.Err() != nil {
		return nil, RequestCanceledError{}
	}
	var re *RequestError
	if errors.As(err, &re) && re.Flavour == flavour.Terraform && re.Status != "" {
		// Terraform's module registry client names the URL (its provider
		// registry client the host).
		re.Detail = fmt.Sprintf("%s returned from %s", re.Status, re.URL)
	}
	return resp, err
}

// ModuleVersions lists the versions the registry offers for pkg's package
// (its Subdir is ignored), as written by the registry, in its order. Only
// the first element of "modules" is read. Errors: *ModuleServiceError,
// *ModuleNotFoundError (404), "error looking up module versions: STATUS",
// ErrNoModulesListed, JSON errors, the retry summary, RequestCanceledError.
func (c *Client) ModuleVersions(ctx context.Context, pkg moduleaddr.Registry) ([]string, error) {
	base, err := c.modulesBase(ctx, pkg.Host)
	if err != nil {
		return nil, err
	}
	u, err := moduleEndpoint(base, pkg, "versions")
	if err != nil {
		return nil, err
	}
	resp, err := c.moduleRequest(ctx, pkg.Host, u, true, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, &ModuleNotFoundError{Package: pkg.Package()}
	default:
		return nil, fmt.Errorf("error looking up module versions: %s", resp.Status)
	}
	return DecodeModuleVersions(io.LimitReader(resp.Body, metadataLimit))
}

// DecodeModuleVersions decodes a versions answer: the "version" strings of
// the first element of "modules" (a JSON stream: data after the first value
// is ignored, as OpenTofu's decoder does).
func DecodeModuleVersions(r io.Reader) ([]string, error) {
	var doc struct {
		Modules []struct {
			Versions []struct {
				Version string `json:"version"`
			} `json:"versions"`
		} `json:"modules"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, err
	}
	if len(doc.Modules) == 0 {
		return nil, ErrNoModulesListed
	}
	out := make([]string, 0, len(doc.Modules[0].Versions))
	for _, v := range doc.Modules[0].Versions {
		out = append(out, v.Version)
	}
	return out, nil
}

// ModuleVersionsMemo remembers each package's successful versions list for
// one run (fetched once per package); failures are not remembered.
// It is safe for concurrent use.
//
// Deprecated: tfdeps itself does not use it. Use moduleinstall.SharedRegistry,
// which also shares each version's location and lets concurrent callers wait
// for the answer in flight instead of asking the registry again.
type ModuleVersionsMemo struct {
	Client *Client

	mu   sync.Mutex
	seen map[moduleaddr.Registry][]string
}

// Versions returns the remembered list of pkg's package, or asks the
// registry.
func (m *ModuleVersionsMemo) Versions(ctx context.Context, pkg moduleaddr.Registry) ([]string, error) {
	key := pkg.Package()
	m.mu.Lock()
	list, ok := m.seen[key]
	m.mu.Unlock()
	if ok {
		return list, nil
	}
	list, err := m.Client.ModuleVersions(ctx, key)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.seen == nil {
		m.seen = map[moduleaddr.Registry][]string{}
	}
	m.seen[key] = list
	m.mu.Unlock()
	return list, nil
}
