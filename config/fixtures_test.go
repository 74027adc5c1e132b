package config

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tfdeps/tfdeps/internal/conformance"
)

// eachReferenceFixture runs fn as a subtest for every fixture of the shared
// configuration conformance data that has a reference.json (OpenTofu's
// full result), with that file's bytes and the fixture's input directory.
func eachReferenceFixture(t *testing.T, fn func(t *testing.T, reference []byte, in string)) {
	t.Helper()
	root := conformance.Dir(t, "config")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		t.Run(e.Name(), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, "reference.json"))
			if err != nil {
				t.Skip("no reference.json")
			}
			fn(t, raw, filepath.Join(dir, "in"))
		})
	}
}

// TestOpenTofuFixtures is the differential check of issue #17 over
// OpenTofu's own configuration fixtures: "tfdeps providers" and "tofu
// providers -no-color" run on a copy of each fixture (a file of the
// *-files directories on its own, or a module directory), backend and
// cloud initialisation fixtures left out. Both must agree on the exit code
// and on every Error/Warning summary; the whole output (the provider and
// module lists, which tofu prints in map order, compared as sets of
// lines) must be identical on at least 95% of them.
//
// It needs TFDEPS_REFERENCE_TOFU and TFDEPS_OPENTOFU_CONFIG_FIXTURES, the
// internal/configs/testdata directory of an OpenTofu v1.12.6 checkout, e.g.
//
//	git --git-dir=OPENTOFU.git archive v1.12.6 internal/configs/testdata | tar -x -C DIR
func TestOpenTofuFixtures(t *testing.T) {
	tofu, fixtures := os.Getenv("TFDEPS_REFERENCE_TOFU"), os.Getenv("TFDEPS_OPENTOFU_CONFIG_FIXTURES")
	if tofu == "" || fixtures == "" {
		t.Skip("set TFDEPS_REFERENCE_TOFU (tofu v1.12.6) and TFDEPS_OPENTOFU_CONFIG_FIXTURES (OpenTofu's internal/configs/testdata) to run this")
	}
	compareFixtures(t, fixtureRun{reference: tofu, name: "tofu"}, fixtures, openTofuFixtureCases(t, fixtures))
}

// fixtureRun names the reference program of a fixture comparison and the
// flags that make tfdeps emulate it.
type fixtureRun struct {
	reference, name string
	tfdepsArgs      []string
}

// compareFixtures runs "providers -no-color" with the reference program and
// with tfdeps on a copy of each case under fixtures, and asserts what
// TestOpenTofuFixtures describes: the same exit code and Error/Warning
// summaries everywhere, the whole output (as a set of lines) identical on at
// least 95% of the cases.
func compareFixtures(t *testing.T, ref fixtureRun, fixtures string, cases []string) {
	t.Helper()
	tfdeps := filepath.Join(t.TempDir(), "tfdeps")
	if out, err := exec.Command("go", "build", "-o", tfdeps, "github.com/tfdeps/tfdeps/cmd/tfdeps").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := t.TempDir()
	rc := filepath.Join(home, "empty.tfrc")
	if err := os.WriteFile(rc, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(bin string, args []string, dir string) (string, int) {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, append(slices.Clone(args), "providers", "-no-color")...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1"}
		out, _ := cmd.CombinedOutput()
		return string(out), cmd.ProcessState.ExitCode()
	}
	sameCode, sameSummaries, identical := 0, 0, 0
	for _, c := range cases {
		// Both run in the same directory: paths appear in messages.
		dir := filepath.Join(t.TempDir(), "fixture")
		copyFixture(t, filepath.Join(fixtures, c), dir)
		want, wantCode := run(ref.reference, nil, dir)
		if err := os.RemoveAll(filepath.Join(dir, ".terraform")); err != nil {
			t.Fatal(err)
		}
		got, gotCode := run(tfdeps, ref.tfdepsArgs, dir)
		if gotCode != wantCode {
			t.Errorf("%s: exit code %d, %s %d\n%s:\n%s\ntfdeps:\n%s", c, gotCode, ref.name, wantCode, ref.name, want, got)
			continue
		}
		sameCode++
		if w, g := diagnosticSummaries(want), diagnosticSummaries(got); !slices.Equal(w, g) {
			t.Errorf("%s: summaries %q, %s %q", c, g, ref.name, w)
			continue
		}
		sameSummaries++
		if slices.Equal(linesAsSet(want), linesAsSet(got)) {
			identical++
		} else {
			t.Logf("%s: output differs\n%s:\n%s\ntfdeps:\n%s", c, ref.name, want, got)
		}
	}
	t.Logf("%d fixtures; same exit code on %d, same summaries on %d, whole output identical on %d", len(cases), sameCode, sameSummaries, identical)
	if identical*100 < len(cases)*95 {
		t.Errorf("whole output identical on %d of %d fixtures, under 95%%", identical, len(cases))
	}
}

// openTofuFixtureCases lists the fixtures under root (see
// TestOpenTofuFixtures), as paths relative to root.
func openTofuFixtureCases(t *testing.T, root string) []string {
	t.Helper()
	skip := map[string]bool{
		"nested-backend-warning": true, "nested-cloud-warning": true,
		"valid-files/backend.tf": true, "valid-files/cloud.tf": true,
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if !e.IsDir() || skip[e.Name()] {
			continue
		}
		switch e.Name() {
		case "valid-files", "invalid-files", "error-files", "warning-files", "invalid-import-files",
			"config-diagnostics", "invalid-modules", "valid-modules", "escaping-blocks":
			subs, err := os.ReadDir(filepath.Join(root, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range subs {
				name := e.Name() + "/" + s.Name()
				if skip[name] || strings.HasPrefix(s.Name(), "override-backend") || strings.HasPrefix(s.Name(), "override-cloud") {
					continue
				}
				cases = append(cases, name)
			}
		default:
			cases = append(cases, e.Name())
		}
	}
	return cases
}

// copyFixture copies a fixture file into dir, or a fixture directory's
// contents.
func copyFixture(t *testing.T, src, dir string) {
	t.Helper()
	info, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	if !info.IsDir() {
		writeFixtureFile(t, src, filepath.Join(dir, filepath.Base(src)))
		return
	}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		writeFixtureFile(t, p, filepath.Join(dir, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeFixtureFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// diagnosticSummaries are the "Error: …" and "Warning: …" lines of an
// output, in order.
func diagnosticSummaries(out string) []string {
	var s []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "Error: ") || strings.HasPrefix(line, "Warning: ") {
			s = append(s, line)
		}
	}
	return s
}

// linesAsSet sorts an output's lines, with the last-entry tree mark made
// like the others, so lists printed in another order compare equal.
func linesAsSet(out string) []string {
	lines := strings.Split(strings.ReplaceAll(out, "└──", "├──"), "\n")
	slices.Sort(lines)
	return lines
}
