package registry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// FindPackage asks the origin registry for the package of p at version v
// for platform, validates the answer and fetches SHA256SUMS and its
// signature. Authenticate the downloaded archive with Client.Authenticate.
func (c *Client) FindPackage(ctx context.Context, p addrs.Provider, v versions.Version, platform addrs.Platform) (*PackageMeta, error) {
	base, err := c.providersBase(ctx, p.Hostname)
	if err != nil {
		return nil, err
	}
	u := endpoint(base, p.Namespace, p.Type, v.String(), "download", platform.OS, platform.Arch)
	resp, haveCreds, err := c.getMetadata(ctx, p, u)
	if err != nil {
		return nil, err
	}
	switch resp.status {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, &PlatformUnsupportedError{Provider: p, Version: v, Platform: platform}
	default:
		return nil, statusError(p, resp, haveCreds)
	}
	meta, err := DecodePackage(c.settings.Flavour, resp.body, resp.url, platform)
	if IsProtocolUnsupported(err) {
		return nil, &ProtocolUnsupportedError{Provider: p, Version: v, Suggestion: c.protocolSuggestion(ctx, p), Flavour: c.settings.Flavour}
	}
	var inner queryInner
	if errors.As(err, &inner) {
		return nil, &QueryError{Provider: p, Err: inner.error}
	}
	if err != nil {
		return nil, err
	}
	meta.Provider, meta.Version = p, v
	meta.TerraformKeys = c.settings.TerraformKeys
	if err := c.fetchChecksums(ctx, meta); err != nil {
		return nil, err
	}
	return meta, nil
}

// protocolSuggestion returns the newest version (any constraints aside)
// whose protocols include a supported one, or 0.0.0.
func (c *Client) protocolSuggestion(ctx context.Context, p addrs.Provider) versions.Version {
	list, err := c.ListVersions(ctx, p)
	if err != nil {
		return versions.Version{}
	}
	for i := len(list.Versions) - 1; i >= 0; i-- {
		v := list.Versions[i]
		for _, proto := range list.Protocols[v] {
			if pv, err := versions.ParseVersion(proto); err == nil && protocolSupported(pv) {
				return v
			}
		}
	}
	return versions.Version{}
}

// fetchChecksums fills SHA256SUMS and Signature (steps 8 and 9).
func (c *Client) fetchChecksums(ctx context.Context, meta *PackageMeta) error {
	sums, err := c.fetchSmall(ctx, meta.sumsURL)
	if err != nil {
		return c.checksumError(ctx, meta, "failed to retrieve authentication checksums for provider: %s", err)
	}
	sig, err := c.fetchSmall(ctx, meta.sigURL)
	if err != nil {
		return c.checksumError(ctx, meta, "failed to retrieve cryptographic signature for provider: %s", err)
	}
	meta.SHA256SUMS, meta.Signature = sums, sig
	return nil
}

func (c *Client) checksumError(ctx context.Context, meta *PackageMeta, format string, err error) error {
	if ctx.Err() != nil {
		return RequestCanceledError{}
	}
	return &QueryError{Provider: meta.Provider, Err: fmt.Errorf(format, err)}
}

// fetchSmall GETs a checksum document: User-Agent only, no credentials.
func (c *Client) fetchSmall(ctx context.Context, u *url.URL) ([]byte, error) {
	resp, err := c.get(ctx, u, c.settings.Headers(false), checksumsLimit)
	if err != nil {
		return nil, err
	}
	if resp.status != http.StatusOK {
		return nil, fmt.Errorf("%s returned from %s", resp.statusTx, u.Host)
	}
	return resp.body, nil
}
