// Command fakeregistry serves the registrytest fake registry with one large
// package, and fetches that package with tfdeps' registry client, so that
// bench/download.sh can compare tfdeps with curl and sha256sum against the
// same server. It is a benchmark tool, not part of tfdeps.
//
//	fakeregistry serve -mb 200 -dir DIR   # writes DIR/ca.pem and DIR/env, runs until killed
//	fakeregistry fetch -dir DIR -n 3      # prints the best download+verify time in seconds
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: fakeregistry serve|fetch [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "fetch":
		err = fetch(os.Args[2:])
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakeregistry:", err)
		os.Exit(1)
	}
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	mb := fs.Int64("mb", 200, "size of the package in MiB")
	dir := fs.String("dir", ".", "directory for ca.pem and env")
	fs.Parse(args)
	srv, err := registrytest.Start(registrytest.Options{Providers: []registrytest.Provider{{
		Namespace: "acme", Type: "big",
		Versions: []registrytest.Version{{Version: "1.0.0", Platforms: []string{"linux_amd64"}, Size: *mb << 20}},
	}}})
	if err != nil {
		return err
	}
	defer srv.Close()
	info, err := srv.Package("acme", "big", "1.0.0", "linux_amd64")
	if err != nil {
		return err
	}
	ca, err := srv.WriteCAFile(*dir)
	if err != nil {
		return err
	}
	env := fmt.Sprintf("CA_FILE=%s\nPROVIDERS_URL=%s\nARCHIVE_URL=%s/files/acme/big/1.0.0/%s\nSHA256=%s\nSIZE=%d\n",
		ca, srv.ProvidersBaseURL(), srv.URL(), info.Filename, info.SHA256, info.Size)
	if err := writeAtomic(filepath.Join(*dir, "env"), env); err != nil {
		return err
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	return nil
}

func writeAtomic(path, content string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func readEnv(dir string) (map[string]string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "env"))
	if err != nil {
		return nil, err
	}
	env := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			env[k] = v
		}
	}
	return env, nil
}

func fetch(args []string) error {
	fs := flag.NewFlagSet("fetch", flag.ExitOnError)
	dir := fs.String("dir", ".", "directory holding ca.pem and env")
	n := fs.Int("n", 3, "number of downloads; the best time is printed")
	fs.Parse(args)
	env, err := readEnv(*dir)
	if err != nil {
		return err
	}
	pem, err := os.ReadFile(env["CA_FILE"])
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return errors.New("no certificate in CA file")
	}
	c := registry.New(registry.Settings{
		Transport:    &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true},
		HostServices: map[string]map[string]any{"registry.example.com": {"providers.v1": env["PROVIDERS_URL"]}},
	})
	return timeFetches(c, *dir, *n, env["SHA256"])
}

func timeFetches(c *registry.Client, dir string, n int, wantSHA string) error {
	ctx := context.Background()
	p := addrs.NewProvider("registry.example.com", "acme", "big")
	v, _ := versions.ParseVersion("1.0.0")
	best := time.Duration(0)
	for range n {
		start := time.Now()
		meta, err := c.FindPackage(ctx, p, v, addrs.Platform{OS: "linux", Arch: "amd64"})
		if err != nil {
			return err
		}
		a, res, err := c.FetchPackage(ctx, meta, dir, nil)
		if err != nil {
			return err
		}
		elapsed := time.Since(start)
		a.Remove()
		if string(a.ZH()) != "zh:"+wantSHA || res.Summary() != "signed" {
			return fmt.Errorf("unexpected result %s %s", a.ZH(), res.Summary())
		}
		if best == 0 || elapsed < best {
			best = elapsed
		}
	}
	fmt.Printf("%.3f\n", best.Seconds())
	return nil
}
