// Package modules installs the module calls of a configuration into
// .terraform/modules as "tofu init" and "tofu get" do: it is the
// config.ModuleWalker that config.BuildTree drives in OpenTofu's walk
// order (so the cycle check lives in one place), reusing what the
// manifest says is installed, resolving registry versions, fetching
// remote packages with go-getter (OpenTofu's getter and decompressor set,
// with its oci getter for OCI registries, oci.go), and writing
// modules.json.
//
// It reports progress only through what it is passed: the Events
// interface (OpenTofu's lines, in walk order) and, for a live display,
// the FetchEvents struct (fetches as they happen); it never prints. Independent packages are fetched ahead of the walk, in
// parallel, once per distinct package address, into a per-run staging
// area or the shared package cache (cache.go: registry packages keyed by
// module, version and location, git packages by address and the commit
// "git ls-remote" resolves their ref to, http(s) packages by address or
// checksum, OCI packages by repository and manifest digest; cachekey.go,
// gitref.go); the walk then installs them in
// OpenTofu's order, taking first what it needs now, so the output and
// the layout are those of a sequential installer.
//
// The flavour (Options.Flavour) changes the getter set (Terraform has no
// oci getter: oci:// is an unknown scheme), the texts of the diagnostics
// (Terraform's where they differ: the product name, "Module not found",
// a missing registry subdirectory, the location named in a failed
// download), the default registry host of test files' run blocks, and,
// for Terraform, that the modules directory is created first and
// modules.json is never written after errors. Terraform installs modules
// in a graph walk whose order between independent modules varies from
// run to run; the walk order here is one of its orders.
//
// It works in the working directory Options.Dir (the current directory
// when ""), without changing the process's: the paths it records and
// reports stay relative to it, and are joined to it only where the
// operating system is called (dir.go), so that several installations can
// run at once in one process.
//
// It does not own source addresses and version selection (moduleaddr),
// the manifest format (moduleinstall/manifest), the configuration
// loader and tree (config) or the registry protocol client
// (registry).
package moduleinstall
