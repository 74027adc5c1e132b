// Command tfdeps does the configuration and provider side of `tofu init`:
// it loads configurations as OpenTofu does, collects provider requirements,
// installs providers and maintains the dependency lock file.
package main

import (
	"os"

	"github.com/tfdeps/tfdeps/internal/cli"
)

func main() {
	os.Exit(cli.Main(cli.SystemEnv()))
}
