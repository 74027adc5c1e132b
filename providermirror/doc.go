// Package mirror builds a provider mirror directory as "tofu providers
// mirror" does: each required provider's package for each requested
// platform, downloaded from its origin registry and authenticated, placed
// in the packed layout (HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip),
// then an index.json per provider and a VERSION.json per version, so that
// the directory is both a filesystem mirror and a static network mirror.
//
// Beyond OpenTofu: every VERSION.json entry lists the archive's "zh:" and
// "h1:" hashes (OpenTofu lists only what the registry reported for
// archives downloaded in the same run, else only the "h1:"), so clients of
// the mirror can lock every platform without downloading; and a package
// already in the target directory that passes the registry's
// authentication is not downloaded again.
//
// Also beyond OpenTofu, which cannot push providers: with Builder.OCI set,
// each provider version whose platforms were all mirrored is pushed into an
// OCI registry in the layout OpenTofu's oci_mirror installation method
// reads, each zip checked against the zh: hash its origin registry signed
// before it is sent, blobs already there skipped (oci.go).
//
// ReadModule reads what a root module asks to mirror: the configuration's
// provider requirements and the lock file's selections, checked against
// each other as OpenTofu does. The package does not print; the CLI parses
// the flags and renders Events, Problems and diagnostics.
package providermirror
