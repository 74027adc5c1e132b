// Package providerlock is the library side of "tfdeps providers lock": it
// collects, for every required provider and every requested platform, the
// hashes OpenTofu's "tofu providers lock" would record, and merges them into
// an existing set of lock entries with OpenTofu's rules and messages.
//
// The result is the one OpenTofu produces, but it is obtained faster:
//
//   - every provider × platform package is handled concurrently, with a
//     bounded number of requests in flight per host (LimitHosts);
//   - a package already hashed locally (in this run, or in an earlier one
//     through the persistent HashCache) is not downloaded again: its cached
//     "zh:" must equal the checksum the source reports now, and the source's
//     own authentication is re-run over the cached size and checksum, so
//     the recorded hashes are exactly those a download would give;
//   - when a registry's "packages" map gives the "h1:" of a platform and the
//     registry's signature over SHA256SUMS verifies, that "h1:" stands in for
//     the hash of the extracted package and nothing is downloaded.
//
// Only hashes computed from downloaded bytes that passed authentication are
// written to the hash cache.
//
// Locker.LockModule does the whole command in one root module: it reads
// the configuration's provider requirements and the lock file, collects,
// merges and writes the lock file atomically, returning the lines to show
// and every diagnostic in a ModuleResult. NewSource picks the one source
// the command takes packages from. It also finds root modules below a
// directory (FindRootModules) for "-recursive". It does not print: the CLI
// renders the Events and the ModuleResult, and parses the flags.
package providerlock
