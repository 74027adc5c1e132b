package fleet

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

var linux = addrs.Platform{OS: "linux", Arch: "amd64"}

func fakeProviders(t testing.TB, opts registrytest.Options) (*registrytest.Server, *registry.Client) {
	t.Helper()
	opts.Providers = []registrytest.Provider{
		{Namespace: "acme", Type: "alpha", Versions: []registrytest.Version{{Version: "1.0.0"}, {Version: "1.1.0", Size: 1 << 20, Deflate: true}}},
		{Namespace: "acme", Type: "beta", Versions: []registrytest.Version{{Version: "2.0.0"}}},
	}
	srv := registrytest.New(t, opts)
	client := registry.New(registry.Settings{
		Transport:    srv.Transport(),
		Getenv:       func(string) string { return "" },
		Environ:      func() []string { return nil },
		HostServices: srv.HostServices(),
	})
	return srv, client
}

func requirements(t testing.TB) providerinstall.Requirements {
	t.Helper()
	reqs := providerinstall.Requirements{}
	for src, c := range map[string]string{"acme/alpha": "~> 1.0", "acme/beta": ""} {
		p, err := addrs.ParseProviderSource(src)
		if err != nil {
			t.Fatal(err)
		}
		var cs versions.Constraints
		if c != "" {
			if cs, err = versions.ParseConstraints(c); err != nil {
				t.Fatal(err)
			}
		}
		reqs[p] = cs
	}
	return reqs
}

// installRoot installs the requirements into root's providers directory
// and returns the lock file's bytes (or the error) and a listing of
// what was installed.
func installRoot(ctx context.Context, root string, src providersource.Source, d providerinstall.Downloader, reqs providerinstall.Requirements, packages ...*providerinstall.SharedPackages) (string, []string) {
	in := &providerinstall.Installer{
		Source:     src,
		Target:     providerinstall.NewDir(filepath.Join(root, ".terraform", "providers")),
		Platform:   linux,
		Downloader: d,
		Flavour:    flavour.OpenTofu,
	}
	if len(packages) > 0 {
		in.Packages = packages[0]
	}
	res, err := in.Install(ctx, reqs, nil, providerinstall.NewProvidersOnly, nil)
	if err != nil {
		return "error: " + err.Error(), nil
	}
	return string(res.Locks.Bytes(flavour.OpenTofu)), listFiles(root)
}

// listFiles lists the files under dir with their contents' length and
// first bytes.
func listFiles(dir string) []string {
	var out []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			b, _ := os.ReadFile(p)
			out = append(out, fmt.Sprintf("%s %s %d %x", filepath.ToSlash(rel), info.Mode(), len(b), b[:min(len(b), 16)]))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// TestSharedProvidersLockIdentical: roots installing through the shared
// source and downloader at the same time write the lock file and the
// providers directory a single installation writes, while each package
// is downloaded, and each version list asked for, once for the run. A
// tampered archive is refused by every root, as without sharing.
func TestSharedProvidersLockIdentical(t *testing.T) {
	tests := []struct {
		name          string
		opts          registrytest.Options
		tamper        bool
		wantDownloads int
	}{
		{name: "packages map", wantDownloads: 2},
		{name: "no packages map", opts: registrytest.Options{NoPackagesMap: true}, wantDownloads: 2},
		{name: "tampered archive", tamper: true},
	}
	const roots = 6
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, client := fakeProviders(t, tt.opts)
			if tt.tamper {
				srv.Inject(registrytest.Archive, registrytest.Fault{Kind: registrytest.Tamper})
			}
			reqs := requirements(t)
			base := t.TempDir()
			wantLock, wantFiles := installRoot(context.Background(), filepath.Join(base, "single"), providersource.NewRegistry(client, nil, nil), client, reqs)
			if tt.tamper != (wantLock[:6] == "error:") {
				t.Fatalf("single install: %s", wantLock)
			}

			srv.ResetRequests()
			shared, err := NewShared(SharedOptions{Providers: providersource.NewRegistry(client, nil, nil), Downloader: client, TempDir: base})
			if err != nil {
				t.Fatal(err)
			}
			defer shared.Close()
			locks := make([]string, roots)
			files := make([][]string, roots)
			var wg sync.WaitGroup
			for i := range roots {
				wg.Add(1)
				go func() {
					defer wg.Done()
					locks[i], files[i] = installRoot(context.Background(), filepath.Join(base, fmt.Sprint("root", i)), shared.Providers, shared.Downloader, reqs, shared.Packages)
				}()
			}
			wg.Wait()
			for i := range roots {
				if diff := cmp.Diff(wantLock, locks[i]); diff != "" {
					t.Errorf("root %d: lock file (-single +shared):\n%s", i, diff)
				}
				if diff := cmp.Diff(wantFiles, files[i]); diff != "" {
					t.Errorf("root %d: installed files (-single +shared):\n%s", i, diff)
				}
			}
			if tt.tamper {
				return
			}
			if got := shared.Downloader.Downloads(); got != tt.wantDownloads {
				t.Errorf("%d downloads, want %d", got, tt.wantDownloads)
			}
			if got := shared.Packages.Extractions(); got != tt.wantDownloads {
				t.Errorf("%d extractions, want %d (one per package)", got, tt.wantDownloads)
			}
			// The roots' files are links to one extraction.
			var exe []string
			filepath.Walk(filepath.Join(base, "root0", ".terraform", "providers"), func(p string, info os.FileInfo, err error) error {
				if err == nil && info.Mode().IsRegular() && strings.Contains(filepath.ToSlash(p), "/linux_amd64/") {
					exe = append(exe, p) // package files, not the lock files beside them
				}
				return nil
			})
			if len(exe) == 0 {
				t.Fatal("root0 has no provider files")
			}
			for _, p := range exe {
				a, errA := os.Stat(p)
				b, errB := os.Stat(filepath.Join(base, "root1", mustRel(t, filepath.Join(base, "root0"), p)))
				if errA != nil || errB != nil || !os.SameFile(a, b) {
					t.Errorf("%s: root0's and root1's files are not one file (%v, %v)", p, errA, errB)
				}
			}
			for _, e := range []registrytest.Endpoint{registrytest.Archive, registrytest.Versions, registrytest.PackageMeta} {
				if got := srv.Count(e); got != 2 {
					t.Errorf("%d requests to endpoint %d for %d roots, want 2 (one per provider)", got, e, roots)
				}
			}
		})
	}
}

// TestSharedDownloaderKeepsNothingPastLimit: once the archives kept reach
// MaxBytes, packages are downloaded per request, still correctly; those
// kept are still served.
func TestSharedDownloaderKeepsNothingPastLimit(t *testing.T) {
	srv, client := fakeProviders(t, registrytest.Options{})
	all := requirements(t)
	betaOnly := providerinstall.Requirements{}
	for p, c := range all {
		if p.Type == "beta" {
			betaOnly[p] = c
		}
	}
	base := t.TempDir()
	wantLock, _ := installRoot(context.Background(), filepath.Join(base, "single"), providersource.NewRegistry(client, nil, nil), client, all)
	srv.ResetRequests()
	shared, err := NewShared(SharedOptions{Providers: providersource.NewRegistry(client, nil, nil), Downloader: client, TempDir: base, DownloadBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Close()
	// The first root's one archive fills the budget.
	installRoot(context.Background(), filepath.Join(base, "first"), shared.Providers, shared.Downloader, betaOnly)
	for i := range 2 {
		got, _ := installRoot(context.Background(), filepath.Join(base, fmt.Sprint("root", i)), shared.Providers, shared.Downloader, all)
		if got != wantLock {
			t.Errorf("root %d: lock %s, want %s", i, got, wantLock)
		}
	}
	if got := srv.Count(registrytest.Archive); got != 3 {
		t.Errorf("%d archive downloads, want 3 (beta once, then alpha per root)", got)
	}
	if err := shared.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(shared.dir); !os.IsNotExist(err) {
		t.Errorf("run directory left after Close: %v", err)
	}
}

func mustRel(t *testing.T, base, p string) string {
	t.Helper()
	rel, err := filepath.Rel(base, p)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}
