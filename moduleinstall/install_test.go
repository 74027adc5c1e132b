package moduleinstall

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

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/registry"
)

// recorder keeps the installer's events as lines.
type recorder struct {
	mu    sync.Mutex
	lines []string
}

func (r *recorder) Download(key, addr, v string) {
	r.add(strings.TrimSpace(fmt.Sprintf("Downloading %s %s", addr, v)) + " for " + key + "...")
}
func (r *recorder) Install(key, v, dir string) { r.add("- " + key + " in " + filepath.ToSlash(dir)) }
func (r *recorder) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, s)
}

// fakeRegistry starts a registrytest server serving mods and returns
// installer options that reach it (host block for registry.opentofu.org,
// the fake's CA for archive downloads).
func fakeRegistry(t testing.TB, mods []registrytest.Module) (*registrytest.Server, Options) {
	t.Helper()
	srv := registrytest.New(t, registrytest.Options{Modules: mods})
	return srv, Options{Registry: registryClient(srv, nil), Getters: GetterOptions{HTTPClient: srv.Client()}}
}

func registryClient(srv *registrytest.Server, environ []string) *registry.Client {
	return registry.New(registry.Settings{
		Transport:       srv.Transport(),
		Getenv:          func(string) string { return "" },
		Environ:         func() []string { return environ },
		EmulatedVersion: "1.12.6",
		HostServices:    srv.ModuleHostServices("registry.opentofu.org"),
	})
}

// archiveGets counts the GET requests for module archives.
func archiveGets(srv *registrytest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Endpoint == registrytest.ModuleArchive && r.Method == "GET" {
			n++
		}
	}
	return n
}

// writeRoot writes files into a new directory and loads it as a root
// module.
func writeRoot(t testing.TB, dir string, files map[string]string) *config.Module {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mod, diags := config.LoadDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return mod
}

// inDir runs fn with the working directory set to dir (the installer
// works relative to it, as init does).
func inDir(t testing.TB, dir string, fn func()) {
	t.Helper()
	old, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(old)
	fn()
}

func sharedModules() []registrytest.Module {
	var mods []registrytest.Module
	for i := 0; i < 5; i++ {
		mods = append(mods, registrytest.Module{Namespace: "acme", Name: fmt.Sprintf("m%d", i), System: "aws", Versions: []registrytest.ModuleVersion{{
			Version: "1.0.0", Format: "tar.gz", RelativeLocation: true,
			Files: map[string]string{"main.tf": "output \"n\" {\n  value = " + fmt.Sprint(i) + "\n}\n", "scripts/run.sh*": "#!/bin/sh\n"},
		}}})
	}
	return mods
}

func monorepoRoot(i int) map[string]string {
	var b strings.Builder
	for j := 0; j < 5; j++ {
		fmt.Fprintf(&b, "module \"m%d\" {\n  source  = \"acme/m%d/aws\"\n  version = \"~> 1.0\"\n}\n\n", j, j)
	}
	return map[string]string{"main.tf": b.String()}
}

// TestMonorepoDownloadsEachPackageOnce: 20 root modules calling the same
// 5 registry modules download each package once through the shared cache,
// and every root's .terraform/modules is complete.
func TestMonorepoDownloadsEachPackageOnce(t *testing.T) {
	srv, opts := fakeRegistry(t, sharedModules())
	base := t.TempDir()
	opts.Cache = OpenCache(filepath.Join(base, "cache"))
	for i := 0; i < 20; i++ {
		dir := filepath.Join(base, fmt.Sprintf("root%02d", i))
		root := writeRoot(t, dir, monorepoRoot(i))
		rec := &recorder{}
		o := opts
		o.Events = rec
		inDir(t, dir, func() {
			if diags := Install(context.Background(), root, o); diags.HasErrors() {
				t.Fatalf("root %d: %s", i, diags)
			}
		})
		if len(rec.lines) != 10 {
			t.Errorf("root %d: %d progress lines, want 10:\n%s", i, len(rec.lines), strings.Join(rec.lines, "\n"))
		}
		info, err := os.Stat(filepath.Join(dir, ".terraform", "modules", "m3", "scripts", "run.sh"))
		if err != nil || info.Mode().Perm() != 0o755 {
			t.Errorf("root %d: run.sh: %v %v", i, info, err)
		}
	}
	if got := archiveGets(srv); got != 5 {
		t.Errorf("%d archive downloads for 20 roots, want 5 (one per package)", got)
	}
}

// TestCacheSharedByConcurrentInstalls: installations running at the same
// time with their own Cache values on one directory (as separate
// processes would) still download each package once: the file lock
// serialises the fills.
func TestCacheSharedByConcurrentInstalls(t *testing.T) {
	srv, opts := fakeRegistry(t, sharedModules())
	base := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		o := opts
		o.Cache = OpenCache(filepath.Join(base, "cache"))
		o.Events = &recorder{}
		o.ModsDir = filepath.Join(base, fmt.Sprintf("root%d", i), ".terraform", "modules")
		root := writeRoot(t, filepath.Join(base, fmt.Sprintf("root%d", i)), monorepoRoot(i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if diags := Install(context.Background(), root, o); diags.HasErrors() {
				errs <- diags
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := archiveGets(srv); got != 5 {
		t.Errorf("%d archive downloads, want 5", got)
	}
}

// TestInstallOrderIsSequentialWalk: with many packages fetched in
// parallel and slow responses, the events still come in OpenTofu's walk
// order.
func TestInstallOrderIsSequentialWalk(t *testing.T) {
	mods := sharedModules()
	mods = append(mods, registrytest.Module{Namespace: "acme", Name: "top", System: "aws", Versions: []registrytest.ModuleVersion{{Version: "2.0.0", Format: "tar.gz", Files: map[string]string{
		"main.tf": "module \"b\" {\n  source = \"acme/m1/aws\"\n}\nmodule \"a\" {\n  source = \"acme/m2/aws\"\n}\nmodule \"l\" {\n  source = \"./l\"\n}\n", "l/main.tf": "module \"z\" {\n  source = \"acme/m4/aws\"\n}\n"}}}})
	srv, opts := fakeRegistry(t, mods)
	dir := t.TempDir()
	root := writeRoot(t, dir, map[string]string{"main.tf": "module \"x\" {\n  source = \"acme/top/aws\"\n}\nmodule \"c\" {\n  source = \"acme/m0/aws\"\n}\n"})
	rec := &recorder{}
	inDir(t, dir, func() {
		o := opts
		o.Events = rec
		diags := Install(context.Background(), root, o)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
	})
	want := []string{
		"Downloading registry.opentofu.org/acme/m0/aws 1.0.0 for c...",
		"- c in .terraform/modules/c",
		"Downloading registry.opentofu.org/acme/top/aws 2.0.0 for x...",
		"- x in .terraform/modules/x",
		"Downloading registry.opentofu.org/acme/m2/aws 1.0.0 for x.a...",
		"- x.a in .terraform/modules/x.a",
		"Downloading registry.opentofu.org/acme/m1/aws 1.0.0 for x.b...",
		"- x.b in .terraform/modules/x.b",
		"- x.l in .terraform/modules/x/l",
		"Downloading registry.opentofu.org/acme/m4/aws 1.0.0 for x.l.z...",
		"- x.l.z in .terraform/modules/x.l.z",
	}
	if diff := cmp.Diff(want, rec.lines); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if got := archiveGets(srv); got != 5 {
		t.Errorf("%d archive downloads, want 5", got)
	}
	var paths []string
	for _, r := range srv.Requests() {
		paths = append(paths, r.Method+" "+r.Path)
	}
	sort.Strings(paths)
	for i := 1; i < len(paths); i++ {
		if paths[i] == paths[i-1] {
			t.Errorf("%s requested twice", paths[i])
		}
	}
}

// TestRegistryCredentials: a TF_TOKEN_* token for the registry host goes
// with the versions and download requests (with X-Terraform-Version), and
// not with the archive download of an indirect location.
func TestRegistryCredentials(t *testing.T) {
	srv := registrytest.New(t, registrytest.Options{Modules: sharedModules()[:1]})
	client := registryClient(srv, []string{"TF_TOKEN_registry_opentofu_org=s3cret"})
	dir := t.TempDir()
	root := writeRoot(t, dir, map[string]string{"main.tf": "module \"m\" {\n  source = \"acme/m0/aws\"\n}\n"})
	inDir(t, dir, func() {
		o := Options{Registry: client, Getters: GetterOptions{HTTPClient: srv.Client()}, Events: &recorder{}, Parallelism: -1}
		if diags := Install(context.Background(), root, o); diags.HasErrors() {
			t.Fatal(diags)
		}
	})
	var got []string
	for _, r := range srv.Requests() {
		got = append(got, fmt.Sprintf("%s %s auth=%q version=%q", r.Method, r.Path, r.Header.Get("Authorization"), r.Header.Get("X-Terraform-Version")))
	}
	want := []string{
		`GET /v1/modules/acme/m0/aws/versions auth="Bearer s3cret" version="1.12.6"`,
		`GET /v1/modules/acme/m0/aws/1.0.0/download auth="Bearer s3cret" version="1.12.6"`,
		`HEAD /modfiles/acme/m0/aws/1.0.0.tar.gz auth="" version=""`,
		`GET /modfiles/acme/m0/aws/1.0.0.tar.gz auth="" version=""`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}
