package difftest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// The fleet tests: a generated monorepo of root modules (registry, git
// and local module calls; no lock file, a complete one, one pinned to an
// older version, a lock file without installed providers; one broken
// root) initialised once with "tfdeps init -recursive", compared root by
// root with "init" run in each root alone:
//
//   - TestFleetReference: with the reference tofu (TFDEPS_REFERENCE_TOFU),
//     each root in a fresh copy of the fleet;
//   - TestFleetRuns: with a single-root "tfdeps init" (no reference
//     binary needed); an interrupted run leaves each root as it was or as
//     a complete init leaves it; a second interrupt stops it; the
//     packages and bytes it reports are those it installed and
//     downloaded.
//
// Per root the comparison covers the exit status, the lock file and
// modules.json byte for byte, the .terraform layout (names, modes,
// contents) and the root's output: tofu's stdout there against the
// section of the fleet's output under the root's header; the fleet's
// stderr is the roots' stderr in root order.

// fleetRoot is one generated root module: its files (relative to it),
// and the init run there before the fleet is copied (setup), then what
// is changed after it (edits: name → new content, "" removes).
type fleetRoot struct {
	dir   string
	files map[string]string
	setup bool
	edits map[string]string
}

// fleetRoots is the generated fleet; @HOST@ is the fake registry's host,
// @GIT@ the git repository's directory.
func fleetRoots() []fleetRoot {
	const null31 = "    null = {\n      source  = \"hashicorp/null\"\n      version = \"~> 3.1\"\n    }\n"
	const random = "    random = { source = \"hashicorp/random\" }\n"
	const baz = "    baz = {\n      source  = \"acme/baz\"\n      version = \"< 2.0.0\"\n    }\n"
	req := func(providers ...string) string {
		return "terraform {\n  required_providers {\n" + strings.Join(providers, "") + "  }\n}\n"
	}
	const net = "\nmodule \"net\" {\n  source  = \"@HOST@/acme/net/aws\"\n  version = \"1.0.0\"\n}\n"
	const git = "\nmodule \"git\" {\n  source = \"git::file://@GIT@\"\n}\n"
	shared := func(depth int, name string) string {
		return fmt.Sprintf("\nmodule %q {\n  source = %q\n}\n", name, strings.Repeat("../", depth)+"modules/shared")
	}
	roots := []fleetRoot{
		// No lock file: a registry module, a local module called twice.
		{dir: "envs/a", files: map[string]string{"main.tf": req(null31) + net + shared(2, "shared") + shared(2, "shared2")}},
		// A lock pinned to an older version than the constraint allows
		// now; a git module.
		{dir: "envs/b", files: map[string]string{"main.tf": req("    random = {\n      source  = \"hashicorp/random\"\n      version = \"3.5.1\"\n    }\n") + git + shared(2, "shared")},
			setup: true, edits: map[string]string{"main.tf": req("    random = {\n      source  = \"hashicorp/random\"\n      version = \">= 3.5.0\"\n    }\n") + git + shared(2, "shared")}},
		// A complete lock and installation, then a new file calling a
		// registry module and using another provider.
		{dir: "envs/c", files: map[string]string{"main.tf": req("    null = { source = \"hashicorp/null\" }\n")},
			setup: true, edits: map[string]string{"extra.tf": net + "\nresource \"random_id\" \"x\" {\n  byte_length = 2\n}\n"}},
		// Initialised, nothing changed since.
		{dir: "envs/d", files: map[string]string{"main.tf": req(null31, baz) + shared(2, "shared")}, setup: true},
		// A complete lock file, nothing installed.
		{dir: "envs/e", files: map[string]string{"main.tf": req(random, baz)}, setup: true, edits: map[string]string{".terraform/": ""}},
		// A provider the registry does not have.
		{dir: "envs/broken", files: map[string]string{"main.tf": req("    nope = { source = \"registry.example.com/x/nope\" }\n")}},
	}
	// Generated roots: combinations of the above, deeper in the tree.
	providers := [][]string{{null31}, {random}, {null31, random}, {baz, random}, {null31, baz}, {random, null31, baz}}
	for i, ps := range providers {
		body := req(ps...)
		if i%2 == 0 {
			body += net
		}
		if i%3 == 0 {
			body += git
		}
		body += shared(3, "shared")
		r := fleetRoot{dir: fmt.Sprintf("gen/team%d/r%02d", i%2, i), files: map[string]string{"main.tf": body}}
		if i%3 == 1 {
			r.setup = true
		}
		roots = append(roots, r)
	}
	return roots
}

// fleetModules are the fake registry's modules.
var fleetModules = []registrytest.Module{{
	Namespace: "acme", Name: "net", System: "aws",
	Versions: []registrytest.ModuleVersion{{
		Version: "1.0.0", Format: "tar.gz", RelativeLocation: true,
		Files: map[string]string{"main.tf": "# v1\nterraform {\n  required_providers {\n    null = { source = \"hashicorp/null\" }\n  }\n}\n"},
	}},
}}

// fleetEnv is what a fleet test runs in: the programs, the fake
// registry, the git repository and the fleet's template (setup done).
type fleetEnv struct {
	t        *testing.T
	base     string
	tfdeps   string
	fake     *registrytest.Standalone
	roots    []fleetRoot
	template string
}

// newFleetEnv builds tfdeps, starts the fake registry, makes the git
// module's repository and the fleet's template, its setup inits run by
// the program setupWith ("" for tfdeps).
func newFleetEnv(t *testing.T, setupWith string, opts registrytest.Options) *fleetEnv {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("fleet test skipped: no git command")
	}
	base := t.TempDir()
	e := &fleetEnv{t: t, base: base, tfdeps: buildTfdeps(t), roots: fleetRoots()}
	if opts.Providers == nil {
		opts.Providers = defaultProviders()
	}
	opts.Modules = fleetModules
	fakeDir := filepath.Join(base, "fake")
	os.MkdirAll(fakeDir, 0o755)
	sa, err := registrytest.StartStandalone(fakeDir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sa.Close)
	e.fake = sa
	gitDir := filepath.Join(base, "gitpkg")
	os.MkdirAll(gitDir, 0o755)
	os.WriteFile(filepath.Join(gitDir, "main.tf"), []byte("# from git\n"), 0o644)
	for _, args := range [][]string{{"init", "-q", "-b", "main", "."}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "v1"}} {
		if out, err := exec.Command("git", append([]string{"-C", gitDir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", args, err, out)
		}
	}
	e.template = filepath.Join(base, "template")
	os.MkdirAll(filepath.Join(e.template, "modules", "shared"), 0o755)
	os.WriteFile(filepath.Join(e.template, "modules", "shared", "main.tf"), []byte("terraform {\n  required_providers {\n    random = { source = \"hashicorp/random\" }\n  }\n}\n"), 0o644)
	subst := strings.NewReplacer("@HOST@", sa.Host(), "@GIT@", gitDir)
	if setupWith == "" {
		setupWith = e.tfdeps
	}
	for _, r := range e.roots {
		dir := filepath.Join(e.template, filepath.FromSlash(r.dir))
		writeFiles(t, dir, r.files, subst)
		if r.setup {
			res := e.run(setupWith, dir, "init", "-no-color")
			if res.code != 0 {
				t.Fatalf("setup init in %s: exit %d\n%s%s", r.dir, res.code, res.stdout, res.stderr)
			}
		}
		writeFiles(t, dir, r.edits, subst)
	}
	return e
}

// writeFiles writes files into dir ("" content removes the file or
// directory).
func writeFiles(t *testing.T, dir string, files map[string]string, subst *strings.Replacer) {
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if content == "" {
			if err := os.RemoveAll(path); err != nil {
				t.Fatal(err)
			}
			continue
		}
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(subst.Replace(content)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runOutput is what one program run printed and its exit code.
type runOutput struct {
	code           int
	stdout, stderr string
}

// env is the programs' environment: a fresh HOME under base, the fake
// registry's CLI configuration and certificate.
func (e *fleetEnv) env() []string {
	home := filepath.Join(e.base, "home")
	os.RemoveAll(home)
	os.MkdirAll(home, 0o755)
	return []string{
		"HOME=" + home, "PATH=" + os.Getenv("PATH"), "CHECKPOINT_DISABLE=1", "TF_CLI_ARGS=",
		"TF_CLI_CONFIG_FILE=" + e.fake.CLIConfigFile, "SSL_CERT_FILE=" + e.fake.CAFile,
	}
}

// run runs program with args in dir.
func (e *fleetEnv) run(program, dir string, args ...string) runOutput {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Dir, cmd.Env = dir, e.env()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	return runOutput{code: exitCode(e.t, cmd.Run()), stdout: stdout.String(), stderr: stderr.String()}
}

func exitCode(t *testing.T, err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// fresh makes base/work a fresh copy of the template (modes kept) and
// returns its path; every program runs there, so that the paths they see
// are the same.
func (e *fleetEnv) fresh() string {
	e.t.Helper()
	work := filepath.Join(e.base, "work")
	if err := os.RemoveAll(work); err != nil {
		e.t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-a", e.template, work).CombinedOutput(); err != nil {
		e.t.Fatalf("copying the fleet: %v\n%s", err, out)
	}
	return work
}

// rootState is what one root ended with after one init.
type rootState struct {
	code           int
	stdout, stderr string
	lock, modules  string
	layout         string
}

// singleRoots runs program's "init args" in each root of a fresh copy,
// one after the other, and returns each root's state, by root.
func (e *fleetEnv) singleRoots(program string, rounds [][]string) []map[string]rootState {
	work := e.fresh()
	var out []map[string]rootState
	for _, args := range rounds {
		states := map[string]rootState{}
		for _, r := range e.roots {
			dir := filepath.Join(work, filepath.FromSlash(r.dir))
			res := e.run(program, dir, append([]string{"init"}, args...)...)
			states[r.dir] = rootStateOf(e.t, dir, res.code, res.stdout, res.stderr)
		}
		out = append(out, states)
	}
	return out
}

// fleetRounds runs "tfdeps init -recursive args" in a fresh copy once
// per round and returns each root's state (its output the section under
// its header), and the fleet's stderr, per round.
func (e *fleetEnv) fleetRounds(rounds [][]string) ([]map[string]rootState, []string) {
	work := e.fresh()
	var out []map[string]rootState
	var stderrs []string
	for _, args := range rounds {
		res := e.run(e.tfdeps, work, append([]string{"init", "-recursive"}, args...)...)
		sections, results := splitFleetOutput(res.stdout)
		states := map[string]rootState{}
		for _, r := range e.roots {
			dir := filepath.Join(work, filepath.FromSlash(r.dir))
			code, ok := map[string]int{"ok": 0, "failed": 1}[results[r.dir]]
			if !ok {
				e.t.Errorf("fleet: root %s has result %q in the table\n%s", r.dir, results[r.dir], res.stdout)
			}
			states[r.dir] = rootStateOf(e.t, dir, code, sections[r.dir], "")
		}
		out = append(out, states)
		stderrs = append(stderrs, res.stderr)
	}
	return out, stderrs
}

func rootStateOf(t *testing.T, dir string, code int, stdout, stderr string) rootState {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "(none)"
		}
		return string(b)
	}
	lay, err := layout(filepath.Join(dir, ".terraform"))
	if err != nil {
		t.Fatal(err)
	}
	return rootState{
		code:    code,
		stdout:  sortSameSummaryRuns(sortProgress(stdout, false)),
		stderr:  stderr,
		lock:    read(".terraform.lock.hcl"),
		modules: read(".terraform/modules/modules.json"),
		layout:  lay,
	}
}

var (
	fleetHeaderRE = regexp.MustCompile(`^(?:\x1b\[1m)?Initializing root module (.*)\.\.\.(?:\x1b\[0m)?$`)
	fleetRowRE    = regexp.MustCompile(`^(\S+) +(ok|failed|not run) `)
)

// splitFleetOutput cuts the fleet's stdout into each root's section (the
// lines under its header, up to the next header or the empty line before
// the table) and reads each root's result from the table.
func splitFleetOutput(stdout string) (sections, results map[string]string) {
	sections, results = map[string]string{}, map[string]string{}
	lines := strings.SplitAfter(stdout, "\n")
	root := ""
	var b strings.Builder
	flush := func() {
		if root != "" {
			sections[root] = b.String()
		}
		b.Reset()
	}
	inTable := false
	for i, l := range lines {
		text := strings.TrimSuffix(l, "\n")
		if inTable {
			if m := fleetRowRE.FindStringSubmatch(text); m != nil {
				results[m[1]] = m[2]
			}
			continue
		}
		if m := fleetHeaderRE.FindStringSubmatch(text); m != nil {
			flush()
			root = m[1]
			continue
		}
		if text == "" && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "ROOT ") {
			flush()
			root, inTable = "", true
			continue
		}
		b.WriteString(l)
	}
	flush()
	return sections, results
}

// layout lists the files below dir: path, type and permission bits,
// and content (small text files in full, others by digest; a git
// repository's own files by name only: their content records when and
// how the clone was made). tfdeps' hash memo files are left out (a
// listed deviation).
func layout(dir string) (string, error) {
	var lines []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if os.IsNotExist(err) && path == dir {
			return filepath.SkipDir
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if rel == "." || strings.HasSuffix(rel, ".tfdeps-h1") {
			return nil
		}
		info, err := os.Lstat(path)
		if err != nil {
			return err
		}
		entry := fmt.Sprintf("%s %v", rel, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			entry += " -> " + target
		case info.IsDir():
		case strings.Contains("/"+rel, "/.git/"):
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if len(data) < 4096 && !bytes.ContainsRune(data, 0) {
				entry += ":\n" + string(data)
			} else {
				sum := sha256.Sum256(data)
				entry += " sha256:" + hex.EncodeToString(sum[:8])
			}
		}
		lines = append(lines, entry)
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n"), err
}

// compareRoots compares each root's state after each round, want (the
// single inits) against got (the fleet), and the fleet's stderr against
// the roots' stderr in root order. It returns the roots identical in
// every round.
func compareRoots(t *testing.T, roots []fleetRoot, rounds [][]string, want, got []map[string]rootState, fleetStderr []string) int {
	t.Helper()
	identical := 0
	sorted := make([]string, len(roots))
	for i, r := range roots {
		sorted[i] = r.dir
	}
	sort.Strings(sorted)
	same := map[string]bool{}
	for _, r := range sorted {
		same[r] = true
	}
	for i, args := range rounds {
		var stderr strings.Builder
		for _, r := range sorted {
			w, g := want[i][r], got[i][r]
			stderr.WriteString(w.stderr)
			var d strings.Builder
			if g.stdout == "" || w.code == 0 && !strings.Contains(g.layout, "providers") {
				// Guards the comparison itself: every root prints, and
				// every root initialised has providers installed.
				fmt.Fprintf(&d, "  fleet: no output section, or no providers installed\n")
			}
			if w.code != g.code {
				fmt.Fprintf(&d, "  exit code: single %d, fleet %d\n", w.code, g.code)
			}
			d.WriteString(firstDifference("stdout", w.stdout, g.stdout))
			d.WriteString(firstDifference("lock file", w.lock, g.lock))
			d.WriteString(firstDifference("modules.json", w.modules, g.modules))
			d.WriteString(firstDifference(".terraform layout", w.layout, g.layout))
			if d.Len() > 0 {
				same[r] = false
				t.Errorf("round %d (init %s), root %s differs:\n%s", i+1, strings.Join(args, " "), r, d.String())
			}
		}
		if diff := firstDifference("stderr (roots in order)", sortSameSummaryRuns(stderr.String()), sortSameSummaryRuns(fleetStderr[i])); diff != "" {
			t.Errorf("round %d (init %s): %s", i+1, strings.Join(args, " "), diff)
		}
	}
	for _, r := range sorted {
		if same[r] {
			identical++
		}
	}
	return identical
}

// fleetTestRounds are the fleet's runs: first from the template, then
// again with nothing changed, in colour.
var fleetTestRounds = [][]string{{"-no-color"}, {}}

// TestFleetReference compares "tfdeps init -recursive" with the
// reference "tofu init" run in each root alone, root by root.
func TestFleetReference(t *testing.T) {
	tofu := os.Getenv("TFDEPS_REFERENCE_TOFU")
	if tofu == "" {
		t.Skip("fleet reference test skipped: set TFDEPS_REFERENCE_TOFU to the path of a tofu v1.12.6 binary to run it")
	}
	e := newFleetEnv(t, tofu, registrytest.Options{})
	want := e.singleRoots(tofu, fleetTestRounds)
	got, stderr := e.fleetRounds(fleetTestRounds)
	n := compareRoots(t, e.roots, fleetTestRounds, want, got, stderr)
	t.Logf("fleet reference: roots identical %d / %d", n, len(e.roots))
	fmt.Printf("difftest (fleet, tofu): roots identical %d / %d\n", n, len(e.roots))
}

// fleetSingleRoots compares "tfdeps init -recursive" with "tfdeps init"
// run in each root alone, root by root.
func fleetSingleRoots(t *testing.T, e *fleetEnv) {
	want := e.singleRoots(e.tfdeps, fleetTestRounds)
	got, stderr := e.fleetRounds(fleetTestRounds)
	if n := compareRoots(t, e.roots, fleetTestRounds, want, got, stderr); n != len(e.roots) {
		t.Errorf("roots identical %d / %d", n, len(e.roots))
	}
	// The broken root fails, the others succeed.
	for _, r := range e.roots {
		if code := got[0][r.dir].code; code != 0 != (r.dir == "envs/broken") {
			t.Errorf("root %s: exit %d", r.dir, code)
		}
	}
}

// slowProviders are defaultProviders with packages large enough (64 KiB)
// that a slow download of one takes a while.
func slowProviders() []registrytest.Provider {
	ps := defaultProviders()
	for i := range ps {
		for j := range ps[i].Versions {
			ps[i].Versions[j].Size = 64 << 10
		}
	}
	return ps
}

// rootLayouts lists each root's directory (files, lock file, .terraform)
// in work.
func (e *fleetEnv) rootLayouts(work string) map[string]string {
	out := map[string]string{}
	for _, r := range e.roots {
		l, err := layout(filepath.Join(work, filepath.FromSlash(r.dir)))
		if err != nil {
			e.t.Fatal(err)
		}
		out[r.dir] = l
	}
	return out
}

// startFleet starts "tfdeps init -recursive args" in work.
func (e *fleetEnv) startFleet(work string, stdout, stderr *bytes.Buffer, args ...string) *exec.Cmd {
	cmd := exec.Command(e.tfdeps, append([]string{"init", "-recursive"}, args...)...)
	cmd.Dir, cmd.Env = work, e.env()
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	return cmd
}

// waitFor polls cond until it holds (a minute at most).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestFleetRuns checks runs of init -recursive against the fake registry
// serving packages large enough to download slowly when told to: each
// root as a single init leaves it, an interrupted run, one interrupted
// twice, the progress reported.
func TestFleetRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("fleet test skipped in -short mode (it builds tfdeps)")
	}
	e := newFleetEnv(t, "", registrytest.Options{Providers: slowProviders()})
	for _, tc := range []struct {
		name string
		test func(*testing.T, *fleetEnv)
	}{
		{"same as single inits", fleetSingleRoots},
		{"interrupt", fleetInterrupt},
		{"interrupt twice", fleetInterruptTwice},
		{"progress", fleetProgress},
		{"live line", fleetLiveLine},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			e.fake.ClearFaults()
			tc.test(t, e)
		})
	}
}

// fleetInterrupt interrupts init -recursive while provider packages
// download slowly: the run stops starting roots, and every root is left
// either exactly as it was or as a complete init leaves it.
func fleetInterrupt(t *testing.T, e *fleetEnv) {
	// Each root as a complete init leaves it, then as it was.
	work := e.fresh()
	for _, r := range e.roots {
		e.run(e.tfdeps, filepath.Join(work, filepath.FromSlash(r.dir)), "init", "-no-color")
	}
	complete := e.rootLayouts(work)
	work = e.fresh()
	before := e.rootLayouts(work)

	e.fake.ResetRequests()
	e.fake.Inject(registrytest.Archive, registrytest.Fault{Kind: registrytest.Slow, Delay: 20 * time.Millisecond})
	var stdout, stderr bytes.Buffer
	cmd := e.startFleet(work, &stdout, &stderr, "-no-color", "-parallelism=2")
	waitFor(t, "a package download", func() bool { return e.fake.Count(registrytest.Archive) > 0 })
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	code := exitCode(t, cmd.Wait())
	if code != 1 || !strings.Contains(stdout.String(), "not run (interrupted):") {
		t.Fatalf("interrupted run: exit %d, no roots reported not run\n%s%s", code, stdout.String(), stderr.String())
	}
	after := e.rootLayouts(work)
	var asWas, done []string
	for _, r := range e.roots {
		switch after[r.dir] {
		case before[r.dir]:
			asWas = append(asWas, r.dir)
		case complete[r.dir]:
			done = append(done, r.dir)
		default:
			t.Errorf("root %s is neither as it was nor complete:\n%s\n%s", r.dir,
				firstDifference("as it was", before[r.dir], after[r.dir]), firstDifference("complete", complete[r.dir], after[r.dir]))
		}
	}
	t.Logf("after the interrupt: %d roots as they were %v, %d complete %v", len(asWas), asWas, len(done), done)
}

// fleetInterruptTwice: a second interrupt stops the roots under way too
// (here, downloads that never end).
func fleetInterruptTwice(t *testing.T, e *fleetEnv) {
	work := e.fresh()
	e.fake.ResetRequests()
	e.fake.Inject(registrytest.Archive, registrytest.Fault{Kind: registrytest.Hang})
	var stdout, stderr bytes.Buffer
	cmd := e.startFleet(work, &stdout, &stderr, "-no-color", "-parallelism=2")
	waitFor(t, "a package download", func() bool { return e.fake.Count(registrytest.Archive) > 0 })
	cmd.Process.Signal(os.Interrupt)
	time.Sleep(100 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if code := exitCode(t, err); code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatalf("still running a minute after the second interrupt\n%s%s", stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "Provider installation was canceled by an interrupt signal.") && !strings.Contains(stderr.String(), "Provider installation was canceled by an interrupt signal.") {
		t.Errorf("no root reports its interrupted installation\n%s%s", stdout.String(), stderr.String())
	}
}

// fleetProgress: the packages and bytes a run reports (the live line's
// figures, and the -json summary's) are those it installed and
// downloaded: one package for each provider package installed in a root
// and each module package fetched, and the bytes of every archive
// downloaded.
func fleetProgress(t *testing.T, e *fleetEnv) {
	work := e.fresh()
	before := e.installedPackages(work)
	e.fake.ResetRequests()
	res := e.run(e.tfdeps, work, "init", "-recursive", "-json")
	var summary struct {
		Type    string `json:"type"`
		Summary struct {
			Packages int   `json:"packages"`
			Bytes    int64 `json:"bytes"`
		} `json:"summary"`
	}
	for _, l := range strings.Split(res.stdout, "\n") {
		if strings.Contains(l, `"type":"fleet_summary"`) {
			if err := json.Unmarshal([]byte(l), &summary); err != nil {
				t.Fatal(err)
			}
		}
	}
	if summary.Type != "fleet_summary" {
		t.Fatalf("no summary line:\n%s%s", res.stdout, res.stderr)
	}
	installed := e.installedPackages(work) - before
	var archives, moduleArchives int
	var bytes int64
	for _, r := range e.fake.Requests() {
		switch {
		case r.Endpoint == registrytest.Archive:
			archives++
			parts := strings.Split(r.Path, "/") // /files/NS/TYPE/VERSION/FILE
			platform := strings.TrimSuffix(strings.Join(strings.Split(parts[5], "_")[2:], "_"), ".zip")
			info, err := e.fake.Package(parts[2], parts[3], parts[4], platform)
			if err != nil {
				t.Fatal(err)
			}
			bytes += info.Size
		case r.Endpoint == registrytest.ModuleArchive && r.Method == "GET":
			moduleArchives++
			resp, err := e.fake.Client().Get(e.fake.URL() + r.Path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			bytes += int64(len(body))
		}
	}
	t.Logf("%d provider packages installed, %d archives and %d module archives downloaded (%d bytes); reported %d packages, %d bytes",
		installed, archives, moduleArchives, bytes, summary.Summary.Packages, summary.Summary.Bytes)
	if summary.Summary.Bytes != bytes {
		t.Errorf("reported %d bytes, downloaded %d", summary.Summary.Bytes, bytes)
	}
	// Module packages fetched: the registry's archives, and the git
	// module's repository (once or twice: each root calling it may look
	// it up before the other has cached it).
	if got := summary.Summary.Packages; got < installed+moduleArchives+1 || got > installed+moduleArchives+2 {
		t.Errorf("reported %d packages, want %d provider packages installed + %d module archives + the git package fetched", got, installed, moduleArchives)
	}
}

// fleetLiveLine: on a terminal (script(1) gives the run one), the live
// fleet line ends showing every root done and the packages and bytes.
func fleetLiveLine(t *testing.T, e *fleetEnv) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("live line test skipped: no script command to run tfdeps on a terminal")
	}
	work := e.fresh()
	cmd := exec.Command("script", "-qfec", e.tfdeps+" init -recursive", "/dev/null")
	cmd.Dir, cmd.Env = work, append(e.env(), "TERM=xterm")
	out, _ := cmd.CombinedOutput()
	lines := regexp.MustCompile(`Root modules: (\d+)/(\d+) done, (\d+) packages?, (\d+\.\d) MB`).FindAllStringSubmatch(string(out), -1)
	if len(lines) == 0 {
		t.Fatalf("no live line in the output:\n%q", out)
	}
	last := lines[len(lines)-1]
	t.Logf("last live line: %s", last[0])
	if want := fmt.Sprint(len(e.roots)); last[1] != want || last[2] != want || last[3] == "0" || last[4] == "0.0" {
		t.Errorf("last live line %q: want all %s roots done, packages and bytes", last[0], want)
	}
}

// installedPackages counts the provider packages (platform directories)
// installed in the roots of work.
func (e *fleetEnv) installedPackages(work string) int {
	n := 0
	for _, r := range e.roots {
		dirs, _ := filepath.Glob(filepath.Join(work, filepath.FromSlash(r.dir), ".terraform", "providers", "*", "*", "*", "*", "*"))
		for _, d := range dirs {
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				n++
			}
		}
	}
	return n
}
