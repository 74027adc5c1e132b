// Package addrs owns the identities tfdeps works with: provider source
// addresses (hostname, namespace, type), registry hostnames and target
// platforms.
//
// It parses and normalises them exactly as OpenTofu v1.12 does — default host
// registry.opentofu.org, default namespace "hashicorp", Unicode case folding,
// hostnames compared in punycode and shown in Unicode, ":443" dropped, the
// built-in "terraform.io/builtin/terraform" provider and the legacy "-"
// namespace — and reproduces OpenTofu's error texts byte for byte.
//
// The functions and methods ending in In take a flavour: for Terraform the
// default host is registry.terraform.io (see flavour.go); the others are
// OpenTofu's.
//
// Every value is immutable and comparable with ==. String returns the
// machine form, ForDisplay the form shown to people. The package does no I/O
// and knows nothing about configuration files, registries or lock files.
package addrs
