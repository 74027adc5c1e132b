package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// DefaultTestsDir is the test directory OpenTofu's init and test commands
// scan when no other is given; a missing default directory is not reported.
const DefaultTestsDir = "tests"

// Files lists the files of one module directory in load order. Paths are the
// directory joined with the file name, as they appear in diagnostics.
type Files struct {
	// Primary files, sorted by name in byte order, after .tofu precedence.
	Primary []string
	// Override files, in the order they are applied.
	Override []string
	// Tests are the test files (only when requested), as paths joined with
	// the module directory; TestKeys holds the same files relative to it.
	Tests    []string
	TestKeys []string
}

// Empty reports whether the directory holds no configuration file at all
// (test files do not count).
func (f Files) Empty() bool { return len(f.Primary) == 0 && len(f.Override) == 0 }

type fileKind int

const (
	kindNone fileKind = iota
	kindConfig
	kindTest
)

// configSuffixes are tested in order: the .tf family first, then .tofu.
var configSuffixes = []struct {
	suffix string
	kind   fileKind
}{
	{".tf", kindConfig},
	{".tf.json", kindConfig},
	{".tftest.hcl", kindTest},
	{".tftest.json", kindTest},
	{".tofu", kindConfig},
	{".tofu.json", kindConfig},
	{".tofutest.hcl", kindTest},
	{".tofutest.json", kindTest},
}

// tofuParallel maps each .tf-family extension to the .tofu one that shadows it.
var tofuParallel = map[string]string{
	".tf":          ".tofu",
	".tf.json":     ".tofu.json",
	".tftest.hcl":  ".tofutest.hcl",
	".tftest.json": ".tofutest.json",
}

// fileExt returns the recognised extension of name and its kind.
func fileExt(name string) (string, fileKind) {
	for _, s := range configSuffixes {
		if strings.HasSuffix(name, s.suffix) {
			return s.suffix, s.kind
		}
	}
	return "", kindNone
}

// IsIgnoredFile reports whether OpenTofu ignores a directory entry by name:
// hidden files, editor backups (~) and emacs lock/autosave files (#...#).
func IsIgnoredFile(name string) bool {
	return strings.HasPrefix(name, ".") ||
		strings.HasSuffix(name, "~") ||
		(strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"))
}

// IsOverrideFile reports whether a configuration file name (not a path) is
// an override file: base name "override" or ending in "_override".
func IsOverrideFile(name string) bool {
	ext, kind := fileExt(name)
	if kind != kindConfig {
		return false
	}
	base := strings.TrimSuffix(filepath.Base(name), ext)
	return base == "override" || strings.HasSuffix(base, "_override")
}

// DiscoverFiles lists the configuration files of dir as OpenTofu does
// (config-loading.md §1), or as Terraform does for flavour.Terraform (no
// .tofu family). testsDir is "" when test files are not wanted.
func DiscoverFiles(fsys FileSystem, dir, testsDir string, f flavour.Flavour) (Files, hcl.Diagnostics) {
	var files Files
	var diags hcl.Diagnostics
	if testsDir != "" {
		tests, keys, tDiags, fatal := discoverTests(fsys, dir, testsDir, f)
		diags = append(diags, tDiags...)
		if fatal {
			return files, diags
		}
		files.Tests, files.TestKeys = tests, keys
	}
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Failed to read module directory",
			Detail:   fmt.Sprintf("Module directory %s does not exist or cannot be read.", dir),
		})
		return files, diags
	}
	for _, name := range sortedNames(entries) {
		_, kind := flavourExt(f, name)
		if kind != kindConfig {
			continue
		}
		p := filepath.Join(dir, name)
		if IsOverrideFile(name) {
			files.Override = append(files.Override, p)
		} else {
			files.Primary = append(files.Primary, p)
		}
	}
	files.Primary = applyTofuPrecedence(files.Primary)
	files.Override = applyTofuPrecedence(files.Override)
	if diag := checkFileCount(dir, files); diag != nil {
		return Files{}, append(diags, diag)
	}
	return files, diags
}

// sortedNames returns the names of the non-directory, non-ignored entries
// in byte order.
func sortedNames(entries []fs.DirEntry) []string {
	var names []string
	for _, e := range entries {
		if e.IsDir() || IsIgnoredFile(e.Name()) {
			continue
		}
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func discoverTests(fsys FileSystem, dir, testsDir string, f flavour.Flavour) (paths, keys []string, diags hcl.Diagnostics, fatal bool) {
	testPath := filepath.Join(dir, testsDir)
	var all []string
	entries, err := fsys.ReadDir(testPath)
	switch {
	case err == nil:
		for _, name := range sortedNames(entries) {
			if _, kind := flavourExt(f, name); kind == kindTest {
				all = append(all, filepath.Join(testPath, name))
			}
		}
	case errors.Is(err, fs.ErrNotExist):
		if testsDir != DefaultTestsDir {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Test directory does not exist",
				Detail:   fmt.Sprintf("Requested test directory %s does not exist.", path.Join(dir, testsDir)),
			})
		}
	default:
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Failed to read test directory",
			Detail:   fmt.Sprintf("Test directory %s could not be read: %v.", testPath, err),
		})
		return nil, nil, diags, true
	}
	if entries, err := fsys.ReadDir(dir); err == nil {
		for _, name := range sortedNames(entries) {
			if _, kind := flavourExt(f, name); kind == kindTest {
				all = append(all, filepath.Join(dir, name))
			}
		}
	}
	for _, p := range applyTofuPrecedence(all) {
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Failed to calculate relative path",
				Detail:   fmt.Sprintf("%s could not calculate the relative path for test file %s and it has been skipped: %s", f.Product(), p, err),
			})
			continue
		}
		paths = append(paths, p)
		keys = append(keys, filepath.ToSlash(rel))
	}
	return paths, keys, diags, false
}

// applyTofuPrecedence drops every .tf-family path whose exact .tofu-family
// parallel is also in the list.
func applyTofuPrecedence(paths []string) []string {
	present := make(map[string]bool, len(paths))
	for _, p := range paths {
		present[p] = true
	}
	out := paths[:0:0]
	for _, p := range paths {
		ext, _ := fileExt(p)
		if alt, ok := tofuParallel[ext]; ok && present[strings.TrimSuffix(p, ext)+alt] {
			continue
		}
		out = append(out, p)
	}
	return out
}
