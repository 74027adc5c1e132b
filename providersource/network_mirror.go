package providersource

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"sort"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// NetworkMirror speaks the provider network mirror protocol: BASE
// HOST/NS/TYPE/index.json and BASE HOST/NS/TYPE/VERSION.json, over https,
// with the registry request timeout, no retries and at most 5 redirects.
type NetworkMirror struct {
	base   *url.URL
	client *mirrorClient
	trust  bool
	// retries is the method's download_retry_count, passed on to packages.
	retries *int
	// flavour words the errors of the packages' authentication.
	flavour flavour.Flavour
}

var _ Source = (*NetworkMirror)(nil)

// NetworkMirrorOptions configure a NetworkMirror.
type NetworkMirrorOptions struct {
	// Settings give the transport, User-Agent, X-Terraform-Version and
	// request timeout (registry.Settings of the process's registry client).
	Settings registry.Settings
	// Credentials look up the bearer token for the mirror's host; nil
	// means none.
	Credentials *registry.Credentials
	// TrustAllHashes is the method's trust_all_hashes.
	TrustAllHashes bool
	// DownloadRetries is the method's download_retry_count (nil: not set).
	DownloadRetries *int
}

// NewNetworkMirror returns a mirror at base, which must be an https URL
// with a host (ParseNetworkMirrorURL checks it).
func NewNetworkMirror(base *url.URL, opts NetworkMirrorOptions) *NetworkMirror {
	return &NetworkMirror{
		base:    base,
		client:  newMirrorClient(base, opts.Settings, opts.Credentials),
		trust:   opts.TrustAllHashes,
		flavour: opts.Settings.Flavour,
		retries: opts.DownloadRetries,
	}
}

// ParseNetworkMirrorURL checks a network_mirror url as OpenTofu does; the
// error is the Detail of an "Invalid URL for provider installation source"
// diagnostic.
func ParseNetworkMirrorURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("Cannot parse %q as a URL for a network provider mirror: %s.", raw, err)
	}
	if u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("Cannot use %q as a URL for a network provider mirror: the mirror must be at an https: URL.", raw)
	}
	return u, nil
}

// AvailableVersions reads index.json. A 404 means the mirror does not have
// the provider.
func (m *NetworkMirror) AvailableVersions(ctx context.Context, provider addrs.Provider) (versions.List, Warnings, error) {
	resp, err := m.client.get(ctx, mirrorPath(provider, "index.json"))
	if err != nil {
		return nil, nil, m.queryError(ctx, provider, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, nil, &NotFoundError{Provider: provider, Sources: []string{m.ForDisplay(provider)}}
	case http.StatusUnauthorized, http.StatusForbidden:
		return nil, nil, unauthorized(resp.Request.URL)
	default:
		return nil, nil, m.queryError(ctx, provider, fmt.Errorf("server returned unsuccessful status %d", resp.StatusCode))
	}
	list, err := DecodeMirrorIndex(resp.Body)
	if err != nil {
		return nil, nil, m.queryError(ctx, provider, err)
	}
	return list, nil, nil
}

// PackageMeta reads VERSION.json and picks the target platform's archive.
func (m *NetworkMirror) PackageMeta(ctx context.Context, provider addrs.Provider, version versions.Version, target addrs.Platform) (PackageMeta, error) {
	resp, err := m.client.get(ctx, mirrorPath(provider, version.String()+".json"))
	if err != nil {
		return PackageMeta{}, m.queryError(ctx, provider, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return PackageMeta{}, m.queryError(ctx, provider, fmt.Errorf("provider mirror does not have archive index for previously-reported %s version %s", provider.String(), version))
	case http.StatusUnauthorized, http.StatusForbidden:
		return PackageMeta{}, unauthorized(resp.Request.URL)
	default:
		return PackageMeta{}, m.queryError(ctx, provider, fmt.Errorf("server returned unsuccessful status %d", resp.StatusCode))
	}
	archives, err := DecodeMirrorVersion(resp.Body)
	if err != nil {
		return PackageMeta{}, m.queryError(ctx, provider, err)
	}
	return m.packageFromArchives(ctx, provider, version, target, archives, resp.Request.URL)
}

func (m *NetworkMirror) packageFromArchives(ctx context.Context, provider addrs.Provider, version versions.Version, target addrs.Platform, archives map[string]*MirrorArchive, finalURL *url.URL) (PackageMeta, error) {
	archive := archives[target.String()]
	if archive == nil {
		// A null entry would crash OpenTofu; tfdeps treats it as absent.
		return PackageMeta{}, &registry.PlatformUnsupportedError{Provider: provider, Version: version, Platform: target, MirrorURL: m.base.String()}
	}
	rel, err := url.Parse(archive.URL)
	if err != nil {
		return PackageMeta{}, m.queryError(ctx, provider, fmt.Errorf("provider mirror returned invalid URL %q: %w", archive.URL, err))
	}
	abs := finalURL.ResolveReference(rel)
	meta := PackageMeta{
		Provider:        provider,
		Version:         version,
		TargetPlatform:  target,
		Filename:        path.Base(abs.Path),
		Location:        HTTPURL{URL: abs},
		DownloadRetries: m.retries,
	}
	raw := archive.Hashes
	if m.trust {
		raw = allArchiveHashes(archives)
	}
	hs, err := parseMirrorHashes(raw)
	if err != nil {
		return PackageMeta{}, m.queryError(ctx, provider, err)
	}
	if len(hs) > 0 {
		meta.Authentication = &MirrorAuthentication{Platform: target, Hashes: hs, TrustAllHashes: m.trust, Flavour: m.flavour}
	}
	return meta, nil
}

// allArchiveHashes lists the hashes of every platform, platforms in byte
// order (OpenTofu's map order is random), each platform's in listed order.
func allArchiveHashes(archives map[string]*MirrorArchive) []string {
	var out []string
	for _, pl := range sortedKeys(archives) {
		if a := archives[pl]; a != nil {
			out = append(out, a.Hashes...)
		}
	}
	return out
}

func parseMirrorHashes(raw []string) ([]hashes.Hash, error) {
	out := make([]hashes.Hash, 0, len(raw))
	for _, s := range raw {
		h, err := hashes.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("provider mirror returned invalid provider hash %q: %w", s, err)
		}
		out = append(out, h)
	}
	return out, nil
}

// ForDisplay is "provider mirror at BASE".
func (m *NetworkMirror) ForDisplay(addrs.Provider) string {
	return "provider mirror at " + m.base.String()
}

// queryError wraps err as OpenTofu's "failed to query provider mirror".
func (m *NetworkMirror) queryError(ctx context.Context, provider addrs.Provider, err error) error {
	if errors.Is(err, context.Canceled) || (ctx.Err() != nil && errors.Is(err, ctx.Err())) {
		return registry.RequestCanceledError{}
	}
	return &registry.QueryError{Provider: provider, MirrorURL: m.base.String(), Err: err}
}

// mirrorPath is the document path relative to the base URL. The provider
// hostname is in comparison form. As in OpenTofu, a hostname with a port
// makes the relative reference unusable, so such providers cannot be
// installed through a network mirror.
func mirrorPath(provider addrs.Provider, file string) string {
	return path.Join(string(provider.Hostname), provider.Namespace, provider.Type, file)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
