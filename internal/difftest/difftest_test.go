package difftest

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/internal/conformance"
	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// TestDifferential compares tofu and tfdeps on every case; see the package
// documentation.
func TestDifferential(t *testing.T) {
	tofu := os.Getenv("TFDEPS_REFERENCE_TOFU")
	if tofu == "" {
		t.Skip("differential test skipped: set TFDEPS_REFERENCE_TOFU to the path of a tofu v1.12.6 binary to run it")
	}
	if _, err := os.Stat(tofu); err != nil {
		t.Fatalf("TFDEPS_REFERENCE_TOFU: %v", err)
	}
	root := conformance.Dir(t)
	tmp := t.TempDir()
	tfdeps := buildTfdeps(t)

	start := fakeStarter(t, filepath.Join(tmp, "fakes"))
	fake, err := start(registrytest.Options{Providers: defaultProviders()})
	if err != nil {
		t.Fatal(err)
	}
	warnFake, err := start(registrytest.Options{Providers: defaultProviders(), Warnings: []string{"acme/baz is a test fixture", "second warning"}})
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := scriptCases(filepath.Join("..", "cli", "testdata", "registry"), fake, start)
	if err != nil {
		t.Fatal(err)
	}
	cases := append(edgeCases(fake, warnFake), scripts...)
	cases = append(cases, backendCases()...)
	cases = append(cases, lockCases(root, fake)...)
	cases = append(cases, fixtureCases(root, fake)...)

	compareCases(t, program{name: "tofu", path: tofu}, program{name: "tfdeps", path: tfdeps}, cases, tmp, deviations)
}

// fakeStarter returns a function starting fake registries (under dir)
// that serve the given hostnames (registrytest's defaults when none).
func fakeStarter(t *testing.T, dir string, hostnames ...string) func(registrytest.Options) (*fakeRegistry, error) {
	n := 0
	return func(opts registrytest.Options) (*fakeRegistry, error) {
		n++
		dir := filepath.Join(dir, fmt.Sprintf("fake%d", n))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		sa, err := registrytest.StartStandalone(dir, opts, hostnames...)
		if err != nil {
			return nil, err
		}
		t.Cleanup(sa.Close)
		cfg, err := os.ReadFile(sa.CLIConfigFile)
		if err != nil {
			return nil, err
		}
		return &fakeRegistry{caFile: sa.CAFile, cliConfig: string(cfg)}, nil
	}
}

// compareCases runs every case with the reference program ref and with
// tfdeps, and fails on any differing step not listed in devs.
func compareCases(t *testing.T, ref, tfdeps program, cases []testCase, tmp string, devs []deviation) {
	var identical, deviating, total int
	var diffs, deviated []string
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := filepath.Join(tmp, "case")
			var tofuRuns [][]result
			for i := 0; i < max(1, c.tofuRuns); i++ {
				res, err := runCase(ctx, ref, c, base)
				if err != nil {
					t.Fatal(err)
				}
				tofuRuns = append(tofuRuns, res)
			}
			got, err := runCase(ctx, tfdeps, c, base)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range c.steps {
				id := fmt.Sprintf("%s #%d: %s", c.name, i+1, s)
				total++
				match := false
				for _, run := range tofuRuns {
					if run[i].equal(got[i]) {
						match = true
					}
				}
				if match {
					identical++
					continue
				}
				text := id + "\n" + describe(tofuRuns[0][i], got[i])
				if reason := deviationFor(devs, c.name, i+1); reason != "" {
					deviating++
					deviated = append(deviated, id+": "+reason)
					t.Logf("deviation (%s):\n%s", reason, text)
					continue
				}
				diffs = append(diffs, text)
				t.Errorf("%s", text)
				dump(t, c.name, i+1, tofuRuns[0][i], got[i])
			}
		})
	}
	sort.Strings(diffs)
	t.Logf("identical %d / %d; %d listed deviations; %d differences", identical, total, deviating, total-identical-deviating)
	fmt.Printf("difftest (%s): identical %d / %d, listed deviations %d, differences %d\n", ref.name, identical, total, deviating, total-identical-deviating)
	for _, d := range deviated {
		fmt.Printf("  deviation: %s\n", d)
	}
	for _, d := range diffs {
		fmt.Printf("  DIFFERENT: %s\n", strings.SplitN(d, "\n", 2)[0])
	}
}

// dump writes both results to TFDEPS_DIFFTEST_DUMP/CASE/STEP.{tofu,tfdeps}.*
// when that variable is set.
func dump(t *testing.T, name string, step int, want, got result) {
	dir := os.Getenv("TFDEPS_DIFFTEST_DUMP")
	if dir == "" {
		return
	}
	d := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Log(err)
		return
	}
	for _, r := range []struct {
		who string
		res result
	}{{"tofu", want}, {"tfdeps", got}} {
		p := func(ext string) string { return filepath.Join(d, fmt.Sprintf("%d.%s.%s", step, r.who, ext)) }
		os.WriteFile(p("stdout"), []byte(r.res.stdout), 0o644)
		os.WriteFile(p("stderr"), []byte(r.res.stderr), 0o644)
		os.WriteFile(p("files"), []byte(r.res.files), 0o644)
		os.WriteFile(p("code"), []byte(fmt.Sprint(r.res.code)), 0o644)
	}
}

// deviationFor returns the reason a step of a case may differ from tofu,
// or "" when it must be identical.
func deviationFor(devs []deviation, name string, step int) string {
	for _, d := range devs {
		if ok, _ := path.Match(d.pattern, name); ok && (d.step == 0 || d.step == step) {
			return d.reason
		}
	}
	return ""
}
