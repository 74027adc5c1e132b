package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// VersionsResponse is a decoded "list available versions" answer.
type VersionsResponse struct {
	// Versions are sorted by precedence, duplicates removed.
	Versions versions.List
	// Protocols holds each version's plugin protocol versions as listed.
	Protocols map[versions.Version][]string
	// Warnings are shown to the user by init.
	Warnings []string
}

// DecodeVersions decodes and validates the body of a versions response.
// Errors are the inner texts that QueryError wraps.
//
// Versions are de-duplicated by their parsed value, so "1.0" and "1.0.0"
// are one version; the first entry listed wins, with its protocols.
// (OpenTofu keeps such duplicates in its list; it selects the same version
// either way.)
func DecodeVersions(body []byte) (*VersionsResponse, error) {
	var doc struct {
		Versions []struct {
			Version   string   `json:"version"`
			Protocols []string `json:"protocols"`
		} `json:"versions"`
		Warnings []string `json:"warnings"`
	}
	if err := checkResponseNesting(body); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	out := &VersionsResponse{Protocols: map[versions.Version][]string{}, Warnings: doc.Warnings}
	for _, v := range doc.Versions {
		parsed, err := versions.ParseVersion(v.Version)
		if err != nil {
			return nil, fmt.Errorf("registry response includes invalid version string %q: %s", v.Version, err)
		}
		if _, seen := out.Protocols[parsed]; seen {
			continue
		}
		out.Versions = append(out.Versions, parsed)
		out.Protocols[parsed] = v.Protocols
	}
	out.Versions.Sort()
	return out, nil
}

// endpoint returns base + path segments, each escaped.
func endpoint(base *url.URL, segments ...string) *url.URL {
	rel := ""
	for i, s := range segments {
		if i > 0 {
			rel += "/"
		}
		rel += url.PathEscape(s)
	}
	ref, _ := url.Parse(rel)
	return base.ResolveReference(ref)
}

// ListVersions asks the provider's origin registry which versions exist.
func (c *Client) ListVersions(ctx context.Context, p addrs.Provider) (*VersionsResponse, error) {
	out, _, err := c.listVersions(ctx, p)
	return out, err
}

// listVersions is ListVersions, also returning the answer's body.
func (c *Client) listVersions(ctx context.Context, p addrs.Provider) (*VersionsResponse, []byte, error) {
	base, err := c.providersBase(ctx, p.Hostname)
	if err != nil {
		return nil, nil, err
	}
	resp, haveCreds, err := c.getMetadata(ctx, p, endpoint(base, p.Namespace, p.Type, "versions"))
	if err != nil {
		return nil, nil, err
	}
	switch resp.status {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, nil, &ProviderUnknownError{Provider: p}
	default:
		return nil, nil, statusError(p, resp, haveCreds)
	}
	out, err := DecodeVersions(resp.body)
	if err != nil {
		return nil, nil, &QueryError{Provider: p, Err: err}
	}
	return out, resp.body, nil
}

// LegacyNamespace asks the registry of p's host where the legacy provider
// "-/TYPE" moved to. It returns "" on any failure; the answer only feeds
// init's "Did you intend to use" suggestion.
func (c *Client) LegacyNamespace(ctx context.Context, p addrs.Provider) string {
	base, err := c.providersBase(ctx, p.Hostname)
	if err != nil {
		return ""
	}
	resp, _, err := c.getMetadata(ctx, p, endpoint(base, "-", p.Type, "versions"))
	if err != nil || resp.status != http.StatusOK {
		return ""
	}
	var doc struct {
		ID      string `json:"id"`
		MovedTo string `json:"moved_to"`
	}
	if json.Unmarshal(resp.body, &doc) != nil {
		return ""
	}
	found := doc.ID
	if doc.MovedTo != "" {
		found = doc.MovedTo
	}
	moved, err := addrs.ParseProviderSource(found)
	if err != nil {
		return ""
	}
	return moved.Namespace
}
