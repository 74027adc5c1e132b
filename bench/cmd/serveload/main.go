// Command serveload is the load generator of bench/serve.sh.
//
//	serveload get -c CLIENTS -n REQUESTS URL...    GET the URLs round-robin from CLIENTS goroutines
//	serveload read -c CLIENTS -n READS FILE...     read the files the same way (the disk floor)
//	serveload static -listen ADDR -dir DIR         serve DIR with net/http's file server (the loopback floor)
//
// get and read print one line: operations, seconds, operations per second,
// MB/s (MB = 10^6 bytes) and errors.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: serveload get|read|static ...")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	clients := fs.Int("c", 100, "concurrent clients")
	n := fs.Int("n", 1000, "total operations")
	listen := fs.String("listen", "127.0.0.1:0", "static: address")
	dir := fs.String("dir", ".", "static: directory")
	fs.Parse(os.Args[2:])
	switch os.Args[1] {
	case "get":
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *clients, MaxConnsPerHost: *clients}}
		run(*clients, *n, fs.Args(), func(u string) (int64, error) {
			resp, err := client.Get(u)
			if err != nil {
				return 0, err
			}
			defer resp.Body.Close()
			m, err := io.Copy(io.Discard, resp.Body)
			if err == nil && resp.StatusCode != http.StatusOK {
				err = fmt.Errorf("%s: %s", u, resp.Status)
			}
			return m, err
		})
	case "read":
		run(*clients, *n, fs.Args(), func(path string) (int64, error) {
			f, err := os.Open(path)
			if err != nil {
				return 0, err
			}
			defer f.Close()
			return io.Copy(io.Discard, f)
		})
	case "static":
		ln, err := net.Listen("tcp", *listen)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(ln.Addr().String())
		os.Stdout.Sync()
		http.Serve(ln, http.FileServer(http.Dir(*dir)))
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", os.Args[1])
		os.Exit(2)
	}
}

// run performs n operations over targets from clients goroutines.
func run(clients, n int, targets []string, op func(string) (int64, error)) {
	if len(targets) == 0 {
		fmt.Fprintln(os.Stderr, "no targets")
		os.Exit(2)
	}
	var next, bytes, errs atomic.Int64
	var firstErr sync.Once
	start := time.Now()
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				m, err := op(targets[int(i)%len(targets)])
				bytes.Add(m)
				if err != nil {
					errs.Add(1)
					firstErr.Do(func() { fmt.Fprintln(os.Stderr, "error:", err) })
				}
			}
		}()
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	fmt.Printf("ops=%d seconds=%.2f ops_per_s=%.0f MB_per_s=%.0f errors=%d\n", n, secs, float64(n)/secs, float64(bytes.Load())/1e6/secs, errs.Load())
}
