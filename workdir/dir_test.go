package workdir_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
	"github.com/tfdeps/tfdeps/workdir"
)

// Options.Dir: an initialisation of a directory run from elsewhere must
// leave every file, diagnostic and event as one run from inside it. The
// run from inside is a subprocess (this test binary, TestDirInside), since
// tests cannot change the current directory while others run.

// dirScenario is one initialisation to compare.
type dirScenario struct {
	name string
	// example is a directory copied into the working directory's
	// subdirectory exampleAt first; files are written after it.
	example, exampleAt string
	files              map[string]string
	// kind: "init" (Init), "steps" (the Run steps with a backend step, as
	// the tfdeps command calls them), "get" (PrepareGet and Get), "copy"
	// (CopyFromModule of ../src, then Init).
	kind string
	// opts are the options besides Dir and the registry.
	opts workdir.Options
	// backendConfigs are the -backend-config values of "steps".
	backendConfigs []string
}

// modulesFiles: local modules (one calling another), a registry module
// (whose package calls a module of its own), a test file whose run block
// calls a module, a backend "local" block configured by a
// -backend-config file whose state requires a provider too.
var modulesFiles = map[string]string{
	"main.tf": `terraform {
  backend "local" {}
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "3.6.0"
    }
  }
}

module "a" {
  source = "./modules/a"
}

module "net" {
  source  = "acme/net/aws"
  version = "~> 1.0"
}
`,
	"modules/a/main.tf":         "module \"nested\" {\n  source = \"../b\"\n}\n",
	"modules/b/main.tf":         "output \"x\" {\n  value = path.module\n}\n",
	"testmod/main.tf":           "output \"t\" {\n  value = 1\n}\n",
	"tests/main.tftest.hcl":     "run \"r\" {\n  module {\n    source = \"./testmod\"\n  }\n}\n",
	"backend.hcl":               "path = \"state/tf.tfstate\"\n",
	"state/tf.tfstate":          `{"version": 4, "resources": [{"mode": "managed", "type": "random_id", "name": "x", "provider": "provider[\"registry.opentofu.org/hashicorp/random\"]", "instances": []}]}` + "\n",
	"terraform.tfstate.d/.keep": "",
}

// registryModules are the fake registry's modules.
func registryModules() []registrytest.Module {
	return []registrytest.Module{{Namespace: "acme", Name: "net", System: "aws", Versions: []registrytest.ModuleVersion{{
		Version: "1.0.0", Format: "tar.gz", RelativeLocation: true,
		Files: map[string]string{
			"main.tf":             "module \"sub\" {\n  source = \"./modules/sub\"\n}\n",
			"modules/sub/main.tf": "output \"s\" {\n  value = 2\n}\n",
		},
	}}}}
}

func dirScenarios() []dirScenario {
	basic := filepath.Join("..", "examples", "basic")
	return []dirScenario{
		{name: "basic", example: basic, kind: "init", opts: workdir.Options{PluginDirs: []string{"mirror"}, TestsDir: "tests"}},
		{name: "modules", example: filepath.Join(basic, "mirror"), exampleAt: "mirror", kind: "init", files: modulesFiles, opts: workdir.Options{PluginDirs: []string{"mirror"}, TestsDir: "tests"}},
		{name: "terraform", example: filepath.Join(basic, "mirror"), exampleAt: "mirror", kind: "init", files: modulesFiles, opts: workdir.Options{Flavour: flavour.Terraform, PluginDirs: []string{"mirror"}, TestsDir: "tests"}},
		{name: "steps", example: filepath.Join(basic, "mirror"), exampleAt: "mirror", kind: "steps", files: modulesFiles, opts: workdir.Options{PluginDirs: []string{"mirror"}, TestsDir: "tests", DataDir: "data"}, backendConfigs: []string{"backend.hcl"}},
		{name: "missing", kind: "init", files: map[string]string{
			"main.tf":               "module \"gone\" {\n  source = \"./nope\"\n}\n",
			"tests/main.tftest.hcl": "run \"r\" {\n  module {\n    source = \"./nothere\"\n  }\n}\n",
		}, opts: workdir.Options{TestsDir: "tests"}},
		{name: "noget", kind: "init", files: map[string]string{"main.tf": "module \"a\" {\n  source = \"./a\"\n}\n", "a/main.tf": ""}, opts: workdir.Options{NoGet: true}},
		{name: "invalid", kind: "init", files: map[string]string{"main.tf": "resource \"x\" {\n"}},
		{name: "get", kind: "get", files: modulesFiles, opts: workdir.Options{TestsDir: "tests"}},
		{name: "get-terraform", kind: "get", files: modulesFiles, opts: workdir.Options{Flavour: flavour.Terraform, TestsDir: "tests"}},
		{name: "get-broken-manifest", kind: "get", files: map[string]string{"main.tf": "", ".terraform/modules/modules.json": "{"}},
		{name: "init-broken-manifest", kind: "init", files: map[string]string{"main.tf": "", ".terraform/modules/modules.json": "{\"Modules\": 1}"}},
		{name: "copy", kind: "copy", files: map[string]string{
			"../src/main.tf":           "module \"a\" {\n  source = \"./a\"\n}\n\nmodule \"net\" {\n  source  = \"acme/net/aws\"\n  version = \"1.0.0\"\n}\n",
			"../src/a/main.tf":         "",
			"../src/a/extra/notes.txt": "kept\n",
		}},
	}
}

// dirOutcome is what one run returned and reported.
type dirOutcome struct {
	Err    string
	Diags  []string
	Events []string
}

// runScenario runs s on the working directory dir ("" for the current
// directory), with a fake registry serving registryModules.
func runScenario(t testing.TB, s dirScenario, dir string, srv *registrytest.Server, cacheDir string) dirOutcome {
	t.Helper()
	ctx := context.Background()
	var rec eventLog
	opts := s.opts
	opts.Dir = dir
	opts.ModuleCacheDir = cacheDir
	opts.ModuleRegistry = registry.New(registry.Settings{
		Transport:       srv.Transport(),
		Getenv:          func(string) string { return "" },
		Environ:         func() []string { return nil },
		EmulatedVersion: "1.12.6",
		HostServices:    srv.ModuleHostServices("registry.opentofu.org", "registry.terraform.io"),
	})
	opts.HTTPClient = &http.Client{Transport: srv.Transport()}
	events := rec.events()
	var diags hcl.Diagnostics
	var err error
	switch s.kind {
	case "init":
		_, diags, err = workdir.Init(ctx, opts, events)
	case "steps":
		diags, err = runSteps(ctx, opts, events, s.backendConfigs)
	case "get":
		r := workdir.NewRun(opts, events)
		if diags = r.PrepareGet(); !diags.HasErrors() {
			diags, err = r.Get(ctx)
		}
	case "copy":
		r := workdir.NewRun(opts, events)
		if diags = r.CopyFromModule(ctx, filepath.Join("..", "src")); !diags.HasErrors() {
			var more hcl.Diagnostics
			_, more, err = workdir.Init(ctx, opts, events)
			diags = append(diags, more...)
		}
	}
	out := dirOutcome{Events: rec.lines()}
	if err != nil {
		out.Err = err.Error()
	}
	for _, d := range diags {
		out.Diags = append(out.Diags, diagString(d))
	}
	return out
}

// runSteps runs the steps of a Run as the tfdeps command does, with a
// backend step.
func runSteps(ctx context.Context, opts workdir.Options, events workdir.Events, configs []string) (hcl.Diagnostics, error) {
	opts.Providers = workdir.PluginDirSource(opts.Dir, opts.PluginDirs)
	if err := workdir.StorePluginDirs(filepath.Join(opts.Dir, opts.DataDir), opts.PluginDirs); err != nil {
		return nil, err
	}
	r := workdir.NewRun(opts, events)
	root, diags := r.LoadRoot()
	if diags.HasErrors() {
		return diags, workdir.ErrConfiguration
	}
	b, bdiags, err := r.Backend(root, workdir.BackendOptions{Configs: configs})
	if err != nil {
		return bdiags, err
	}
	diags = append(diags, r.InstallModules(ctx, root, nil)...)
	diags = append(diags, b.Diags...)
	if diags.HasErrors() {
		return diags, workdir.ErrFailed
	}
	reqs, diags, err := r.Requirements(b.StatePath, diags, nil)
	if err != nil {
		return diags, err
	}
	_, diags, err = r.InstallProviders(ctx, reqs, diags)
	return diags, err
}

func diagString(d *hcl.Diagnostic) string {
	s := fmt.Sprintf("%v|%s|%s", d.Severity, d.Summary, d.Detail)
	if d.Subject != nil {
		s += "|" + d.Subject.String()
	}
	return s
}

// eventLog records events as lines.
type eventLog struct {
	mu  sync.Mutex
	all []string
}

func (l *eventLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, fmt.Sprintf(format, args...))
}

func (l *eventLog) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.all...)
}

func (l *eventLog) Download(key, addr, v string) { l.add("download %s %s %s", key, addr, v) }
func (l *eventLog) Install(key, v, dir string)   { l.add("install %s %s %s", key, v, dir) }

func (l *eventLog) events() workdir.Events {
	return workdir.Events{
		CopyingFromModule: func(src string) { l.add("copying %s", src) },
		Backend:           func(e workdir.BackendEvent) { l.add("backend %v %s %s", e.Kind, e.From, e.To) },
		ModulesInstalling: func(up bool) { l.add("modules %t", up) },
		Modules:           l,
		Providers: &providerinstall.Events{
			Installing: func(p addrs.Provider, v versions.Version, _ bool) { l.add("installing %s %s", p, v) },
		},
		LockFile: func(c workdir.LockFileChange) { l.add("lock file %v", c) },
	}
}

// snapshot maps every file, directory and link under dir to its mode and
// content's hash (a link: its target).
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		info, err := os.Lstat(path)
		if err != nil {
			return err
		}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			files[rel] = "link " + target
		case info.IsDir():
			files[rel] = fmt.Sprintf("dir %v", info.Mode().Perm())
		default:
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files[rel] = fmt.Sprintf("%v %x", info.Mode().Perm(), sha256.Sum256(b))
			if strings.HasSuffix(path, ".json") || strings.HasSuffix(path, ".hcl") || strings.HasSuffix(path, "environment") || strings.HasSuffix(path, "plugin_path") || strings.HasSuffix(path, ".tfstate") {
				files[rel] += "\n" + string(b)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// prepare makes a fresh working directory base/work for s.
func prepare(t testing.TB, s dirScenario, base string) string {
	t.Helper()
	if err := os.RemoveAll(base); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "work")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if s.example != "" {
		if err := os.CopyFS(filepath.Join(dir, s.exampleAt), os.DirFS(s.example)); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range s.files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func fakeModuleRegistry(t testing.TB) *registrytest.Server {
	return registrytest.New(t, registrytest.Options{Modules: registryModules()})
}

// hasMirrorPackage reports whether the basic example's mirror has a
// package for the running platform.
func hasMirrorPackage() bool {
	_, err := os.Stat(filepath.Join("..", "examples", "basic", "mirror", "registry.opentofu.org", "hashicorp", "random", "terraform-provider-random_3.6.0_"+addrs.CurrentPlatform().String()+".zip"))
	return err == nil
}

// TestDirSameAsInside runs each scenario from inside its directory (a
// subprocess) and with Options.Dir from this test's directory, on the
// same path, and compares every file under it, the diagnostics and the
// events.
func TestDirSameAsInside(t *testing.T) {
	srv := fakeModuleRegistry(t)
	for _, s := range dirScenarios() {
		t.Run(s.name, func(t *testing.T) {
			if s.example != "" && !hasMirrorPackage() {
				t.Skipf("the basic example's mirror has no package for %s", addrs.CurrentPlatform())
			}
			base := filepath.Join(t.TempDir(), "root")
			dir := prepare(t, s, base)
			out := filepath.Join(t.TempDir(), "inside.json")
			cmd := exec.Command(os.Args[0], "-test.run=^TestDirInside$", "-test.v")
			cmd.Env = append(os.Environ(), "WORKDIR_TEST_SCENARIO="+s.name, "WORKDIR_TEST_DIR="+dir, "WORKDIR_TEST_OUT="+out)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("inside run: %v\n%s", err, b)
			}
			var inside dirOutcome
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &inside); err != nil {
				t.Fatal(err)
			}
			wantFiles := snapshot(t, base)

			dir = prepare(t, s, base)
			got := runScenario(t, s, dir, srv, "")
			if diff := cmp.Diff(inside, got); diff != "" {
				t.Errorf("outcome (-inside +Dir):\n%s", diff)
			}
			if diff := cmp.Diff(wantFiles, snapshot(t, base)); diff != "" {
				t.Errorf("files (-inside +Dir):\n%s", diff)
			}
			if len(inside.Events) == 0 && len(inside.Diags) == 0 {
				t.Errorf("the scenario reported nothing: %+v", inside)
			}
		})
	}
}

// TestDirInside is the run from inside a scenario's directory for
// TestDirSameAsInside (a subprocess); it does nothing otherwise.
func TestDirInside(t *testing.T) {
	name := os.Getenv("WORKDIR_TEST_SCENARIO")
	if name == "" {
		t.Skip("run by TestDirSameAsInside")
	}
	for _, s := range dirScenarios() {
		if s.name != name {
			continue
		}
		srv := fakeModuleRegistry(t)
		t.Chdir(os.Getenv("WORKDIR_TEST_DIR"))
		out := runScenario(t, s, "", srv, "")
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(os.Getenv("WORKDIR_TEST_OUT"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("no scenario %q", name)
}

// TestDirParallel initialises several copies of one configuration at once
// in this process (go test -race finds shared state), sharing a module
// cache, half of them named relative to the current directory: each ends
// as a copy initialised alone.
func TestDirParallel(t *testing.T) {
	if !hasMirrorPackage() {
		t.Skipf("the basic example's mirror has no package for %s", addrs.CurrentPlatform())
	}
	srv := fakeModuleRegistry(t)
	var scenarios []dirScenario
	for _, s := range dirScenarios() {
		if s.name == "modules" || s.name == "steps" || s.name == "missing" {
			scenarios = append(scenarios, s)
		}
	}
	root := t.TempDir()
	cache := filepath.Join(root, "cache")
	type run struct {
		s    dirScenario
		base string
		out  dirOutcome
	}
	var runs []*run
	for i := 0; i < 6; i++ {
		s := scenarios[i%len(scenarios)]
		base := filepath.Join(root, fmt.Sprint(i))
		prepare(t, s, base)
		runs = append(runs, &run{s: s, base: base})
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i, r := range runs {
		dir := filepath.Join(r.base, "work")
		if i%2 == 1 {
			// Dir may be relative to the current directory.
			if dir, err = filepath.Rel(wd, dir); err != nil {
				t.Fatal(err)
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.out = runScenario(t, r.s, dir, srv, cache)
		}()
	}
	wg.Wait()
	alone := map[string]*run{}
	for _, s := range scenarios {
		base := filepath.Join(root, "alone-"+s.name)
		r := &run{s: s, base: base}
		r.out = runScenario(t, s, prepare(t, s, base), srv, "")
		alone[s.name] = r
	}
	for i, r := range runs {
		want := alone[r.s.name]
		if diff := cmp.Diff(want.out, r.out); diff != "" {
			t.Errorf("run %d (%s) outcome (-alone +parallel):\n%s", i, r.s.name, diff)
		}
		if diff := cmp.Diff(snapshot(t, want.base), snapshot(t, r.base)); diff != "" {
			t.Errorf("run %d (%s) files (-alone +parallel):\n%s", i, r.s.name, diff)
		}
	}
	if want := alone["modules"]; want.out.Err != "" {
		t.Errorf("modules: %s %v", want.out.Err, want.out.Diags)
	}
}

// TestDirEmpty: a directory without configuration files is reported
// empty, and nothing is written there.
func TestDirEmpty(t *testing.T) {
	dir := t.TempDir()
	res, diags, err := workdir.Init(context.Background(), workdir.Options{Dir: dir}, workdir.Events{})
	if err != nil || diags.HasErrors() || !res.Empty {
		t.Fatalf("Init of an empty directory: %+v %v %v", res, diags, err)
	}
	if !workdir.IsEmptyDir(dir, 0) || workdir.IsEmptyDir(filepath.Join("..", "examples", "basic"), 0) {
		t.Error("IsEmptyDir")
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Init of an empty directory made .terraform: %v", err)
	}
}
