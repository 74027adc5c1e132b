package config

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// TestFile is what the loader reads from a test file (.tftest.hcl,
// .tofutest.hcl and their JSON forms): the provider blocks and run blocks
// that matter for provider requirements (providers.md §5 step 5). Test
// files are never part of the module's configuration.
type TestFile struct {
	Name      string
	Providers []*ProviderConfig
	Runs      []*TestRun
	// HCL is the parsed file (for source snippets in diagnostics).
	HCL *hcl.File

	mockSources []mockSource // Terraform only
	dropped     bool         // Terraform drops the file
	// mockFiles are the mock data files read (for source snippets).
	mockFiles map[string]*hcl.File
}

// TestRun is a run block; ModuleSource is its module { source } ("" when
// the run tests the module under test itself).
type TestRun struct {
	Name         string
	ModuleSource string
	DeclRange    hcl.Range
	// ModuleRange is the header of the run's module block (zero without one).
	ModuleRange hcl.Range
	// ModuleHasVersion is set when the module block has a version
	// argument (its source is then a registry address); ModuleVersion is
	// the constraint ("" when it does not parse: no constraint).
	ModuleHasVersion bool
	ModuleVersion    string
	// ModuleSourceRange is the module block's source argument.
	ModuleSourceRange hcl.Range
	// Providers is the run's providers map (nil without one).
	Providers []PassedProviderConfig

	// moduleSourceAddr is the canonical module source (Terraform only).
	moduleSourceAddr string
	// tf is what Terraform's file-level checks need (Terraform only).
	tf *terraformRun
}

// loadTestFiles reads and decodes the discovered test files, with the
// diagnostics OpenTofu reports while loading them.
// Files Terraform drops (an invalid "test" block) are returned apart, for
// source snippets only.
func loadTestFiles(o options, files Files) (map[string]*TestFile, map[string]*hcl.File, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	out := map[string]*TestFile{}
	dropped := map[string]*hcl.File{}
	for i, name := range files.Tests {
		src, err := o.fsys.ReadFile(name)
		if err != nil {
			diags = append(diags, readFailure(name, err))
			continue
		}
		tf, tfDiags := decodeTestFile(name, src, o.flavour)
		diags = append(diags, tfDiags...)
		switch {
		case tf.dropped:
			if tf.HCL != nil {
				dropped[name] = tf.HCL
			}
		default:
			out[files.TestKeys[i]] = tf
		}
	}
	return out, dropped, diags
}

// decodeTestFile reads one test file as flavour f does; the result is
// marked dropped when Terraform drops the file (an invalid "test" block).
func decodeTestFile(name string, src []byte, fl flavour.Flavour) (tf *TestFile, diags hcl.Diagnostics) {
	tf = &TestFile{Name: name}
	defer func() {
		if r := recover(); r != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Failed to decode file",
				Detail:   fmt.Sprintf("The file %q could not be decoded: internal error: %v.", name, r),
			})
		}
	}()
	file, diags := parseFile(name, src)
	tf.HCL = file
	if file == nil || file.Body == nil {
		return tf, diags
	}
	if fl == flavour.Terraform {
		keep, d := tf.decodeTerraform(file.Body)
		tf.dropped = !keep
		return tf, append(diags, d...)
	}
	return tf, append(diags, tf.decode(file.Body)...)
}

// TestFileNames returns the keys of m.Tests in order.
func (m *Module) TestFileNames() []string {
	names := make([]string, 0, len(m.Tests))
	for n := range m.Tests {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// TestRunModulePath is the module path under which OpenTofu installs the
// module of run block run in test file file (modules.md §5.1): "test", the
// file's path relative to the root split at "/" with ".tftest.hcl" removed
// (only that suffix, as OpenTofu does), then the run's name. Joined with
// "." it is the run module's key in modules.json.
func TestRunModulePath(file, run string) []string {
	parts := strings.Split(strings.TrimSuffix(filepath.ToSlash(file), ".tftest.hcl"), "/")
	return append(append([]string{"test"}, parts...), run)
}

// TestRunCall is the module call of a run block's module block, as the
// module installer and loader see it: the source parsed (a registry
// address when the block has a version argument), the version constraint,
// the module block as its range. The error is the source's parse error.
func TestRunCall(run *TestRun, f flavour.Flavour) (*ModuleCall, error) {
	src, err := parseCallSource(run.ModuleSource, run.ModuleHasVersion, f)
	if err != nil {
		return nil, err
	}
	return &ModuleCall{Name: run.Name, SourceSet: true, SourceAddr: src.String(), Source: src,
		SourceAddrRange: run.ModuleSourceRange, DeclRange: run.ModuleRange,
		HasVersion: run.ModuleHasVersion, Version: run.ModuleVersion}, nil
}
