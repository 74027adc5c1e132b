// Package requirements collects the provider requirements of a whole module
// tree as OpenTofu v1.12 does (providers.md §5): every module's
// required_providers entries, the deprecated version argument of provider
// blocks, the providers implied by resource, data and ephemeral types and by
// import blocks, the built-in "terraform" provider, and — when a state file
// is read — the providers its resources use. The result maps each provider
// to the intersection of all the constraints that apply to it, and keeps
// where each requirement came from.
//
// It also reports what OpenTofu reports while building the tree about
// provider names (duplicate local names, implied names that disagree with
// required_providers), plus one tfdeps warning: a module that requires
// hashicorp/terraform, the incompatible predecessor of the built-in
// provider.
//
// The flavour is the one the tree was loaded with (config.WithFlavour,
// Module.Flavour): it gives the default registry host of implied providers
// and of the addresses these diagnostics display without a host
// (registry.terraform.io for Terraform), and Terraform requires nothing
// for the provider blocks of test files (only for the modules their runs
// test). Texts name the flavour's product and command (Terraform and
// "terraform apply" in the Terraform flavour).
//
// Loading and merging configuration files is the config package's job;
// selecting versions and installing providers is not done here.
package requirements
