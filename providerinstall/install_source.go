package providerinstall

import (
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
)

// The installer works on the sources package's view of installation
// sources and the registry package's authentication results; these
// aliases name them where the installer's API uses them.
type (
	// Source answers version and package queries (registries, mirrors,
	// several combined).
	Source = providersource.Source
	// PackageMeta says where one package is and how to authenticate it.
	PackageMeta = providersource.PackageMeta
	// AuthResult is what authenticating a package established about its
	// hashes; nil means "unauthenticated".
	AuthResult = registry.AuthResult
	// Archive is a package archive on local storage with its SHA-256.
	Archive = registry.Archive
)

// hasKeyIDs reports whether a hash disposition carries a signature.
func hasKeyIDs(d registry.Disposition) bool { return len(d.SignedByKeyIDs) > 0 }
