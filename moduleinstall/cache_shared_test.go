package moduleinstall

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCacheValueSharedByConcurrentRoots: root modules installed at the
// same time in one process through one Cache value (init -recursive)
// fill each package once — the file lock alone serialises the fills of
// one process's goroutines too, and a fill found after waiting for the
// lock is used — and every root gets the same .terraform/modules.
func TestCacheValueSharedByConcurrentRoots(t *testing.T) {
	for _, roots := range []int{2, 8} {
		t.Run(fmt.Sprint(roots), func(t *testing.T) {
			srv, opts := fakeRegistry(t, sharedModules())
			base := t.TempDir()
			cache := OpenCache(filepath.Join(base, "cache"))
			var wg sync.WaitGroup
			errs := make([]error, roots)
			for i := 0; i < roots; i++ {
				o := opts
				o.Cache = cache
				o.Events = &recorder{}
				o.ModsDir = filepath.Join(base, fmt.Sprintf("root%d", i), ".terraform", "modules")
				root := writeRoot(t, filepath.Join(base, fmt.Sprintf("root%d", i)), monorepoRoot(i))
				wg.Add(1)
				go func() {
					defer wg.Done()
					if diags := Install(context.Background(), root, o); diags.HasErrors() {
						errs[i] = diags
					}
				}()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("root %d: %v", i, err)
				}
			}
			if got := cache.Fills(); got != 5 {
				t.Errorf("%d cache fills for %d roots, want 5 (one per package)", got, roots)
			}
			if got := archiveGets(srv); got != 5 {
				t.Errorf("%d archive downloads, want 5", got)
			}
			// modules.json differs: it names each root's absolute ModsDir.
			listing := func(i int) []string {
				l := treeListing(t, filepath.Join(base, fmt.Sprintf("root%d", i), ".terraform", "modules"))
				return slices.DeleteFunc(l, func(s string) bool { return strings.HasPrefix(s, "modules.json ") })
			}
			first := listing(0)
			for i := 1; i < roots; i++ {
				got := listing(i)
				if diff := cmp.Diff(first, got); diff != "" {
					t.Errorf("root %d: .terraform/modules differs from root 0 (-root0 +got):\n%s", i, diff)
				}
			}
		})
	}
}
