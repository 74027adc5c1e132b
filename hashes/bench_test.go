package hashes

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// BenchmarkHashZip measures "h1:" and "zh:" of realistic provider zips of
// 50 MB and 200 MB (generated once per size into a temporary directory, or
// the file named by TFDEPS_BENCH_ZIP as size "file"), reporting MB/s of zip
// bytes and the peak live heap while hashing, which must not grow with the
// archive's size. MB/cpu-s is the throughput per second of CPU time (h1
// uses several cores, and a busy machine inflates wall time).
func BenchmarkHashZip(b *testing.B) {
	sizes := []string{"50", "200"}
	if os.Getenv("TFDEPS_BENCH_ZIP") != "" {
		sizes = []string{"file"}
	}
	for _, size := range sizes {
		b.Run("size="+size+"MB", func(b *testing.B) {
			path := benchZipPath(b, size)
			info, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			b.Run("h1", func(b *testing.B) {
				benchHash(b, info.Size(), func() (Hash, error) { return HashZipFile(path) })
			})
			b.Run("zh", func(b *testing.B) {
				benchHash(b, info.Size(), func() (Hash, error) { return ZipHashFile(path) })
			})
		})
	}
}

func benchZipPath(b *testing.B, size string) string {
	if path := os.Getenv("TFDEPS_BENCH_ZIP"); path != "" {
		return path
	}
	var mb int
	fmt.Sscan(size, &mb)
	path := filepath.Join(b.TempDir(), "package.zip")
	if err := createBenchZip(path, mb); err != nil {
		b.Fatal(err)
	}
	return path
}

func benchHash(b *testing.B, size int64, hash func() (Hash, error)) {
	b.SetBytes(size)
	b.ReportAllocs()
	runtime.GC()
	peak := watchHeap()
	cpu := processCPU()
	b.ResetTimer()
	for b.Loop() {
		if _, err := hash(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	cpu = processCPU() - cpu
	b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MB")
	if cpu > 0 {
		// Throughput per CPU second: comparable across loads, and with the
		// CPU time of sha256sum.
		b.ReportMetric(float64(size)*float64(b.N)/(1<<20)/cpu.Seconds(), "MB/cpu-s")
	}
}

// watchHeap samples the heap (live and not yet collected objects) every
// 5 ms until the returned function is called, which returns the peak.
func watchHeap() func() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak
	}
}
