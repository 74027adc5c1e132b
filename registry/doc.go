// Package registry is the client side of OpenTofu's provider registry
// protocol, as OpenTofu v1.12 speaks it.
//
// It owns: remote service discovery (/.well-known/terraform.json, the
// providers.v1 service, host blocks that force services, a per-Disco cache),
// bearer-token credentials (TF_TOKEN_… variables and CLI configuration
// tokens), the two registry endpoints (list versions, find a package) with
// their validation, retries, timeouts and headers, streaming package
// download that hashes while it writes, and package authentication: the
// registry's package data, the SHA256SUMS line, the archive checksum and
// the OpenPGP signature, each with OpenTofu's error texts, producing hash
// dispositions and the result summary that init prints.
//
// It also owns the client side of the module registry protocol
// (modules.go, modules_location.go, modules_download.go): the modules.v1
// service, the versions list (with a per-run memo), the download location
// in each of its answer forms, and the direct download, sniffing and
// extraction of registry-hosted module archives (the one archive it
// extracts).
//
// The flavour (Settings.Flavour, carried on each PackageMeta) changes
// service discovery, the download response and package authentication.
// For Terraform: discovery is retried as Terraform's svchost retries it
// (discovery_terraform.go: 4 attempts, 5 s each, 3 redirects; no variable
// changes it) where OpenTofu asks once; an
// invalid "packages" map is dropped instead of rejected and never takes
// part in authentication; a signature is always required (no exception for
// registry.opentofu.org, no OPENTOFU_ENFORCE_GPG_* variables, no expired-key
// warning: an expired key verifies); the verifying key is classified as
// HashiCorp's, a partner's (its trust_signature verifies against
// HashiCorp's partner key) or the provider's own (AuthResult.Signer,
// TerraformSummary); signature errors carry no OpenTofu sentence around
// them. HashiCorp's two public keys are embedded (trustkeys/); tests
// replace them with Settings.TerraformKeys.
//
// It does not read CLI configuration files or the environment itself (both
// are passed in), does not choose versions, extract provider archives, talk
// to network or filesystem mirrors, or print anything.
package registry
