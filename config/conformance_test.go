package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/internal/conformance"
)

type expectedDiag struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	Subject  string `json:"subject,omitempty"`
}

type expectedAssertion struct {
	Path   string          `json:"path"`
	Src    *string         `json:"src"`
	File   string          `json:"file"`
	Value  json.RawMessage `json:"value"`
	Absent *bool           `json:"absent"`
}

type expectedFixture struct {
	Errors           []string            `json:"errors"`
	Warnings         []string            `json:"warnings"`
	PrimaryFiles     []string            `json:"primary_files"`
	OverrideFiles    []string            `json:"override_files"`
	TestsDir         string              `json:"tests_dir"`
	TestFiles        []string            `json:"test_files"`
	Diagnostics      []expectedDiag      `json:"diagnostics"`
	Build            string              `json:"build"`
	BuildDiagnostics []expectedDiag      `json:"build_diagnostics"`
	Assertions       []expectedAssertion `json:"assertions"`
}

func subjectString(r *hcl.Range) string {
	if r == nil {
		return ""
	}
	return fmt.Sprintf("%s:%d,%d-%d,%d", r.Filename, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column)
}

func diagsForCompare(diags hcl.Diagnostics) []expectedDiag {
	out := []expectedDiag{}
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		out = append(out, expectedDiag{Severity: sev, Summary: d.Summary, Detail: d.Detail, Subject: subjectString(d.Subject)})
	}
	return out
}

func summaries(diags hcl.Diagnostics, sev hcl.DiagnosticSeverity) []string {
	out := []string{}
	for _, d := range diags {
		if d.Severity == sev {
			out = append(out, d.Summary)
		}
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func TestConformanceConfig(t *testing.T) {
	root := conformance.Dir(t, "config")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var fixtures, assertions, passedFixtures, passedAssertions int
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		fixtures++
		name := e.Name()
		raw, err := os.ReadFile(filepath.Join(root, name, "expected.json"))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var want expectedFixture
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		assertions += len(want.Assertions)
		var okAssertions int
		ok := t.Run(name, func(t *testing.T) {
			okAssertions = checkFixture(t, filepath.Join(root, name, "in"), want)
		})
		passedAssertions += okAssertions
		if ok {
			passedFixtures++
		}
	}
	t.Logf("conformance/config: %d/%d fixtures, %d/%d assertions passed", passedFixtures, fixtures, passedAssertions, assertions)
}

func checkFixture(t *testing.T, dir string, want expectedFixture) int {
	fsys := OSFileSystem{Root: dir}
	opts := []Option{WithFileSystem(fsys)}
	if want.TestsDir != "" {
		opts = append(opts, WithTestsDir(want.TestsDir))
	}
	m, diags := LoadDir(".", opts...)

	if diff := cmp.Diff(orEmpty(want.PrimaryFiles), orEmpty(m.Files.Primary)); diff != "" {
		t.Errorf("primary files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(orEmpty(want.OverrideFiles), orEmpty(m.Files.Override)); diff != "" {
		t.Errorf("override files (-want +got):\n%s", diff)
	}
	if want.TestsDir != "" {
		if diff := cmp.Diff(orEmpty(want.TestFiles), orEmpty(m.Files.TestKeys)); diff != "" {
			t.Errorf("test files (-want +got):\n%s", diff)
		}
	}
	if diff := cmp.Diff(orEmpty(want.Errors), summaries(diags, hcl.DiagError)); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(orEmpty(want.Warnings), summaries(diags, hcl.DiagWarning)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	wantDiags := want.Diagnostics
	if wantDiags == nil {
		wantDiags = []expectedDiag{}
	}
	if diff := cmp.Diff(wantDiags, diagsForCompare(diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}

	if !diags.HasErrors() {
		// The conformance fixtures were never initialised: local children come from disk.
		_, buildDiags := BuildTree(m, LocalFromDisk(NewManifestWalker(nil, "", WithFileSystem(fsys)), WithFileSystem(fsys)), WithFileSystem(fsys))
		wantBuild := want.BuildDiagnostics
		if wantBuild == nil {
			wantBuild = []expectedDiag{}
		}
		if diff := cmp.Diff(wantBuild, diagsForCompare(buildDiags)); diff != "" {
			t.Errorf("build diagnostics (-want +got):\n%s", diff)
		}
	} else if want.Build == "" {
		t.Errorf("root has errors but the tree was built by OpenTofu")
	}

	for name, f := range m.Document().Files {
		sourceFiles[name] = f.Bytes
	}
	passed := 0
	for _, a := range want.Assertions {
		if checkAssertion(t, m, a) {
			passed++
		}
	}
	return passed
}

func checkAssertion(t *testing.T, m *Module, a expectedAssertion) bool {
	t.Helper()
	got, err := evalAssertionPath(m, a.Path)
	if err != nil {
		t.Errorf("%s: %v", a.Path, err)
		return false
	}
	switch {
	case a.Absent != nil:
		if got.exists == *a.Absent {
			t.Errorf("%s: exists = %v, want absent = %v", a.Path, got.exists, *a.Absent)
			return false
		}
	case a.Src != nil:
		if got.expr == nil {
			t.Errorf("%s: no expression, want src %q", a.Path, *a.Src)
			return false
		}
		src, file := exprSource(got.expr), got.expr.Range().Filename
		if src != *a.Src || file != a.File {
			t.Errorf("%s: got src %q from %s, want %q from %s", a.Path, src, file, *a.Src, a.File)
			return false
		}
	case a.Value != nil:
		if !got.hasValue {
			t.Errorf("%s: no value, want %s", a.Path, a.Value)
			return false
		}
		var want any
		if err := json.Unmarshal(a.Value, &want); err != nil {
			t.Fatal(err)
		}
		gotJSON, _ := json.Marshal(got.value)
		var gotNorm any
		_ = json.Unmarshal(gotJSON, &gotNorm)
		if !reflect.DeepEqual(want, gotNorm) {
			t.Errorf("%s: got %s, want %s", a.Path, gotJSON, a.Value)
			return false
		}
	default:
		t.Errorf("%s: assertion without expectation", a.Path)
		return false
	}
	return true
}

var _ = sort.Strings
