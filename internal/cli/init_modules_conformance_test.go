package cli

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/conformance"
)

// TestModulesConformance runs the recorded module cases of
// ../shared/conformance/modules (their README says how) with tfdeps in
// this process and compares the exit code, the progress lines, the error
// summaries, modules.json byte for byte and the listing of MODDIR.
func TestModulesConformance(t *testing.T) {
	root := conformance.Dir(t, "modules")
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_TERMINAL_PROMPT", "0")
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) { runModuleCase(t, filepath.Join(root, e.Name())) })
	}
}

type moduleCaseRun struct {
	dir, work, home, scratch string
	env                      map[string]string
}

func runModuleCase(t *testing.T, caseDir string) {
	run := &moduleCaseRun{dir: t.TempDir()}
	run.dir, _ = filepath.EvalSymlinks(run.dir)
	run.work, run.home, run.scratch = filepath.Join(run.dir, "work"), filepath.Join(run.dir, "home"), filepath.Join(run.dir, "scratch")
	for _, d := range []string{run.home, run.scratch, filepath.Join(run.dir, "tmp")} {
		mustMkdir(t, d)
	}
	if err := os.CopyFS(run.work, os.DirFS(filepath.Join(caseDir, "in"))); err != nil {
		t.Fatal(err)
	}
	run.substitute(t)
	if _, err := os.Stat(filepath.Join(caseDir, "setup")); err == nil {
		cmd := exec.Command("bash", filepath.Join(caseDir, "setup"))
		cmd.Dir = run.dir
		cmd.Env = append(os.Environ(), "WORK="+run.work, "SCRATCH="+run.scratch, "CASE="+caseDir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("setup: %v\n%s", err, out)
		}
	}
	cfgFile := filepath.Join(run.dir, "empty.tfrc")
	mustWrite(t, cfgFile, "")
	run.env = map[string]string{"HOME": run.home, "TF_CLI_CONFIG_FILE": cfgFile, "TFDEPS_MODULE_CACHE_DIR": filepath.Join(run.dir, "cache")}
	for _, line := range readLines(t, filepath.Join(caseDir, "env")) {
		if k, v, ok := strings.Cut(line, "="); ok {
			run.env[k] = v
		}
	}
	steps := readLines(t, filepath.Join(caseDir, "cmd"))
	var out, errOut string
	var code int
	for i, step := range steps {
		if sh, ok := strings.CutPrefix(step, "sh "); ok {
			cmd := exec.Command("bash", "-c", sh)
			cmd.Dir = run.work
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("step %q: %v\n%s", step, err, b)
			}
			continue
		}
		out, errOut, code = run.tfdeps(t, withNoColor(strings.Fields(step)))
		if i < len(steps)-1 && code != 0 {
			t.Fatalf("step %q exited %d\n%s%s", step, code, out, errOut)
		}
	}
	all := run.mask(out + errOut)
	if want := strings.TrimSpace(readFile(t, filepath.Join(caseDir, "expected-exit"))); want != itoa(code) {
		t.Errorf("exit code %d, want %s\n%s", code, want, all)
	}
	run.compareLines(t, caseDir, "expected-lines.txt", all, regexp.MustCompile(`^(- |  - |Downloading .* for .*\.\.\.$|Initializing modules\.\.\.$|Upgrading modules\.\.\.$)`))
	run.compareLines(t, caseDir, "expected-errors.txt", all, regexp.MustCompile(`^Error: `))
	modDir := run.modulesDir(steps)
	if want, err := os.ReadFile(filepath.Join(caseDir, "expected-modules.json")); err == nil {
		got, err := os.ReadFile(filepath.Join(modDir, "modules.json"))
		if err != nil {
			t.Fatalf("modules.json: %v", err)
		}
		if diff := cmp.Diff(string(want), run.mask(string(got))); diff != "" {
			t.Errorf("modules.json (-want +got):\n%s", diff)
		}
	} else if _, err := os.Stat(filepath.Join(modDir, "modules.json")); err == nil {
		t.Errorf("modules.json written, want none")
	}
	if want, err := os.ReadFile(filepath.Join(caseDir, "expected-tree.txt")); err == nil {
		if diff := cmp.Diff(string(want), run.mask(listTree(t, modDir))); diff != "" {
			t.Errorf("tree of %s (-want +got):\n%s", modDir, diff)
		}
	}
}

func (r *moduleCaseRun) substitute(t *testing.T) {
	filepath.WalkDir(r.work, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, ext := range []string{".tf", ".tofu", ".hcl", ".tf.txt"} {
			if strings.HasSuffix(p, ext) {
				s := strings.NewReplacer("@SCRATCH@", r.scratch, "@WORK@", r.work).Replace(readFile(t, p))
				mustWrite(t, p, s)
			}
		}
		return nil
	})
}

func (r *moduleCaseRun) tfdeps(t *testing.T, args []string) (string, string, int) {
	t.Chdir(r.work)
	var stdout, stderr bytes.Buffer
	code := Main(Env{
		Args: args, Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return r.env[k] },
		Environ: func() []string {
			var list []string
			for k, v := range r.env {
				list = append(list, k+"="+v)
			}
			return list
		},
		Chdir: os.Chdir, Getwd: os.Getwd,
	})
	return stdout.String(), stderr.String(), code
}

// modulesDir is MODDIR after the steps: -chdir and TF_DATA_DIR applied.
func (r *moduleCaseRun) modulesDir(steps []string) string {
	dir := r.work
	for _, f := range strings.Fields(steps[len(steps)-1]) {
		if d, ok := strings.CutPrefix(f, "-chdir="); ok {
			dir = filepath.Join(dir, d)
		}
	}
	if d := r.env["TF_DATA_DIR"]; d != "" {
		return filepath.Join(dir, d, "modules")
	}
	return filepath.Join(dir, ".terraform", "modules")
}

func (r *moduleCaseRun) mask(s string) string {
	s = strings.NewReplacer(r.work, "@WORK@", r.home, "@HOME@", r.scratch, "@SCRATCH@").Replace(s)
	s = strings.ReplaceAll(s, r.dir, "@RUN@")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

func (r *moduleCaseRun) compareLines(t *testing.T, caseDir, name, all string, re *regexp.Regexp) {
	t.Helper()
	var got []string
	for _, l := range strings.Split(all, "\n") {
		if re.MatchString(l) {
			got = append(got, l)
		}
	}
	sort.Strings(got)
	want := readLines(t, filepath.Join(caseDir, name))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s (-want +got):\n%s\noutput:\n%s", name, diff, all)
	}
}

// listTree lists MODDIR as the case README describes.
func listTree(t *testing.T, root string) string {
	var lines []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case d.IsDir() && d.Name() == ".git":
			lines = append(lines, "g "+rel)
			return filepath.SkipDir
		case info.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			lines = append(lines, "l "+rel+" -> "+target)
		case info.Mode().IsRegular() && rel != "modules.json":
			kind := "f- "
			if info.Mode()&0o100 != 0 {
				kind = "fx "
			}
			lines = append(lines, kind+rel)
		}
		return nil
	})
	sort.Strings(lines)
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

func readLines(t *testing.T, name string) []string {
	f, err := os.Open(name)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	for s := bufio.NewScanner(f); s.Scan(); {
		if s.Text() != "" {
			lines = append(lines, s.Text())
		}
	}
	return lines
}

func readFile(t *testing.T, name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustWrite(t *testing.T, name, s string) {
	if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustMkdir(t *testing.T, d string) {
	if err := os.MkdirAll(d, 0o777); err != nil {
		t.Fatal(err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// withNoColor adds -no-color after the command name: the cases were
// recorded with plain output, and tofu colours by default.
func withNoColor(args []string) []string {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return append(append(append([]string{}, args[:i+1]...), "-no-color"), args[i+1:]...)
		}
	}
	return args
}
