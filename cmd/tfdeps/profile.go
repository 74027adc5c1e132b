package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// envCPUProfile names the environment variable that, when set to a path,
// makes tfdeps write a CPU profile of the whole run there (for
// `go tool pprof`). It is undocumented on purpose: a tool for measuring
// tfdeps itself (bench/sidebyside.sh, issue #15), not a feature.
const envCPUProfile = "TFDEPS_CPUPROFILE"

// startProfile starts the CPU profile TFDEPS_CPUPROFILE asks for and
// returns the function that stops it (a no-op when none was asked for).
func startProfile() (stop func()) {
	path := os.Getenv(envCPUProfile)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "tfdeps: %s: %v\n", envCPUProfile, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "tfdeps: %s: %v\n", envCPUProfile, err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
