package registry

import (
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// BenchmarkDownload downloads and authenticates a large package (200 MB by
// default, TFDEPS_BENCH_MB to change) from the fake over loopback TLS: one
// pass writes the file and computes its SHA-256, then the four
// authentication steps run. It reports the peak heap growth, which must
// not depend on the package size.
func BenchmarkDownload(b *testing.B) {
	mb := int64(200)
	if s := os.Getenv("TFDEPS_BENCH_MB"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
			mb = n
		}
	}
	srv := registrytest.New(b, registrytest.Options{Providers: []registrytest.Provider{{
		Namespace: "acme", Type: "big",
		Versions: []registrytest.Version{{Version: "1.0.0", Platforms: []string{"linux_amd64"}, Size: mb << 20}},
	}}})
	c, _ := testClient(b, srv, testEnv{})
	p := mustProviderB(b, exampleHost+"/acme/big")
	meta, err := c.FindPackage(b.Context(), p, mustVersionB(b, "1.0.0"), linuxAMD64)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	b.SetBytes(meta.Packages[linuxAMD64].Size)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		a, res, err := c.FetchPackage(b.Context(), meta, dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res.Summary() != "signed" {
			b.Fatalf("summary %q", res.Summary())
		}
		a.Remove()
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapSys-before.HeapSys)/(1<<20), "heap-growth-MB")
}
