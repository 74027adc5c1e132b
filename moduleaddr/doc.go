// Package moduleaddr owns module source addresses: the `source` argument of a
// module block, classified and normalised exactly as OpenTofu 1.12.6 does
// (spec modules.md §2), and the choice of a registry module version (§3.3).
//
// A source is one of three kinds, all implementing [Source]:
//
//   - [Local]: a path starting with "./", "../", ".\" or "..\", cleaned
//     (§2.1). It names another directory of the caller's package.
//   - [Registry]: [HOST/]NAMESPACE/NAME/SYSTEM[//SUBDIR] (§2.3), parsed with
//     github.com/opentofu/registry-address/v2 so every error text is
//     OpenTofu's.
//   - [Remote]: a go-getter address (§2.4), normalised with go-getter
//     v1.8.6's detectors in OpenTofu's order: GitHub (query kept aside),
//     Git SCP, BitBucket, GCS, S3, absolute file path. GitLab is not enabled.
//
// [Parse] tries local, then registry (its errors discarded), then remote;
// [ParseRegistry] is for calls that also set `version`.
//
// The BitBucket detector asks api.bitbucket.org over the network, like
// go-getter's. [Parser.HTTPClient] lets callers (and tests) choose the HTTP
// client it uses; nothing else in this package does I/O.
//
// [SelectVersion] picks a registry module version from the registry's list
// with OpenTofu's rules, including its prerelease quirk.
//
// The package does not fetch anything, does not know about modules.json and
// does not produce diagnostics: callers (config, the module installer) turn
// its errors into OpenTofu's diagnostics. [MaybeRelativePathError] marks the
// error that config reports with the "use ./%s instead" hint (M2).
package moduleaddr
