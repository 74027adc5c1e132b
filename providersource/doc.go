// Package sources owns where provider packages come from: the Source
// interface (which versions of a provider exist; where the package of one
// version for one platform is, and how to authenticate it), its
// implementations for the origin registry, filesystem mirrors (packed and
// unpacked layouts), network mirrors and OCI registry mirrors (oci_mirror,
// through oras-go, with the OCIBlob location and a Push in the same
// layout), the Multi source that combines
// installation methods with include/exclude patterns as OpenTofu v1.12 does,
// the Memoize decorator, and the construction of the whole chain from the
// CLI configuration (explicit provider_installation methods, the implied
// local directories plus direct installation, or init's -plugin-dir).
//
// It does not choose versions, download or unpack archives, or check lock
// files: the installer does that with the PackageMeta a Source returns.
// Registry protocol details and package authentication live in package
// registry; sources adapts them.
package providersource
