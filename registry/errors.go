package registry

import (
	"fmt"

	"github.com/opentofu/svchost"
	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/versions"
)

// HostUnreachableError: discovery of the provider's host failed.
type HostUnreachableError struct {
	Host svchost.Hostname
	Err  error
}

func (e *HostUnreachableError) Error() string {
	return fmt.Sprintf("could not connect to %s: %s", e.Host.ForDisplay(), e.Err)
}
func (e *HostUnreachableError) Unwrap() error { return e.Err }

// NoProviderRegistryError: the host offers no provider registry, or only
// another protocol version (OtherVersion).
type NoProviderRegistryError struct {
	Host         svchost.Hostname
	OtherVersion bool
	// Flavour selects the product the message names.
	Flavour flavour.Flavour
}

func (e *NoProviderRegistryError) Error() string {
	if e.OtherVersion {
		return fmt.Sprintf("host %s does not support the provider registry protocol required by this %[2]s version, but may be compatible with a different %[2]s version", e.Host.ForDisplay(), e.Flavour.Product())
	}
	return fmt.Sprintf("host %s does not offer a %s provider registry", e.Host.ForDisplay(), e.Flavour.Product())
}

// CredentialsError: the token for the host could not be looked up.
type CredentialsError struct {
	Host svchost.Hostname
	Err  error
}

func (e *CredentialsError) Error() string {
	return fmt.Sprintf("failed to retrieve credentials for %s: %s", e.Host, e.Err)
}
func (e *CredentialsError) Unwrap() error { return e.Err }

// UnauthorizedError: the registry answered 401 or 403.
type UnauthorizedError struct {
	Host            svchost.Hostname
	HaveCredentials bool
}

func (e *UnauthorizedError) Error() string {
	if e.HaveCredentials {
		return fmt.Sprintf("host %s rejected the given authentication credentials", e.Host)
	}
	return fmt.Sprintf("host %s requires authentication credentials", e.Host)
}

// ProviderUnknownError: the registry does not know the provider (404).
type ProviderUnknownError struct {
	Provider addrs.Provider
}

func (e *ProviderUnknownError) Error() string {
	return fmt.Sprintf("provider registry %s does not have a provider named %s", e.Provider.Hostname.ForDisplay(), e.Provider.String())
}

// PlatformUnsupportedError: no package for the platform. MirrorURL is set
// when a network mirror said so.
type PlatformUnsupportedError struct {
	Provider  addrs.Provider
	Version   versions.Version
	Platform  addrs.Platform
	MirrorURL string
}

func (e *PlatformUnsupportedError) Error() string {
	if e.MirrorURL != "" {
		return fmt.Sprintf("provider mirror %s does not have a package of %s %s for %s", e.MirrorURL, e.Provider.String(), e.Version.String(), e.Platform.String())
	}
	return fmt.Sprintf("provider %s %s is not available for %s", e.Provider.String(), e.Version.String(), e.Platform.String())
}

// ProtocolUnsupportedError: the version speaks no plugin protocol this
// OpenTofu version supports. Suggestion is the newest version that does
// (zero when none).
type ProtocolUnsupportedError struct {
	Provider   addrs.Provider
	Version    versions.Version
	Suggestion versions.Version
	// Flavour selects the product the message names.
	Flavour flavour.Flavour
}

func (e *ProtocolUnsupportedError) Error() string {
	return fmt.Sprintf("provider %s %s is not supported by this version of %s", e.Provider.String(), e.Version.String(), e.Flavour.Product())
}

// QueryError: a registry (or, with MirrorURL, a network mirror) query
// failed.
type QueryError struct {
	Provider  addrs.Provider
	MirrorURL string
	Err       error
}

func (e *QueryError) Error() string {
	if e.MirrorURL != "" {
		return fmt.Sprintf("failed to query provider mirror %s for %s: %s", e.MirrorURL, e.Provider.String(), e.Err)
	}
	return fmt.Sprintf("could not query provider registry for %s: %s", e.Provider.String(), e.Err)
}
func (e *QueryError) Unwrap() error { return e.Err }

// RequestCanceledError: the context was canceled during a query.
type RequestCanceledError struct{}

func (RequestCanceledError) Error() string { return "request canceled" }
