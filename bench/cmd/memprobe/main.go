// Command memprobe loads each configuration directory given as an argument
// as `tfdeps config` does and prints its size, the HCL tokens of its
// native files, the bytes allocated and the largest live heap seen (sampled
// every millisecond, after which a GC runs), per byte of input. It is a
// measuring aid for bench/memory.sh, not a test.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfdeps/tfdeps/config"
)

func main() {
	for _, dir := range os.Args[1:] {
		probe(dir)
	}
}

func probe(dir string) {
	size, tokens := 0, 0
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		size += len(src)
		if strings.HasSuffix(e.Name(), ".tf") {
			toks, _ := hclsyntax.LexConfig(src, e.Name(), hcl.InitialPos)
			tokens += len(toks)
		}
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	stop := make(chan struct{})
	peak := make(chan uint64)
	go sample(stop, peak)
	_, diags := config.LoadDir(dir)
	close(stop)
	p := <-peak
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	live := p - before.HeapAlloc
	first := ""
	if len(diags) > 0 {
		first = diags[0].Summary
	}
	fmt.Printf("%-28s %9d bytes %9d tokens alloc %6.1f B/byte peak %6.1f MB (%5.1f B/byte, %5.1f B/token) %q\n",
		filepath.Base(dir), size, tokens, float64(alloc)/float64(size), float64(live)/1e6, float64(live)/float64(size), float64(live)/float64(max(tokens, 1)), first)
}

func sample(stop chan struct{}, out chan uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for {
		metrics.Read(s)
		peak = max(peak, s[0].Value.Uint64())
		select {
		case <-stop:
			out <- peak
			return
		case <-t.C:
		}
	}
}
