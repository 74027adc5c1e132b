// Package difftest is tfdeps' differential test against OpenTofu: it runs
// the reference tofu binary and tfdeps on the same inputs — the
// configuration fixtures and requirement trees of ../shared/conformance,
// the configurations of the CLI's registry scenarios against the fake
// registry of internal/registrytest, lock-file cases, empty and broken
// directories, CLI-configuration edge cases — and compares exit codes,
// stdout and stderr bytes and the files each writes.
//
// It runs only under "go test" when TFDEPS_REFERENCE_TOFU names the tofu
// binary; otherwise it skips with a message. It holds no code used by
// tfdeps itself.
//
//	TFDEPS_REFERENCE_TOFU=/path/to/tofu go test ./internal/difftest -v -run TestDifferential
//
// prints "identical N / M" and the list of differences; the test fails on
// any difference not listed in deviations.go.
package difftest
