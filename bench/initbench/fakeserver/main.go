// Command fakeserver serves N providers of SIZE MB each from the fake
// registry of internal/registrytest, for bench/init.sh. It writes the CA
// file, a CLI configuration and an env file (KEY=VALUE lines) into DIR and
// serves until it is killed.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

func main() {
	dir := flag.String("dir", ".", "directory for the CA, CLI configuration and env file")
	n := flag.Int("n", 10, "number of providers")
	mb := flag.Int64("mb", 50, "size of each provider's executable in MB")
	flag.Parse()
	var providers []registrytest.Provider
	for i := 1; i <= *n; i++ {
		providers = append(providers, registrytest.Provider{
			Namespace: "bench", Type: fmt.Sprintf("p%02d", i),
			Versions: []registrytest.Version{{Version: "1.0.0", Platforms: []string{"linux_amd64"}, Size: *mb << 20}},
		})
	}
	sa, err := registrytest.StartStandalone(*dir, registrytest.Options{Providers: providers}, "registry.opentofu.org")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer sa.Close()
	env := strings.Join(sa.Env, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(*dir, "env.tmp"), []byte(env), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.Rename(filepath.Join(*dir, "env.tmp"), filepath.Join(*dir, "env")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, os.Kill)
	<-sig
}
