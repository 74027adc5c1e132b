package providersource

import (
	"context"
	"fmt"
	"sync"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// FilesystemMirror is a local directory holding packages in the packed
// (HOST/NS/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip) and unpacked
// (HOST/NS/TYPE/VERSION/OS_ARCH/) layouts. The tree is walked once, on first
// use; a failed walk is retried on the next call.
type FilesystemMirror struct {
	name string // the directory as configured, for messages
	path string // where it is read

	mu       sync.Mutex
	packages map[addrs.Provider][]PackageMeta
}

var _ Source = (*FilesystemMirror)(nil)

// NewFilesystemMirror returns a mirror at dir.
func NewFilesystemMirror(dir string) *FilesystemMirror {
	return &FilesystemMirror{name: dir, path: dir}
}

// NewFilesystemMirrorAt returns a mirror read at path but named name in
// messages (OpenTofu names the launch directory's mirror
// "terraform.d/plugins" wherever it is read from).
func NewFilesystemMirrorAt(name, path string) *FilesystemMirror {
	return &FilesystemMirror{name: name, path: path}
}

// AllPackages scans the mirror (if not done yet) and returns every package
// found, by provider, in walk order.
func (m *FilesystemMirror) AllPackages() (map[addrs.Provider][]PackageMeta, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.packages != nil {
		return m.packages, nil
	}
	pkgs, err := SearchLocalDirectory(m.path)
	if err != nil {
		return nil, err
	}
	m.packages = pkgs
	return pkgs, nil
}

// AvailableVersions returns the distinct versions of provider's packages,
// any platform, sorted; a provider the mirror lacks has none. When the
// lowest is 0.0.0 a warning says it will not be used.
func (m *FilesystemMirror) AvailableVersions(ctx context.Context, provider addrs.Provider) (versions.List, Warnings, error) {
	all, err := m.AllPackages()
	if err != nil {
		return nil, nil, err
	}
	seen := map[versions.Version]bool{}
	var list versions.List
	for _, p := range all[provider] {
		if !seen[p.Version] {
			seen[p.Version] = true
			list = append(list, p.Version)
		}
	}
	// OpenTofu collects the versions in a map: order versions that differ
	// only in build metadata deterministically.
	list.SortByMetadataThenPrecedence()
	var warnings Warnings
	if len(list) > 0 && list[0].IsZero() {
		warnings = append(warnings, fmt.Sprintf("Provider %s has an unspecified (0.0.0) version available in the filesystem mirror, source at %s. It will not be used. \n"+
			"If the version 0.0.0 is intended to represent a non-published provider, consider using dev_overrides - https://opentofu.org/docs/cli/config/config-file/#development-overrides-for-provider-developers",
			provider.String(), m.name))
	}
	return list, warnings, nil
}

// PackageMeta returns the first package (in walk order, so an unpacked
// directory before a zip) of provider at exactly version (build metadata
// included) for target. Filesystem mirror packages carry no authentication.
func (m *FilesystemMirror) PackageMeta(ctx context.Context, provider addrs.Provider, version versions.Version, target addrs.Platform) (PackageMeta, error) {
	all, err := m.AllPackages()
	if err != nil {
		return PackageMeta{}, err
	}
	for _, p := range all[provider] {
		if p.Version == version && p.TargetPlatform == target {
			return p, nil
		}
	}
	return PackageMeta{}, &registry.PlatformUnsupportedError{Provider: provider, Version: version, Platform: target}
}

// ForDisplay is the directory as configured.
func (m *FilesystemMirror) ForDisplay(addrs.Provider) string { return m.name }
