// Command tfdeps does the configuration and provider side of `tofu init`:
// it loads configurations as OpenTofu does, collects provider requirements,
// installs providers and maintains the dependency lock file.
package main

import (
	"os"
	"runtime/debug"

	"github.com/tfdeps/tfdeps/internal/cli"
)

func main() {
	// Parsing HCL allocates about 160 bytes per byte of configuration, most
	// of it short-lived (a loaded tree keeps about 12 bytes per byte:
	// requirements.BenchmarkLoadTree). Collecting half as often as Go's
	// default costs less CPU, and the peak (about three times what is
	// kept) stays well below OpenTofu's (bench/config.sh). GOGC still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	// A soft memory limit bounds the garbage on top of what loading keeps
	// (up to about 300 bytes per token at its peak; config.MaxFileTokens
	// bounds the tokens of a file); near it the GC runs more often, at
	// most half the CPU. GOMEMLIMIT still wins.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1536 << 20)
	}
	stop := startProfile()
	code := cli.Main(cli.SystemEnv())
	stop()
	os.Exit(code)
}
