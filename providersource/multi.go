package providersource

import (
	"context"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// Selector is one installation method of a Multi: a source and the
// providers it handles.
type Selector struct {
	Source Source
	// Include, when not empty, limits the source to matching providers.
	Include Patterns
	// Exclude removes matching providers; it wins over Include.
	Exclude Patterns
}

// Handles reports whether the selector's source is consulted for provider.
func (s Selector) Handles(provider addrs.Provider) bool {
	if s.Exclude.Matches(provider) {
		return false
	}
	return len(s.Include) == 0 || s.Include.Matches(provider)
}

// Multi consults several installation methods in order, as OpenTofu's
// provider installer does.
type Multi []Selector

var _ Source = Multi(nil)

// AvailableVersions is the union of the versions of every handling method.
// "Not found" and "not known" answers are skipped; any other error aborts.
// An empty union is "not known" if a registry said so, else *NotFoundError
// naming every handling method. A Multi without any method (every method
// of the CLI configuration was invalid) has no versions and no error, as
// OpenTofu's: selection then says no release matches the constraints.
func (m Multi) AvailableVersions(ctx context.Context, provider addrs.Provider) (versions.List, Warnings, error) {
	if len(m) == 0 {
		return nil, nil, nil
	}
	seen := map[versions.Version]bool{}
	var list versions.List
	var warnings Warnings
	notKnown := false
	for _, sel := range m {
		if !sel.Handles(provider) {
			continue
		}
		vs, ws, err := sel.Source.AvailableVersions(ctx, provider)
		switch {
		case err == nil:
		case isNotKnown(err):
			notKnown = true
			continue
		case isNotFound(err):
			continue
		default:
			return nil, nil, err
		}
		for _, v := range vs {
			if !seen[v] {
				seen[v] = true
				list = append(list, v)
			}
		}
		warnings = append(warnings, ws...)
	}
	if len(list) == 0 {
		if notKnown {
			return nil, nil, &registry.ProviderUnknownError{Provider: provider}
		}
		return nil, nil, &NotFoundError{Provider: provider, Sources: m.sourcesFor(provider)}
	}
	list.SortByMetadataThenPrecedence()
	return list, warnings, nil
}

// PackageMeta asks the handling methods in order; the first success wins.
// "Not found", "not known" and "platform not supported" move on; any other
// error aborts. Without any success: platform not supported; without any
// method: not found.
func (m Multi) PackageMeta(ctx context.Context, provider addrs.Provider, version versions.Version, target addrs.Platform) (PackageMeta, error) {
	if len(m) == 0 {
		return PackageMeta{}, &NotFoundError{Provider: provider}
	}
	for _, sel := range m {
		if !sel.Handles(provider) {
			continue
		}
		meta, err := sel.Source.PackageMeta(ctx, provider, version, target)
		switch {
		case err == nil:
			return meta, nil
		case isNotFound(err), isNotKnown(err), isPlatformUnsupported(err):
			continue
		default:
			return PackageMeta{}, err
		}
	}
	return PackageMeta{}, &registry.PlatformUnsupportedError{Provider: provider, Version: version, Platform: target}
}

// ForDisplay names the methods that handle provider, comma-separated.
func (m Multi) ForDisplay(provider addrs.Provider) string {
	names := m.sourcesFor(provider)
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

func (m Multi) sourcesFor(provider addrs.Provider) []string {
	var out []string
	for _, sel := range m {
		if sel.Handles(provider) {
			out = append(out, sel.Source.ForDisplay(provider))
		}
	}
	return out
}
