package fleet

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/providersource"
)

// BenchmarkFleetProviders installs the providers of 20 roots through
// Run, each root on its own (its own source and downloads, as separate
// inits would) and through Shared.
func BenchmarkFleetProviders(b *testing.B) {
	_, client := fakeProviders(b, registrytest.Options{})
	reqs := requirements(b)
	roots := make([]string, 20)
	for i := range roots {
		roots[i] = fmt.Sprintf("root%02d", i)
	}
	for _, shared := range []bool{false, true} {
		b.Run(map[bool]string{false: "per root", true: "shared"}[shared], func(b *testing.B) {
			for range b.N {
				base := b.TempDir()
				var sh *Shared
				if shared {
					var err error
					if sh, err = NewShared(SharedOptions{Providers: providersource.NewRegistry(client, nil, nil), Downloader: client, TempDir: base}); err != nil {
						b.Fatal(err)
					}
				}
				sum := Run(context.Background(), roots, func(ctx context.Context, task *Task) Outcome {
					var src providersource.Source = providersource.NewRegistry(client, nil, nil)
					var d providerinstall.Downloader = client
					if sh != nil {
						src, d = sh.Providers, sh.Downloader
					}
					lock, _ := installRoot(ctx, filepath.Join(base, task.Root), src, d, reqs)
					if len(lock) > 6 && lock[:6] == "error:" {
						return Outcome{Err: fmt.Errorf("%s", lock)}
					}
					return Outcome{}
				}, Options{Parallelism: 4})
				if !sum.OK() {
					b.Fatal(sum.Failed()[0].Err)
				}
				if sh != nil {
					sh.Close()
				}
				os.RemoveAll(base)
			}
		})
	}
}
