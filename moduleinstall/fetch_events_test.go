package moduleinstall

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// fetchLog records FetchEvents per package.
type fetchLog struct {
	mu       sync.Mutex
	started  map[string]int
	finished map[string]int
	// bytes: the last count reported, and whether counts only grew.
	bytes     map[string]int64
	shrinking []string
}

func newFetchLog() *fetchLog {
	return &fetchLog{started: map[string]int{}, finished: map[string]int{}, bytes: map[string]int64{}}
}

func (l *fetchLog) events() *FetchEvents {
	return &FetchEvents{
		Started: func(pkg string) { l.mu.Lock(); l.started[pkg]++; l.mu.Unlock() },
		Bytes: func(pkg string, done, total int64) {
			l.mu.Lock()
			defer l.mu.Unlock()
			if done < l.bytes[pkg] {
				l.shrinking = append(l.shrinking, pkg)
			}
			l.bytes[pkg] = done
		},
		Finished: func(pkg string, err error) {
			l.mu.Lock()
			defer l.mu.Unlock()
			if err != nil {
				pkg += " (" + err.Error() + ")"
			}
			l.finished[pkg]++
		},
	}
}

// TestFetchEvents: every http package fetched is reported started, its
// bytes as they arrive, and finished; the events change nothing else.
func TestFetchEvents(t *testing.T) {
	_, opts, mainTF := httpModules(t)
	dir := t.TempDir()
	root := writeRoot(t, dir, map[string]string{"main.tf": mainTF})
	log := newFetchLog()
	opts.Events = &recorder{}
	opts.Fetches = log.events()
	inDir(t, dir, func() {
		if diags := Install(context.Background(), root, opts); diags.HasErrors() {
			t.Fatal(diags)
		}
	})
	var pkgs []string
	for pkg := range log.started {
		pkgs = append(pkgs, pkg)
	}
	sort.Strings(pkgs)
	if len(pkgs) != 5 {
		t.Fatalf("%d packages started, want the 5 distinct ones: %v", len(pkgs), pkgs)
	}
	if diff := cmp.Diff(log.started, log.finished); diff != "" {
		t.Errorf("every fetch started ends once, without error (-started +finished):\n%s", diff)
	}
	for _, pkg := range pkgs {
		if log.bytes[pkg] <= 0 {
			t.Errorf("%s: no bytes reported", pkg)
		}
	}
	if len(log.shrinking) > 0 {
		t.Errorf("byte counts went down for %v", log.shrinking)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, ".terraform", "modules", "*", "main.tf"))
	if len(matches) != 10 {
		t.Errorf("%d modules installed, want 10", len(matches))
	}
}

// TestFetchEventsOfAFailure: a failed fetch is reported finished with its
// error.
func TestFetchEventsOfAFailure(t *testing.T) {
	srv, opts := fakeRegistry(t, nil)
	dir := t.TempDir()
	src := srv.URL() + "/missing.zip"
	root := writeRoot(t, dir, map[string]string{"main.tf": fmt.Sprintf("module \"m\" {\n  source = %q\n}\n", src)})
	log := newFetchLog()
	opts.Events = &recorder{}
	opts.Fetches = log.events()
	opts.Parallelism = -1
	inDir(t, dir, func() {
		if diags := Install(context.Background(), root, opts); !diags.HasErrors() {
			t.Fatal("installing a missing archive succeeded")
		}
	})
	if log.started[src] != 1 {
		t.Errorf("started: %v, want %s once", log.started, src)
	}
	for pkg := range log.finished {
		if pkg == src {
			t.Errorf("the failed fetch was reported without its error")
		}
	}
	if len(log.finished) != 1 {
		t.Errorf("finished: %v, want one, with an error", log.finished)
	}
}

// TestFetchEventsRegistry: registry packages are reported too, each once,
// whether the registry names a package elsewhere or hosts it (direct).
func TestFetchEventsRegistry(t *testing.T) {
	for _, kind := range []registrytest.LocationKind{registrytest.HeaderLocation, registrytest.DirectLocation} {
		mods := sharedModules()
		for i := range mods {
			mods[i].Versions[0].Location = kind
			mods[i].Versions[0].RelativeLocation = false
		}
		_, opts := fakeRegistry(t, mods)
		dir := t.TempDir()
		root := writeRoot(t, dir, monorepoRoot(0))
		log := newFetchLog()
		opts.Events = &recorder{}
		opts.Fetches = log.events()
		inDir(t, dir, func() {
			if diags := Install(context.Background(), root, opts); diags.HasErrors() {
				t.Fatal(diags)
			}
		})
		if len(log.started) != 5 {
			t.Errorf("location kind %d: %d packages started, want 5: %v", kind, len(log.started), log.started)
		}
		if diff := cmp.Diff(log.started, log.finished); diff != "" {
			t.Errorf("location kind %d: every fetch started ends once, without error (-started +finished):\n%s", kind, diff)
		}
	}
}
