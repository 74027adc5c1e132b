package difftest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// fakeRegistry is a fake registry both programs are pointed at.
type fakeRegistry struct {
	caFile    string
	cliConfig string
}

// step is one command of a case: the arguments after the program name.
type step []string

func (s step) String() string { return strings.Join(s, " ") }

// testCase is one input directory and the commands run in it, in order,
// by each program.
type testCase struct {
	name string
	// files are written into the working directory before the first step
	// (name → content; a name ending in "/" makes a directory).
	files map[string]string
	// copyFrom is a directory copied into the working directory first.
	copyFrom string
	steps    []step
	// cliConfig is the CLI configuration file's text; the fake registry's
	// host blocks are prepended when fake is set. missingCLIConfig points
	// TF_CLI_CONFIG_FILE at a file that does not exist instead.
	cliConfig        string
	missingCLIConfig bool
	fake             *fakeRegistry
	// tofuRuns > 1 runs tofu that many times: its outputs vary between
	// runs (map iteration) and tfdeps must match one of them.
	tofuRuns int
}

// result is what one step of one program produced.
type result struct {
	code           int
	stdout, stderr string
	// files lists the working directory after the step: path → digest
	// (or link target), small text files in full.
	files string
}

func (r result) equal(o result) bool { return r == o }

// program runs one of the two binaries.
type program struct {
	name string
	path string
	// args come before every step's arguments (-compat=terraform).
	args []string
	// skipFiles, when set, leaves the matching files (slash paths
	// relative to the work directory) out of the snapshots.
	skipFiles *regexp.Regexp
	// unorderedModules compares the module installer's "Downloading"
	// lines as part of the progress runs: terraform installs modules in a
	// graph walk whose order between modules that do not depend on each
	// other varies from run to run.
	unorderedModules bool
}

// runCase runs c's steps with p in dir (recreated), with HOME and the CLI
// configuration beside it, and returns the results of the steps.
func runCase(ctx context.Context, p program, c testCase, base string) ([]result, error) {
	work := filepath.Join(base, "work")
	home := filepath.Join(base, "home")
	for _, d := range []string{work, home} {
		if err := os.RemoveAll(d); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	if c.copyFrom != "" {
		if err := copyDir(c.copyFrom, work); err != nil {
			return nil, err
		}
	}
	for name, content := range c.files {
		path := filepath.Join(work, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(path, 0o755); err != nil {
				return nil, err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	env := []string{
		"HOME=" + home,
		"PATH=" + os.Getenv("PATH"),
		"CHECKPOINT_DISABLE=1",
		"TF_CLI_ARGS=",
	}
	cfgPath := filepath.Join(base, "cli.tfrc")
	if c.missingCLIConfig {
		os.Remove(cfgPath)
	} else {
		text := c.cliConfig
		if c.fake != nil {
			text = c.fake.cliConfig + text
		}
		if err := os.WriteFile(cfgPath, []byte(text), 0o644); err != nil {
			return nil, err
		}
	}
	env = append(env, "TF_CLI_CONFIG_FILE="+cfgPath)
	if c.fake != nil {
		env = append(env, "SSL_CERT_FILE="+c.fake.caFile)
	}
	var out []result
	for _, s := range c.steps {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		cmd := exec.CommandContext(ctx, p.path, append(append([]string{}, p.args...), s...)...)
		cmd.Dir = work
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		cancel()
		code := 0
		if err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				return nil, fmt.Errorf("%s %s: %w", p.name, s, err)
			}
			code = ee.ExitCode()
		}
		files, err := snapshot(work, p.skipFiles)
		if err != nil {
			return nil, err
		}
		out = append(out, result{
			code:   code,
			stdout: sortProvidersTree(sortSameSummaryRuns(sortProgress(normalize(stdout.String(), work, home), p.unorderedModules))),
			stderr: sortProvidersTree(sortSameSummaryRuns(normalize(stderr.String(), work, home))),
			files:  files,
		})
	}
	return out, nil
}

var (
	timestampRE = regexp.MustCompile(`"@timestamp":"[^"]*"`)
	// tfdepsKeyRE is tfdeps' additional key on JSON lines.
	tfdepsKeyRE = regexp.MustCompile(`,"tfdeps":\{[^{}]*\}`)
)

// terraformLogRE matches terraform init -json's progress lines.
var terraformLogRE = regexp.MustCompile(`^\{"@level":"info","@message":"[^"]*","@module":"terraform\.ui","@timestamp":"T","type":"log"\}`)

var progressJSONRE = regexp.MustCompile(`^\{"@level":"[a-z]+","@message":"(Finding|Installing|Installed|Reusing|Using|Detected|Waiting|[^"]* is built in to (OpenTofu|Terraform))`)

// sortProgress sorts each run of consecutive per-provider progress lines
// ("- " lines, or their JSON form): tofu prints them in the order of a Go
// map, which varies between runs, while tfdeps has one fixed order.
// With modules set, the module installer's "Downloading" lines count as
// progress lines too. So does tofu's expired-key warning, a plain line
// that comes wherever its concurrent installation is (observed: before
// or after another provider's lines, from one run to the next).
func sortProgress(s string, modules bool) string {
	lines := strings.SplitAfter(s, "\n")
	isProgress := func(l string) bool {
		return strings.HasPrefix(l, "- ") || progressJSONRE.MatchString(l) || terraformLogRE.MatchString(l) ||
			strings.HasPrefix(l, "[WARN] Provider ") ||
			modules && strings.HasPrefix(l, "Downloading ")
	}
	for i := 0; i < len(lines); {
		if !isProgress(lines[i]) {
			i++
			continue
		}
		j := i
		for j < len(lines) && isProgress(lines[j]) {
			j++
		}
		sort.Strings(lines[i:j])
		i = j
	}
	return strings.Join(lines, "")
}

var blockStartRE = regexp.MustCompile(`(?m)^(\x1b\[3[13]m╷|\n?(Error|Warning): )`)

// sortSameSummaryRuns sorts each run of consecutive diagnostics sharing a
// summary line (human or JSON): tofu reports per-provider installation
// failures in the order its goroutines finish.
func sortSameSummaryRuns(s string) string {
	if strings.HasPrefix(s, "{") {
		lines := strings.SplitAfter(s, "\n")
		// tofu's JSON view does not sort: diagnostics from installation
		// come in the order its goroutines finish, so each run of
		// consecutive diagnostic lines is compared as a set.
		key := func(l string) string {
			if strings.Contains(l, `"type":"diagnostic"`) {
				return "diagnostic"
			}
			return ""
		}
		sortRuns(lines, key)
		return strings.Join(lines, "")
	}
	// Split into blocks, each starting at an "Error:"/"Warning:" line (or
	// the coloured rule above it).
	var blocks []string
	idx := blockStartRE.FindAllStringIndex(s, -1)
	prev := 0
	for _, m := range idx {
		start := m[0]
		if start > prev {
			blocks = append(blocks, s[prev:start])
		}
		prev = start
	}
	blocks = append(blocks, s[prev:])
	key := func(b string) string {
		// Errors without a source come in generation order, which for
		// installation failures is goroutine order: compared as a set.
		if strings.Contains(b, "Error: ") && !strings.Contains(b, "\n  on ") && !strings.Contains(b, "  on ") {
			return "sourceless error"
		}
		for _, l := range strings.Split(b, "\n") {
			if i := strings.Index(l, "Error: "); i >= 0 {
				return l[i:]
			}
			if i := strings.Index(l, "Warning: "); i >= 0 {
				return l[i:]
			}
		}
		return ""
	}
	sortRuns(blocks, key)
	return strings.Join(blocks, "")
}

// sortRuns sorts each run of consecutive items with the same non-empty key.
func sortRuns(items []string, key func(string) string) {
	for i := 0; i < len(items); {
		k := key(items[i])
		j := i + 1
		for j < len(items) && k != "" && key(items[j]) == k {
			j++
		}
		sort.Strings(items[i:j])
		i = j
	}
}

// normalize replaces what legitimately differs between two runs (JSON
// timestamps) and removes tfdeps' documented additions to OpenTofu's JSON
// lines (the "tfdeps" key).
func normalize(s, work, home string) string {
	s = tfdepsKeyRE.ReplaceAllString(s, "")
	return timestampRE.ReplaceAllString(s, `"@timestamp":"T"`)
}

// snapshot lists dir's files: small files in full, others by digest.
func snapshot(dir string, skip *regexp.Regexp) (string, error) {
	var lines []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if skip != nil && skip.MatchString(rel) {
			return nil
		}
		if strings.HasSuffix(rel, ".tfdeps-h1") {
			// tfdeps' hash memo beside a package (a listed deviation;
			// whether it is written depends on timing).
			return nil
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			lines = append(lines, rel+" -> "+target)
		case d.IsDir():
			lines = append(lines, rel+"/")
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if strings.HasSuffix(rel, ".hcl") || strings.HasSuffix(rel, ".json") && len(data) < 4096 {
				lines = append(lines, rel+":\n"+string(data))
			} else {
				sum := sha256.Sum256(data)
				lines = append(lines, rel+" sha256:"+hex.EncodeToString(sum[:8]))
			}
		}
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n"), err
}

func copyDir(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}

// firstDifference describes where want and got first differ, with a few
// lines around it.
func firstDifference(what, want, got string) string {
	if want == got {
		return ""
	}
	wl, gl := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	i := 0
	for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
		i++
	}
	from := max(0, i-2)
	show := func(lines []string) string {
		end := min(len(lines), i+4)
		if from >= end {
			return "    (end)\n"
		}
		var b strings.Builder
		for _, l := range lines[from:end] {
			fmt.Fprintf(&b, "    %q\n", l)
		}
		return b.String()
	}
	return fmt.Sprintf("  %s differs at line %d:\n   tofu:\n%s   tfdeps:\n%s", what, i+1, show(wl), show(gl))
}

// describe explains how got differs from want.
func describe(want, got result) string {
	var b strings.Builder
	if want.code != got.code {
		fmt.Fprintf(&b, "  exit code: tofu %d, tfdeps %d\n", want.code, got.code)
	}
	b.WriteString(firstDifference("stdout", want.stdout, got.stdout))
	b.WriteString(firstDifference("stderr", want.stderr, got.stderr))
	b.WriteString(firstDifference("files", want.files, got.files))
	return b.String()
}
