package providersource

import (
	"fmt"
	"strings"

	"github.com/opentofu/svchost"

	"github.com/tfdeps/tfdeps/addrs"
)

// Wildcard matches any hostname, namespace or type in a Pattern.
const Wildcard = "*"

// Pattern matches provider addresses: each part is a normalised value or
// Wildcard.
type Pattern struct {
	Hostname  svchost.Hostname
	Namespace string
	Type      string
}

// Patterns is an include or exclude list.
type Patterns []Pattern

// ParsePatterns parses "[HOSTNAME/]NAMESPACE/TYPE" patterns as OpenTofu
// does (the hostname defaults to registry.opentofu.org). The error texts are
// OpenTofu's, including the one that shows the type segment where the
// namespace is meant.
func ParsePatterns(strs []string) (Patterns, error) {
	if len(strs) == 0 {
		return nil, nil
	}
	out := make(Patterns, len(strs))
	for i, s := range strs {
		p, err := parsePattern(s)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

func parsePattern(s string) (Pattern, error) {
	parts := strings.Split(s, "/")
	if len(parts) < 2 || len(parts) > 3 {
		return Pattern{}, fmt.Errorf("invalid provider matching pattern %q: must have either two or three slash-separated segments", s)
	}
	p := Pattern{Hostname: addrs.DefaultProviderRegistryHost}
	if len(parts) == 3 {
		if parts[0] == Wildcard {
			p.Hostname = Wildcard
		} else {
			host, err := addrs.ParseHostname(parts[0])
			if err != nil {
				return Pattern{}, fmt.Errorf("invalid hostname in provider matching pattern %q: %w", s, err)
			}
			p.Hostname = host
		}
		parts = parts[1:]
	}
	var err error
	if p.Type, err = partOrWildcard(parts[1]); err != nil {
		return Pattern{}, fmt.Errorf("invalid provider type %q in provider matching pattern %q: must either be the wildcard * or a provider type name", parts[1], s)
	}
	if p.Namespace, err = partOrWildcard(parts[0]); err != nil {
		return Pattern{}, fmt.Errorf("invalid registry namespace %q in provider matching pattern %q: must either be the wildcard * or a literal namespace", parts[1], s)
	}
	if p.Hostname == Wildcard && (p.Namespace != Wildcard || p.Type != Wildcard) {
		return Pattern{}, fmt.Errorf("invalid provider matching pattern %q: hostname can be a wildcard only if both namespace and provider type are also wildcards", s)
	}
	if p.Namespace == Wildcard && p.Type != Wildcard {
		return Pattern{}, fmt.Errorf("invalid provider matching pattern %q: namespace can be a wildcard only if the provider type is also a wildcard", s)
	}
	return p, nil
}

func partOrWildcard(s string) (string, error) {
	if s == Wildcard {
		return s, nil
	}
	return addrs.ParseProviderPart(s)
}

// Matches reports whether any pattern matches provider.
func (ps Patterns) Matches(provider addrs.Provider) bool {
	for _, p := range ps {
		if (p.Hostname == Wildcard || p.Hostname == provider.Hostname) &&
			(p.Namespace == Wildcard || p.Namespace == provider.Namespace) &&
			(p.Type == Wildcard || p.Type == provider.Type) {
			return true
		}
	}
	return false
}

// ExactPatterns returns one pattern per provider (the implied exclusions of
// direct installation).
func ExactPatterns(providers []addrs.Provider) Patterns {
	out := make(Patterns, 0, len(providers))
	for _, p := range providers {
		out = append(out, Pattern{Hostname: p.Hostname, Namespace: p.Namespace, Type: p.Type})
	}
	return out
}
