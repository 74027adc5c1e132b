// Package lockfile owns the dependency lock file, .terraform.lock.hcl: the
// in-memory provider selections ([Locks], [ProviderLock]), reading and
// validating a file with every diagnostic OpenTofu gives ([Read],
// [ReadFile]), writing it byte for byte as "tofu init" does ([Locks.Bytes],
// [WriteFile], atomically), change detection ([Locks.Equal]), the migration of
// registry.terraform.io entries ([Locks.MigrateTerraformRegistry]) and the
// check of configuration requirements against the selections
// ([CheckConsistency]).
//
// A [Flavour] switches between OpenTofu's file (the default) and Terraform's,
// which differ in the header line and the default registry host, and in the
// diagnostics for some invalid files, which come from other versions of the
// libraries under each product's reader (see terraform.go).
//
// It does not choose versions, download packages or compute hashes (see the
// versions and hashes packages), and it does not load configuration.
package lockfile
