// Package modules installs the module calls of a configuration into
// .terraform/modules as "tofu init" and "tofu get" do: it walks the module
// tree in OpenTofu's order, reuses what the manifest says is installed,
// resolves registry versions, fetches remote packages with go-getter
// (OpenTofu's getter, detector and decompressor set), and writes
// modules.json.
//
// It reports progress only through the Events interface passed in; it
// never prints. Independent packages are fetched ahead of the walk, in
// parallel, into a staging area or the shared package cache (cache.go);
// the walk then installs them in OpenTofu's order, so the output and the
// layout are those of a sequential installer.
//
// It does not own the manifest format (internal/modules/manifest), the
// configuration loader (config) or the registry's HTTP client
// (internal/registry).
package modules
