package moduleinstall

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/registry"
)

// benchChains is bench/modules.sh's tree: n registry modules, each the
// head of a chain depth deep (bench/cmd/fakemodules).
func benchChains(n, depth int) ([]registrytest.Module, map[string]string) {
	name := func(t, d int) string {
		if d == 1 {
			return fmt.Sprintf("t%02d", t)
		}
		return fmt.Sprintf("t%02d-d%d", t, d)
	}
	var mods []registrytest.Module
	var root strings.Builder
	for t := 1; t <= n; t++ {
		fmt.Fprintf(&root, "module \"t%02d\" {\n  source  = \"bench/%s/aws\"\n  version = \"~> 1.0\"\n}\n", t, name(t, 1))
		for d := 1; d <= depth; d++ {
			body := fmt.Sprintf("output \"name\" {\n  value = %q\n}\n", name(t, d))
			if d < depth {
				body += fmt.Sprintf("module \"next\" {\n  source  = \"bench/%s/aws\"\n  version = \"~> 1.0\"\n}\n", name(t, d+1))
			}
			files := map[string]string{"main.tf": body, "README.md": strings.Repeat("documentation\n", 2000)}
			m := registrytest.Module{Namespace: "bench", Name: name(t, d), System: "aws"}
			for _, v := range []string{"1.0.0", "1.1.0"} {
				m.Versions = append(m.Versions, registrytest.ModuleVersion{Version: v, Files: files, Format: "tar.gz", RelativeLocation: true})
			}
			mods = append(mods, m)
		}
	}
	return mods, map[string]string{"main.tf": root.String()}
}

// BenchmarkInstallCold installs the 10×3 tree of bench/modules.sh into an
// empty directory from the in-process fake (no latency), fetching ahead
// in parallel ("parallel", with an empty package cache) and one package
// at a time ("sequential", no cache, OpenTofu's way), and each with the
// other cache setting. It reports CPU time too (the fake registry's
// included), steadier than wall time on a loaded machine.
func BenchmarkInstallCold(b *testing.B) {
	mods, files := benchChains(10, 3)
	for _, bc := range []struct {
		name  string
		par   int
		cache bool
	}{{"parallel", 0, true}, {"parallel-nocache", 0, false}, {"sequential-cache", -1, true}, {"sequential", -1, false}} {
		b.Run(bc.name, func(b *testing.B) {
			srv := registrytest.New(b, registrytest.Options{Modules: mods})
			// As the CLI: one transport keeping up to 16 idle connections
			// per host for the registry, one for the archives.
			tr := func() *http.Transport { t := srv.Transport(); t.MaxIdleConnsPerHost = 16; return t }
			opts := Options{
				Registry: registry.New(registry.Settings{
					Transport: tr(), Getenv: func(string) string { return "" }, Environ: func() []string { return nil },
					EmulatedVersion: "1.12.6", HostServices: srv.ModuleHostServices("registry.opentofu.org"),
				}),
				Getters: GetterOptions{HTTPClient: &http.Client{Transport: tr()}},
			}
			base := b.TempDir()
			root := writeRoot(b, filepath.Join(base, "root"), files)
			opts.Parallelism = bc.par
			opts.Events = &recorder{}
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				os.RemoveAll(filepath.Join(base, "cache"))
				os.RemoveAll(filepath.Join(base, "root", ".terraform"))
				o := opts
				if bc.cache {
					o.Cache = OpenCache(filepath.Join(base, "cache"))
				}
				b.StartTimer()
				inDir(b, filepath.Join(base, "root"), func() {
					if diags := Install(context.Background(), root, o); diags.HasErrors() {
						b.Fatal(diags)
					}
				})
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// cpuTime is the user and system CPU time of the process (the fake
// registry included), which the machine's load does not inflate as it
// does wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
