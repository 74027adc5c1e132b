// Package cliconfig owns the OpenTofu CLI configuration as tfdeps reads it on
// Linux and other Unix systems: which files are read (TF_CLI_CONFIG_FILE or
// TERRAFORM_CONFIG, ~/.tofurc or the legacy ~/.terraformrc, the XDG fallback,
// and the *.tfrc / *.tfrc.json files of the configuration directory), their
// HCL 1 syntax (native or JSON), how several files and the environment merge,
// and the diagnostics OpenTofu v1.12 reports for them, byte for byte.
//
// It decodes plugin_cache_dir, plugin_cache_may_break_dependency_lock_file,
// host and credentials blocks (credentials.tfrc.json included),
// registry_protocols, provider_installation (direct, filesystem_mirror,
// network_mirror with trust_all_hashes, oci_mirror with its checked
// repository_template, dev_overrides), and the OCI registry credentials
// blocks oci_credentials and oci_default_credentials (internal/ociauth turns
// them into a credentials policy); credentials helpers are parsed and
// reported as unsupported. The Terraform flavour knows no OCI setting. It also knows
// where the implied local plugin directories are and stores the -plugin-dir
// list of init in the data directory. Credentials blocks are handed to the
// registry client (which also reads TF_TOKEN_* variables) as tokens by label.
//
// Options.Flavour selects Terraform's locations instead: ~/.terraformrc and
// ~/.terraform.d only (no ~/.tofurc, no XDG fallbacks, no
// $XDG_DATA_HOME/opentofu/plugins).
//
// It does not contact any host, does not scan mirror directories and does not
// build installation sources: package sources turns a Config into sources.
// Every effect is injected through Options: environment, home directory, file
// system root and launch directory.
package cliconfig
