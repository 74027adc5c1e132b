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
	// Parsing HCL allocates about 190 bytes per byte of configuration, most
	// of it short-lived; collecting half as often loads large configurations
	// about 30% faster (config.BenchmarkLoadDir). GOGC still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	// A soft memory limit keeps the heap's garbage from pushing RSS past
	// 2 GB on inputs up to 10 MB (live heap about 1.2 GB for 10 MB of
	// configuration); the GC works harder near it. GOMEMLIMIT still wins.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1536 << 20)
	}
	os.Exit(cli.Main(cli.SystemEnv()))
}
