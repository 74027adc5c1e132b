// Command fakefleet serves, for bench/fleet.sh, what a monorepo's root
// modules share from one registry: -providers providers bench/pNN (one
// version, executables of -mb MB deflating about 3:1, for the running
// platform) and -modules registry modules bench/mNN/aws (each calling the
// next, so a root calling m01 installs them all), from the fake of
// internal/registrytest as registry.opentofu.org. It writes the CA file,
// a CLI configuration and an env file into DIR, answers GET /_archives
// with the number of provider and module archives downloaded so far, and
// serves until interrupted. It is a benchmark tool, not part of tfdeps.
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

func main() {
	dir := flag.String("dir", ".", "directory for the CA, CLI configuration and env file")
	providers := flag.Int("providers", 3, "number of providers")
	mb := flag.Int64("mb", 20, "size of each provider's executable in MB")
	modules := flag.Int("modules", 4, "number of registry modules (a chain)")
	flag.Parse()
	if err := run(*dir, *providers, *mb, *modules); err != nil {
		fmt.Fprintln(os.Stderr, "fakefleet:", err)
		os.Exit(1)
	}
}

func options(providers int, mb int64, modules int) registrytest.Options {
	var opts registrytest.Options
	platform := runtime.GOOS + "_" + runtime.GOARCH
	for i := 1; i <= providers; i++ {
		opts.Providers = append(opts.Providers, registrytest.Provider{
			Namespace: "bench", Type: fmt.Sprintf("p%02d", i),
			Versions: []registrytest.Version{{Version: "1.0.0", Platforms: []string{platform}, Size: mb << 20, Deflate: true}},
		})
	}
	for i := 1; i <= modules; i++ {
		body := fmt.Sprintf("variable \"name\" {\n  default = \"m%02d\"\n}\n\noutput \"name\" {\n  value = var.name\n}\n", i)
		if i < modules {
			body += fmt.Sprintf("\nmodule \"next\" {\n  source  = \"bench/m%02d/aws\"\n  version = \"~> 1.0\"\n}\n", i+1)
		}
		files := map[string]string{"main.tf": body, "README.md": strings.Repeat("documentation\n", 2000)}
		opts.Modules = append(opts.Modules, registrytest.Module{Namespace: "bench", Name: fmt.Sprintf("m%02d", i), System: "aws",
			Versions: []registrytest.ModuleVersion{{Version: "1.0.0", Files: files, Format: "tar.gz", RelativeLocation: true}}})
	}
	return opts
}

func run(dir string, providers int, mb int64, modules int) error {
	opts := options(providers, mb, modules)
	sa, err := registrytest.StartStandalone(dir, opts, "registry.opentofu.org")
	if err != nil {
		return err
	}
	defer sa.Close()
	for _, p := range opts.Providers { // generate the packages before timing
		for _, pl := range p.Versions[0].Platforms {
			if _, err := sa.Package(p.Namespace, p.Type, "1.0.0", pl); err != nil {
				return err
			}
		}
	}
	sa.Override("/_archives", func(w http.ResponseWriter, r *http.Request) {
		count := 0
		for _, req := range sa.Requests() {
			if (req.Endpoint == registrytest.ModuleArchive || req.Endpoint == registrytest.Archive) && req.Method == http.MethodGet {
				count++
			}
		}
		fmt.Fprintln(w, count)
	})
	env := strings.Join(sa.Env, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "env.tmp"), []byte(env), 0o644); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(dir, "env.tmp"), filepath.Join(dir, "env")); err != nil {
		return err
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	return nil
}
