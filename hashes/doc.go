// Package hashes owns the provider package hashes recorded in dependency lock
// files and checked by installers: the "h1:" scheme (Go's dirhash Hash1 over
// the package's files, with no name prefix) and the legacy "zh:" scheme (the
// SHA-256 of the zip archive's bytes).
//
// It parses and classifies hash strings ([Parse], [Hash.Scheme],
// [Preferred]), computes hashes of a zip archive without extracting it
// ([HashZip] streams from any io.ReaderAt), of an extracted directory
// ([HashDir]) and of archive bytes as they stream past ([NewZipHasher]), and
// decides whether a package matches a list of hashes ([MatchesAny],
// [Matching]) with the rules OpenTofu uses: unknown schemes never match and
// "zh:" is never checked against a directory.
//
// It does not download, unpack or authenticate packages and does not know
// about lock files; those belong to the installer and the lockfile package.
package hashes
