package initrun_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/initrun"
)

// Runs for several directories at once, each into its own buffers, as a
// fleet does: the process's settings are shared, the Env is per
// directory.
func ExampleRun() {
	cache := mustTempDir() // the workdir locks' directory
	defer os.RemoveAll(cache)
	base := initrun.Env{
		Getenv:    func(k string) string { return map[string]string{"XDG_CACHE_HOME": cache}[k] },
		Flavour:   flavour.OpenTofu,
		CLIConfig: &cliconfig.Config{},
		// The CLI also sets TofuVersion, CLIOptions, Registry,
		// ModuleRegistry and Workdir from the CLI configuration.
	}
	dirs := []string{mustTempDir(), mustTempDir()}
	out := make([]bytes.Buffer, len(dirs))
	codes := make([]int, len(dirs))
	var wg sync.WaitGroup
	for i, dir := range dirs {
		env := base
		env.Dir, env.Stdout, env.Stderr = dir, &out[i], &out[i]
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = initrun.Run(context.Background(), &env, initrun.Options{Backend: true, Get: true})
		}()
	}
	wg.Wait()
	for i := range dirs {
		fmt.Printf("exit %d: %s", codes[i], out[i].String())
	}
	for _, dir := range dirs {
		os.RemoveAll(dir)
	}
	// Output:
	// exit 0: OpenTofu initialized in an empty directory!
	//
	// The directory has no OpenTofu configuration files. You may begin working
	// with OpenTofu immediately by creating OpenTofu configuration files.
	// exit 0: OpenTofu initialized in an empty directory!
	//
	// The directory has no OpenTofu configuration files. You may begin working
	// with OpenTofu immediately by creating OpenTofu configuration files.
}

func mustTempDir() string {
	dir, err := os.MkdirTemp("", "initrun-example-")
	if err != nil {
		panic(err)
	}
	return dir
}
