// Command fakemodules serves a tree of registry modules for
// bench/modules.sh: -n top-level modules bench/tNN/aws, each the head of
// its own chain of -depth modules (bench/tNN-dD/aws), so n×depth distinct
// packages, from the fake registry of internal/registrytest. Clients reach
// it through a loopback proxy that holds every chunk of every response
// for -delay (a network's latency). It writes the CA file, a CLI
// configuration (host block with providers.v1 and modules.v1 for
// registry.opentofu.org, through the proxy) and an env file into DIR,
// answers GET /_archives with the number of archive downloads so far and
// GET /_requests with the number of module registry requests (versions
// and download locations), and serves until killed.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

func main() {
	dir := flag.String("dir", ".", "directory for the CA, CLI configuration and env file")
	n := flag.Int("n", 10, "number of top-level modules")
	depth := flag.Int("depth", 3, "modules in each chain (nesting depth)")
	delay := flag.Duration("delay", 50*time.Millisecond, "latency added to every response chunk")
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

func modules(n, depth int) []registrytest.Module {
	var mods []registrytest.Module
	for t := 1; t <= n; t++ {
		for d := 1; d <= depth; d++ {
			body := fmt.Sprintf("output \"name\" {\n  value = %q\n}\n", chainName(t, d))
			if d < depth {
				body += fmt.Sprintf("\nmodule \"next\" {\n  source  = \"bench/%s/aws\"\n  version = \"~> 1.0\"\n}\n", chainName(t, d+1))
			}
			files := map[string]string{"main.tf": body, "README.md": strings.Repeat("documentation\n", 2000)}
			m := registrytest.Module{Namespace: "bench", Name: chainName(t, d), System: "aws"}
			for _, v := range []string{"1.0.0", "1.1.0"} {
				m.Versions = append(m.Versions, registrytest.ModuleVersion{Version: v, Files: files, Format: "tar.gz", RelativeLocation: true})
			}
			mods = append(mods, m)
		}
	}
	return mods
}

func run(dir string, n, depth int, delay time.Duration) error {
	sa, err := registrytest.StartStandalone(dir, registrytest.Options{Modules: modules(n, depth)}, "registry.opentofu.org")
	if err != nil {
		return err
	}
	defer sa.Close()
	sa.Override("/_archives", func(w http.ResponseWriter, r *http.Request) {
		count := 0
		for _, req := range sa.Requests() {
			if req.Endpoint == registrytest.ModuleArchive && req.Method == http.MethodGet {
				count++
			}
		}
		fmt.Fprintln(w, count)
	})
	// /_requests: module registry requests (versions and download
	// endpoints) so far.
	sa.Override("/_requests", func(w http.ResponseWriter, r *http.Request) {
		count := 0
		for _, req := range sa.Requests() {
			if req.Endpoint == registrytest.ModuleVersions || req.Endpoint == registrytest.ModuleDownload {
				count++
			}
		}
		fmt.Fprintln(w, count)
	})
	proxy, err := startProxy(sa.Host(), delay)
	if err != nil {
		return err
	}
	base := "https://" + proxy
	cfg := fmt.Sprintf("host \"registry.opentofu.org\" {\n  services = {\n    \"providers.v1\" = %q\n    \"modules.v1\" = %q\n  }\n}\n", base+"/v1/providers/", base+"/v1/modules/")
	if err := os.WriteFile(sa.CLIConfigFile, []byte(cfg), 0o644); err != nil {
		return err
	}
	env := strings.Join(append(sa.Env, "FAKE_PROXY_HOST="+proxy), "\n") + "\n"
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

// startProxy forwards loopback TCP connections to target, holding each
// chunk the server sends for delay.
func startProxy(target string, delay time.Duration) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go forward(c, target, delay)
		}
	}()
	return ln.Addr().String(), nil
}

func forward(client net.Conn, target string, delay time.Duration) {
	defer client.Close()
	server, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer server.Close()
	go io.Copy(server, client)
	buf := make([]byte, 64<<10)
	for {
		n, err := server.Read(buf)
		if n > 0 {
			time.Sleep(delay)
			if _, werr := client.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
