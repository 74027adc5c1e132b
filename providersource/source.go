package providersource

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// Source is a place provider packages can be found.
type Source interface {
	// AvailableVersions lists the versions of provider the source has,
	// sorted by precedence, with any warnings meant for the user.
	AvailableVersions(ctx context.Context, provider addrs.Provider) (versions.List, Warnings, error)
	// PackageMeta says where the package of provider at version for
	// target is and how to authenticate it.
	PackageMeta(ctx context.Context, provider addrs.Provider, version versions.Version, target addrs.Platform) (PackageMeta, error)
	// ForDisplay names the source in messages about provider.
	ForDisplay(provider addrs.Provider) string
}

// Warnings are human-readable texts a source returns with a version list.
type Warnings []string

// PackageMeta describes one package: a provider version for one platform.
type PackageMeta struct {
	Provider       addrs.Provider
	Version        versions.Version
	TargetPlatform addrs.Platform
	// ProtocolVersions are the plugin protocol versions the package speaks,
	// when the source knows them (only the registry does).
	ProtocolVersions []string
	// Filename is the archive's name, e.g.
	// terraform-provider-aws_5.31.0_linux_amd64.zip.
	Filename string
	// Location is where the package is: LocalArchive, LocalDir or HTTPURL.
	Location Location
	// Authentication checks a downloaded archive; nil means none is
	// possible (filesystem mirrors, network mirrors without hashes).
	Authentication Authentication
	// DownloadRetries is the installation method's download_retry_count,
	// nil when not set (see registry.Settings.DownloadRetries).
	DownloadRetries *int
}

// Location is where a package is.
type Location interface {
	String() string
	isLocation()
}

// LocalArchive is a zip archive on local storage.
type LocalArchive string

// LocalDir is an already extracted package directory.
type LocalDir string

// HTTPURL is an archive to download.
type HTTPURL struct{ URL *url.URL }

func (l LocalArchive) String() string { return string(l) }
func (l LocalDir) String() string     { return string(l) }
func (l HTTPURL) String() string {
	if l.URL == nil {
		return ""
	}
	return l.URL.String()
}

func (LocalArchive) isLocation() {}
func (LocalDir) isLocation()     {}
func (HTTPURL) isLocation()      {}

// NotFoundError: no source that handles the provider has any version of it.
// Sources lists the display names of those sources, for init's message.
type NotFoundError struct {
	Provider addrs.Provider
	Sources  []string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("provider %s was not found in any of the search locations", e.Provider.String())
}

// isNotFound reports errors a multi-source skips when listing versions.
func isNotFound(err error) bool {
	var nf *NotFoundError
	return errors.As(err, &nf)
}

// isNotKnown reports the registry's "does not have a provider named".
func isNotKnown(err error) bool {
	var nk *registry.ProviderUnknownError
	return errors.As(err, &nk)
}

// isPlatformUnsupported reports "no package for this platform".
func isPlatformUnsupported(err error) bool {
	var pu *registry.PlatformUnsupportedError
	return errors.As(err, &pu)
}
