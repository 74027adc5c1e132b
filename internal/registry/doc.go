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
// It does not read CLI configuration files or the environment itself (both
// are passed in), does not choose versions, extract provider archives, talk
// to network or filesystem mirrors, or print anything.
package registry
