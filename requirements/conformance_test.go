package requirements

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/internal/conformance"
)

// expectedTree is a requirements/NAME/expected.json file.
type expectedTree struct {
	Requirements           map[string]string            `json:"requirements"`
	RequirementsByModule   map[string]map[string]string `json:"requirements_by_module"`
	Modules                map[string]string            `json:"modules"`
	ExplicitProviders      []string                     `json:"explicit_providers"`
	ImplicitProviders      map[string][]string          `json:"implicit_providers"`
	Errors                 []string                     `json:"errors"`
	Warnings               []string                     `json:"warnings"`
	Diagnostics            []expectedDiag               `json:"diagnostics"`
	BuildDiagnostics       []expectedDiag               `json:"build_diagnostics"`
	RequirementsDiagnostic []expectedDiag               `json:"requirements_diagnostics"`
	Unordered              []string                     `json:"unordered"`
}

type expectedDiag struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	Subject  string `json:"subject"`
	OneOf    []struct {
		Subject string `json:"subject"`
		Detail  string `json:"detail"`
	} `json:"one_of"`
}

func TestConformance(t *testing.T) {
	dir := conformance.Dir(t, "requirements")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			runConformanceTree(t, filepath.Join(dir, e.Name()))
		})
	}
}

func runConformanceTree(t *testing.T, dir string) {
	src, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want expectedTree
	if err := json.Unmarshal(src, &want); err != nil {
		t.Fatal(err)
	}
	fsys := config.OSFileSystem{Root: filepath.Join(dir, "in")}
	// The trees were never initialised: local children are read from disk.
	opt := config.WithFileSystem(fsys)
	tree, rootDiags, loaderBuildDiags := config.LoadTreeWith(".", config.LocalFromDisk(config.NewManifestWalker(nil, ".", opt), opt), opt)
	buildDiags := append(loaderBuildDiags, withoutPredecessor(Check(tree))...)
	res, reqDiags := Collect(tree)

	if diff := cmp.Diff(want.Requirements, constraintStrings(res.Providers)); diff != "" {
		t.Errorf("requirements mismatch (-want +got):\n%s", diff)
	}
	gotByModule := map[string]map[string]string{}
	gotModules := map[string]string{}
	for _, m := range res.Modules() {
		gotByModule[m.Path] = constraintStrings(m.Providers)
		gotModules[m.Path] = filepath.ToSlash(m.Dir)
	}
	if diff := cmp.Diff(want.RequirementsByModule, gotByModule); diff != "" {
		t.Errorf("requirements_by_module mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want.Modules, gotModules); diff != "" {
		t.Errorf("modules mismatch (-want +got):\n%s", diff)
	}
	var gotExplicit []string
	for p := range res.Explicit {
		gotExplicit = append(gotExplicit, p.String())
	}
	slices.Sort(gotExplicit)
	if diff := cmp.Diff(want.ExplicitProviders, gotExplicit, cmpEmpty); diff != "" {
		t.Errorf("explicit_providers mismatch (-want +got):\n%s", diff)
	}
	gotImplicit := map[string][]string{}
	for p, refs := range res.Implicit {
		for _, r := range refs {
			gotImplicit[p.String()] = append(gotImplicit[p.String()], r.Address)
		}
		slices.Sort(gotImplicit[p.String()])
	}
	if diff := cmp.Diff(want.ImplicitProviders, gotImplicit); diff != "" {
		t.Errorf("implicit_providers mismatch (-want +got):\n%s", diff)
	}
	compareDiags(t, "diagnostics", want.Diagnostics, rootDiags, slices.Contains(want.Unordered, "diagnostics"))
	compareDiags(t, "build_diagnostics", want.BuildDiagnostics, buildDiags, slices.Contains(want.Unordered, "build_diagnostics"))
	compareDiags(t, "requirements_diagnostics", want.RequirementsDiagnostic, reqDiags, false)

	all := append(append(append(hcl.Diagnostics{}, rootDiags...), buildDiags...), reqDiags...)
	gotErrors, gotWarnings := summaries(all)
	if diff := cmp.Diff(want.Errors, gotErrors, cmpEmpty); diff != "" {
		t.Errorf("errors mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want.Warnings, gotWarnings, cmpEmpty); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
}

// cmpEmpty treats nil and empty slices alike.
var cmpEmpty = cmp.Transformer("nonNil", func(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
})

// withoutPredecessor drops tfdeps' own warning, which OpenTofu does not
// give (terraform-builtin has such an entry).
func withoutPredecessor(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Summary != SummaryPredecessorProvider {
			out = append(out, d)
		}
	}
	return out
}

func summaries(diags hcl.Diagnostics) (errs, warns []string) {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			errs = append(errs, d.Summary)
		} else {
			warns = append(warns, d.Summary)
		}
	}
	return errs, warns
}

// compareDiags matches got against want; an expected entry with one_of
// accepts any of its variants. Unordered lists are matched as sets.
func compareDiags(t *testing.T, what string, want []expectedDiag, got hcl.Diagnostics, unordered bool) {
	t.Helper()
	if len(want) != len(got) {
		t.Errorf("%s: got %d diagnostics, want %d:\n%s", what, len(got), len(want), describe(got))
		return
	}
	used := make([]bool, len(got))
	for i, w := range want {
		candidates := []int{i}
		if unordered {
			candidates = nil
			for j := range got {
				candidates = append(candidates, j)
			}
		}
		found := false
		for _, j := range candidates {
			if !used[j] && diagMatches(w, got[j]) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("%s: no match for expected %+v in:\n%s", what, w, describe(got))
		}
	}
}

func diagMatches(w expectedDiag, d *hcl.Diagnostic) bool {
	sev := "warning"
	if d.Severity == hcl.DiagError {
		sev = "error"
	}
	if sev != w.Severity || d.Summary != w.Summary {
		return false
	}
	if len(w.OneOf) == 0 {
		return d.Detail == w.Detail && subjectString(d) == w.Subject
	}
	for _, v := range w.OneOf {
		if d.Detail == v.Detail && subjectString(d) == v.Subject {
			return true
		}
	}
	return false
}

func subjectString(d *hcl.Diagnostic) string {
	if d.Subject == nil {
		return ""
	}
	s := d.Subject
	return fmt.Sprintf("%s:%d,%d-%d,%d", filepath.ToSlash(s.Filename), s.Start.Line, s.Start.Column, s.End.Line, s.End.Column)
}

func describe(diags hcl.Diagnostics) string {
	var out string
	for _, d := range diags {
		out += fmt.Sprintf("  %s | %s | %s\n", subjectString(d), d.Summary, d.Detail)
	}
	return out
}
