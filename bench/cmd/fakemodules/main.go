// Command fakemodules serves a tree of registry modules for
// bench/modules.sh: -n top-level modules bench/tNN/aws, each calling its
// own chain of -depth-1 further modules (bench/tNN-dD/aws), so n×depth
// distinct packages, from the fake registry of internal/registrytest with
// the module protocol of internal/modules/modulestest. Every response
// waits -delay first (a network round trip). It writes the CA file, a CLI
// configuration (host block with providers.v1 and modules.v1 for
// registry.opentofu.org) and an env file into DIR, answers GET /_archives
// with the number of archive downloads so far, and serves until killed.
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/tfdeps/tfdeps/internal/modules/modulestest"
	"github.com/tfdeps/tfdeps/internal/registrytest"
)

func main() {
	dir := flag.String("dir", ".", "directory for the CA, CLI configuration and env file")
	n := flag.Int("n", 10, "number of top-level modules")
	depth := flag.Int("depth", 3, "modules in each chain (nesting depth)")
	delay := flag.Duration("delay", 50*time.Millisecond, "wait before every response")
	flag.Parse()
	if err := run(*dir, *n, *depth, *delay); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func chainName(top, level int) string {
	if level == 1 {
		return fmt.Sprintf("t%02d", top)
	}
	return fmt.Sprintf("t%02d-d%d", top, level)
}

func modules(n, depth int) []modulestest.Module {
	var mods []modulestest.Module
	for t := 1; t <= n; t++ {
		for d := 1; d <= depth; d++ {
			body := fmt.Sprintf("output \"name\" {\n  value = %q\n}\n", chainName(t, d))
			if d < depth {
				body += fmt.Sprintf("\nmodule \"next\" {\n  source  = \"bench/%s/aws\"\n  version = \"~> 1.0\"\n}\n", chainName(t, d+1))
			}
			files := map[string]string{"main.tf": body, "README.md": strings.Repeat("documentation\n", 2000)}
			for _, v := range []string{"1.0.0", "1.1.0"} {
				mods = append(mods, modulestest.Module{Namespace: "bench", Name: chainName(t, d), System: "aws", Version: v, Files: files})
			}
		}
	}
	return mods
}

func run(dir string, n, depth int, delay time.Duration) error {
	sa, err := registrytest.StartStandalone(dir, registrytest.Options{}, "registry.opentofu.org")
	if err != nil {
		return err
	}
	defer sa.Close()
	fake, err := modulestest.Serve(sa.Server, modules(n, depth), delay)
	if err != nil {
		return err
	}
	sa.Override("/_archives", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, fake.ArchiveRequests()) })
	if err := os.WriteFile(sa.CLIConfigFile, []byte(fake.CLIConfig("registry.opentofu.org")), 0o644); err != nil {
		return err
	}
	env := strings.Join(sa.Env, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "env.tmp"), []byte(env), 0o644); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(dir, "env.tmp"), filepath.Join(dir, "env")); err != nil {
		return err
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	<-sig
	return nil
}
