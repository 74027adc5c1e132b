// Command fakeserver serves N providers × the given platforms of SIZE MB
// each from the fake registry of internal/registrytest, for bench/lock.sh
// and bench/init.sh.
// Every package is generated once before the server reports ready, so the
// measured runs do not pay for it. It writes the CA file, a CLI
// configuration and an env file (KEY=VALUE lines) into DIR and serves until
// it is killed.
//
// FAKE_STATS_URL in the env file is a plain-HTTP address on loopback whose
// answer counts the requests the fake registry received so far, one
// "COUNT PATH" line per URL path (sorted by path), for bench/serve.sh to
// check how often each archive was fetched.
package main

import (
	"flag"
	"fmt"
	"iter"
	"maps"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

func main() {
	dir := flag.String("dir", ".", "directory for the CA, CLI configuration and env file")
	n := flag.Int("n", 5, "number of providers")
	mb := flag.Int64("mb", 50, "size of each provider's executable in MB")
	platforms := flag.String("platforms", "linux_amd64,linux_arm64,darwin_arm64,windows_amd64", "comma-separated platforms")
	noPackages := flag.Bool("nopackages", false, "leave the packages map out of package metadata")
	deflate := flag.Bool("deflate", false, "deflate the executables (content compressing about 3:1, like real providers) instead of storing them")
	flag.Parse()
	if err := run(*dir, *n, *mb, strings.Split(*platforms, ","), *noPackages, *deflate); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(dir string, n int, mb int64, platforms []string, noPackages, deflate bool) error {
	var providers []registrytest.Provider
	for i := 1; i <= n; i++ {
		providers = append(providers, registrytest.Provider{
			Namespace: "bench", Type: fmt.Sprintf("p%02d", i),
			Versions: []registrytest.Version{{Version: "1.0.0", Platforms: platforms, Size: mb << 20, Deflate: deflate}},
		})
	}
	opts := registrytest.Options{Providers: providers, NoPackagesMap: noPackages}
	sa, err := registrytest.StartStandalone(dir, opts, "registry.opentofu.org")
	if err != nil {
		return err
	}
	defer sa.Close()
	for _, p := range providers {
		for _, pl := range platforms {
			if _, err := sa.Package(p.Namespace, p.Type, "1.0.0", pl); err != nil {
				return err
			}
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		for path, n := range requestCounts(sa.Requests()) {
			fmt.Fprintf(w, "%d %s\n", n, path)
		}
	}))
	env := strings.Join(append(sa.Env, "FAKE_STATS_URL=http://"+ln.Addr().String()+"/stats"), "\n") + "\n"
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

// requestCounts counts reqs by URL path, in path order.
func requestCounts(reqs []registrytest.Request) iter.Seq2[string, int] {
	counts := map[string]int{}
	for _, r := range reqs {
		counts[r.Path]++
	}
	return func(yield func(string, int) bool) {
		for _, p := range slices.Sorted(maps.Keys(counts)) {
			if !yield(p, counts[p]) {
				return
			}
		}
	}
}
