// Package registrytest is a test-only, in-process fake of a provider registry
// and of a provider network mirror, served over TLS on the loopback interface.
//
// It owns: a per-server certificate authority (so clients can trust the fake
// through a cert pool or an SSL_CERT_FILE), deterministic provider zips whose
// content derives from the provider, version and platform (optionally very
// large, generated while streaming), SHA256SUMS documents signed with test
// OpenPGP keys committed under testdata/, request recording, and fault
// injection per endpoint (HTTP errors, dropped connections, truncated, slow or
// hanging responses, tampered archives, bad signatures, wrong content types,
// oversized bodies).
//
// Download responses come in OpenTofu's style (a "packages" map, the test
// key published) or, with Options.TerraformStyle, in the Terraform
// registry's (no packages map; the one key that signs the provider's
// SHA256SUMS, with a "trust_signature" for a partner key). Stand-ins for
// HashiCorp's release and partner keys (HashiCorpTestKey, PartnersTestKey,
// TerraformTrustedKeys) let tests produce the "signed by HashiCorp" and
// partner results that real Terraform would give only for HashiCorp's own
// keys.
//
// It also fakes the module registry protocol (modules.go): modules.v1,
// versions, the download endpoint in its 204/X-Terraform-Get, JSON and
// direct forms, module archives built from in-test file maps (zip, tar.gz,
// tgz, tar.xz, tar.bz2: archives.go), and an HTTP page answering
// terraform-get=1 with X-Terraform-Get.
//
// It does not import the production packages: it speaks the protocols from
// its own small structs, so that it checks the clients rather than mirrors
// them. It never listens on anything but 127.0.0.1.
package registrytest
