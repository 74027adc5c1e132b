package registry

import (
	"context"
	"encoding/json"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// VersionPlatforms is a versions answer with the "platforms" of each
// version, which OpenTofu ignores but a caching mirror needs to know which
// packages a version has.
type VersionPlatforms struct {
	*VersionsResponse
	Platforms map[versions.Version][]addrs.Platform
}

// ListVersionPlatforms is ListVersions keeping each version's platforms
// (invalid platform entries are skipped). Errors are ListVersions' errors.
func (c *Client) ListVersionPlatforms(ctx context.Context, p addrs.Provider) (*VersionPlatforms, error) {
	list, body, err := c.listVersions(ctx, p)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Versions []struct {
			Version   string `json:"version"`
			Platforms []struct {
				OS   string `json:"os"`
				Arch string `json:"arch"`
			} `json:"platforms"`
		} `json:"versions"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, &QueryError{Provider: p, Err: err}
	}
	out := &VersionPlatforms{VersionsResponse: list, Platforms: map[versions.Version][]addrs.Platform{}}
	for _, v := range doc.Versions {
		parsed, err := versions.ParseVersion(v.Version)
		if err != nil {
			continue
		}
		for _, pl := range v.Platforms {
			if platform, err := addrs.ParsePlatform(pl.OS + "_" + pl.Arch); err == nil {
				out.Platforms[parsed] = append(out.Platforms[parsed], platform)
			}
		}
	}
	return out, nil
}
