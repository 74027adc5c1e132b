package requirements

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// compareWithReference runs "tofu get" and "tofu providers" of the
// reference binary (TFDEPS_REFERENCE_TOFU) on files and checks that it
// reports want: every diagnostic's summary and detail appear in its output,
// or its summary heads a group OpenTofu folded into "(and N more similar
// warnings elsewhere)", and the number of diagnostics is the same.
func compareWithReference(t *testing.T, files map[string]string, want []checkDiag) {
	t.Helper()
	tofu := os.Getenv("TFDEPS_REFERENCE_TOFU")
	if tofu == "" {
		t.Log("TFDEPS_REFERENCE_TOFU is not set: not compared with OpenTofu")
		return
	}
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "none.tfrc"), nil, 0o666); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+home, "TF_CLI_CONFIG_FILE="+filepath.Join(home, "none.tfrc"), "CHECKPOINT_DISABLE=1")
	run := func(args ...string) string {
		cmd := exec.Command(tofu, args...)
		cmd.Dir, cmd.Env = dir, env
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	run("get", "-no-color")
	out := run("providers", "-no-color")
	flat := strings.Join(strings.Fields(out), " ")
	folded := map[string]bool{}
	total := 0
	heading := regexp.MustCompile(`(?m)^(Error|Warning): (.*)$`)
	more := regexp.MustCompile(`\(and (one|\d+) more similar warnings? elsewhere\)`)
	for _, m := range heading.FindAllStringSubmatchIndex(out, -1) {
		total++
		summary := out[m[4]:m[5]]
		rest := out[m[1]:]
		if next := heading.FindStringIndex(rest); next != nil {
			rest = rest[:next[0]]
		}
		if mm := more.FindStringSubmatch(rest); mm != nil {
			n := 1
			if mm[1] != "one" {
				n, _ = strconv.Atoi(mm[1])
			}
			total += n
			folded[summary] = true
		}
	}
	if total != len(want) {
		t.Errorf("OpenTofu reports %d diagnostics, the test wants %d:\n%s", total, len(want), out)
	}
	for _, w := range want {
		detail := strings.Join(strings.Fields(w.Detail), " ")
		if !strings.Contains(flat, detail) && !folded[w.Summary] {
			t.Errorf("OpenTofu does not report %q: %s\n%s", w.Summary, w.Detail, out)
		}
	}
}
