// Command serveload is the load generator of bench/serve.sh.
//
//	serveload get -c CLIENTS -n REQUESTS URL...    GET the URLs round-robin from CLIENTS goroutines
//	serveload read -c CLIENTS -n READS FILE...     read the files the same way (the disk floor)
//	serveload static -listen ADDR -dir DIR         serve DIR with net/http's file server (the loopback floor)
//
// get and read print one line: operations, seconds, operations per second,
// MB/s (MB = 10^6 bytes), errors, and the 50th and 99th percentile and the
// largest latency of one operation (for get: from sending the request to
// the end of the body) in milliseconds. A get that fails, answers other
// than 200 or takes longer than -timeout counts as an error; the first
// error is printed to standard error. Each get client has its own
// connection, so -c 1000 makes 1,000 concurrent connections.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
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
	timeout := fs.Duration("timeout", 5*time.Minute, "get: bound on one request")
	fs.Parse(os.Args[2:])
	switch os.Args[1] {
	case "get":
		client := &http.Client{
			Timeout:   *timeout,
			Transport: &http.Transport{MaxIdleConnsPerHost: *clients, MaxConnsPerHost: *clients},
		}
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
	took := make([]time.Duration, n)
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
				t0 := time.Now()
				m, err := op(targets[int(i)%len(targets)])
				took[i] = time.Since(t0)
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
	slices.Sort(took)
	fmt.Printf("ops=%d seconds=%.2f ops_per_s=%.0f MB_per_s=%.0f errors=%d p50_ms=%.1f p99_ms=%.1f max_ms=%.1f\n",
		n, secs, float64(n)/secs, float64(bytes.Load())/1e6/secs, errs.Load(),
		ms(percentile(took, 50)), ms(percentile(took, 99)), ms(percentile(took, 100)))
}

// percentile returns the p-th percentile (nearest rank) of sorted.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 × len)
	return sorted[max(rank, 1)-1]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
