package providersource

import (
	"context"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// Registry installs from each provider's origin registry ("direct").
type Registry struct {
	client *registry.Client
	getenv func(string) string
	// retries is the direct method's download_retry_count.
	retries *int
}

var _ Source = (*Registry)(nil)

// NewRegistry returns the direct source over client. getenv reads the
// OPENTOFU_ENFORCE_GPG_* variables at authentication time (nil: none set);
// downloadRetries is the method's download_retry_count (nil: not set).
func NewRegistry(client *registry.Client, getenv func(string) string, downloadRetries *int) *Registry {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return &Registry{client: client, getenv: getenv, retries: downloadRetries}
}

// AvailableVersions lists the registry's versions and warnings.
func (r *Registry) AvailableVersions(ctx context.Context, provider addrs.Provider) (versions.List, Warnings, error) {
	resp, err := r.client.ListVersions(ctx, provider)
	if err != nil {
		return nil, nil, err
	}
	return resp.Versions, Warnings(resp.Warnings), nil
}

// PackageMeta finds the package, with SHA256SUMS and its signature fetched,
// and attaches the registry's authentication.
func (r *Registry) PackageMeta(ctx context.Context, provider addrs.Provider, version versions.Version, target addrs.Platform) (PackageMeta, error) {
	meta, err := r.client.FindPackage(ctx, provider, version, target)
	if err != nil {
		return PackageMeta{}, err
	}
	return PackageMeta{
		Provider:         provider,
		Version:          version,
		TargetPlatform:   target,
		ProtocolVersions: meta.Protocols,
		Filename:         meta.Filename,
		Location:         HTTPURL{URL: meta.DownloadURL},
		Authentication:   &RegistryAuthentication{Meta: meta, Getenv: r.getenv},
		DownloadRetries:  r.retries,
	}, nil
}

// ForDisplay is "registry HOST".
func (r *Registry) ForDisplay(provider addrs.Provider) string {
	return "registry " + addrs.HostnameForDisplay(provider.Hostname)
}
