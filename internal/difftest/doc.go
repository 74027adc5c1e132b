// Package difftest is tfdeps' differential test against OpenTofu: it runs
// the reference tofu binary and tfdeps on the same inputs — the
// configuration fixtures and requirement trees of ../shared/conformance,
// the configurations of the CLI's registry scenarios against the fake
// registry of internal/registrytest, lock-file cases, empty and broken
// directories, arguments, CLI-configuration edge cases — and compares exit
// codes, stdout and stderr bytes and the files each writes, step by step.
//
// It runs only under "go test" when TFDEPS_REFERENCE_TOFU names the tofu
// binary; otherwise it skips with a message. It holds no code used by
// tfdeps itself.
//
//	TFDEPS_REFERENCE_TOFU=/path/to/tofu-1.12.6 go test ./internal/difftest -run TestDifferential -v
//
// prints "difftest: identical N / M, listed deviations D, differences X"
// and the deviations and differences by name; the test fails on any
// difference not listed in deviations.go. TFDEPS_DIFFTEST_DUMP=DIR writes
// both programs' outputs of every differing step under DIR.
//
// TestDifferentialTerraform does the same against terraform v1.15.9
// (TFDEPS_REFERENCE_TERRAFORM) and "tfdeps -compat=terraform", the fake
// registry serving registry.terraform.io; its listed deviations are
// terraformDeviations.
//
//	TFDEPS_REFERENCE_TERRAFORM=/path/to/terraform-1.15.9 go test ./internal/difftest -run TestDifferentialTerraform -v
//
// TestFleetReference (fleet_test.go) compares "tfdeps init -recursive" on
// a generated monorepo with "tofu init" run in each root alone, root by
// root, and prints "difftest (fleet, tofu): roots identical N / M";
// TestFleetRuns does the same against single-root "tfdeps init" without a
// reference binary, and checks interrupted runs and the progress shown.
//
// Where tofu's output varies between runs (Go map iteration, goroutine
// order) the comparison accepts any of tofu's possible outputs: the
// per-provider progress lines, sourceless errors, runs of JSON
// diagnostics, the "tofu providers" tree and the missing-plugins list are
// compared as sets (see the normalizations in harness.go and tree.go),
// and cases whose texts pick from a map run tofu several times. tfdeps'
// additional JSON key "tfdeps" and its hash memo files are left out.
package difftest
