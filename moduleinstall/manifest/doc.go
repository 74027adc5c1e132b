// Package manifest owns the module manifest .terraform/modules/modules.json
// (spec modules.md §6): the record of which directory each module call
// (by key: module path joined with ".", "" for the root) was installed
// into, from which source, at which registry version.
//
// [Read] and [Parse] apply OpenTofu 1.12.6's reading rules and error texts;
// [Manifest.Write] writes the exact bytes OpenTofu writes (one line, no
// trailing newline, records sorted by key, Go's JSON escaping of <, > and &),
// atomically. Writing what was read gives the same bytes for every file
// OpenTofu wrote.
//
// The package does not install modules and does not decide whether a
// record still fits its call: the installer and config's manifest walker do.
package manifest
