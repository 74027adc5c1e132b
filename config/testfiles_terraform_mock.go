package config

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Terraform's mock data (internal/configs/mock_provider.go): the
// mock_resource, mock_data and override blocks of a mock_provider block
// and of the .tfmock.hcl and .tfmock.json files in the directory its
// source names.

// mockData is what one body of mock data declares, in source order.
type mockData struct {
	resources, dataSources []mockEntry
	overrides              []mockEntry
}

// mockEntry is a mocked type (or an override target), the range of its
// label (or block) for diagnostics, and its block's header.
type mockEntry struct {
	key       string
	subject   hcl.Range
	declRange hcl.Range
}

// mockSource is a mock_provider's source: a directory relative to the
// working directory.
type mockSource struct {
	dir  string
	decl hcl.Range
}

// decodeTerraformMockData reads a body of mock data.
func decodeTerraformMockData(body hcl.Body) (*mockData, hcl.Diagnostics) {
	data := &mockData{}
	content, diags := bodyContent(body, terraformMockDataSchema)
	if content == nil {
		return data, diags
	}
	mocks := map[string]hcl.Range{}
	overrides := overrideSet{}
	for _, b := range content.Blocks {
		if b.Type != "mock_resource" && b.Type != "mock_data" {
			o, d := decodeTerraformOverride(b)
			d = overrides.add(o, d)
			diags = append(diags, d...)
			if o.target != "" && !d.HasErrors() {
				data.overrides = append(data.overrides, mockEntry{key: o.target, subject: o.rng, declRange: o.rng})
			}
			continue
		}
		c, d := bodyContent(b.Body, terraformMockResourceSchema)
		diags = append(diags, d...)
		if c != nil {
			diags = append(diags, checkOverrideDuring(c)...)
		}
		key := b.Type + "." + b.Labels[0]
		if prev, ok := mocks[key]; ok {
			diags = append(diags, errorDiag(fmt.Sprintf("Duplicate %s block", b.Type), fmt.Sprintf("A %s block for %s has already been defined at %s.", b.Type, b.Labels[0], prev), b.LabelRanges[0].Ptr()))
			continue
		}
		mocks[key] = b.DefRange
		e := mockEntry{key: b.Labels[0], subject: b.LabelRanges[0], declRange: b.DefRange}
		if b.Type == "mock_resource" {
			data.resources = append(data.resources, e)
		} else {
			data.dataSources = append(data.dataSources, e)
		}
	}
	return data, diags
}

// merge adds other's entries to d, reporting those d already has, as
// Terraform merges the files of a mock data directory.
func (d *mockData) merge(other *mockData) hcl.Diagnostics {
	var diags hcl.Diagnostics
	d.resources, diags = mergeMocks(d.resources, other.resources, diags, func(e, cur mockEntry) *hcl.Diagnostic {
		return errorDiag("Duplicate mock resource block", fmt.Sprintf("A mock_resource %q block already exists at %s.", e.key, cur.declRange), e.subject.Ptr())
	})
	d.dataSources, diags = mergeMocks(d.dataSources, other.dataSources, diags, func(e, cur mockEntry) *hcl.Diagnostic {
		return errorDiag("Duplicate mock resource block", fmt.Sprintf("A mock_data %q block already exists at %s.", e.key, cur.declRange), e.subject.Ptr())
	})
	d.overrides, diags = mergeMocks(d.overrides, other.overrides, diags, func(e, cur mockEntry) *hcl.Diagnostic {
		return errorDiag("Duplicate override block", fmt.Sprintf("An override block for %s already exists at %s.", e.key, cur.declRange), e.subject.Ptr())
	})
	return diags
}

func mergeMocks(have, add []mockEntry, diags hcl.Diagnostics, dup func(e, cur mockEntry) *hcl.Diagnostic) ([]mockEntry, hcl.Diagnostics) {
	for _, e := range add {
		found := false
		for _, cur := range have {
			if cur.key == e.key {
				diags = append(diags, dup(e, cur))
				found = true
				break
			}
		}
		if !found {
			have = append(have, e)
		}
	}
	return have, diags
}

// loadTerraformMockData reads the mock data directories of the test files'
// mock providers. Terraform reads them once the configuration is built
// (its module installer's last step), which some commands skip after
// errors: its diagnostics are marked (IsMockDataDiagnostic) for the
// caller to drop them then.
func loadTerraformMockData(fsys FileSystem, tests map[string]*TestFile) (diags hcl.Diagnostics) {
	defer func() {
		for _, d := range diags {
			d.Extra = mockDataDiagnostic{}
		}
	}()
	names := make([]string, 0, len(tests))
	for n := range tests {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		tf := tests[n]
		for _, src := range tf.mockSources {
			diags = append(diags, tf.loadMockDir(fsys, src)...)
		}
	}
	return diags
}

func (tf *TestFile) loadMockDir(fsys FileSystem, src mockSource) hcl.Diagnostics {
	entries, err := fsys.ReadDir(src.dir)
	if err != nil {
		return hcl.Diagnostics{errorDiag("Failed to read mock data directory", fmt.Sprintf("Mock data directory %s does not exist or cannot be read.", src.dir), src.decl.Ptr())}
	}
	var diags hcl.Diagnostics
	var data *mockData
	for _, e := range sortedNames(entries) {
		if !(strings.HasSuffix(e, ".tfmock.hcl") || strings.HasSuffix(e, ".tfmock.json")) {
			continue
		}
		p := filepath.Join(src.dir, e)
		b, err := fsys.ReadFile(p)
		if err != nil {
			diags = append(diags, readFailure(p, err))
			continue
		}
		f, d := parseFile(p, b)
		diags = append(diags, d...)
		if f == nil || f.Body == nil {
			continue
		}
		if tf.mockFiles == nil {
			tf.mockFiles = map[string]*hcl.File{}
		}
		tf.mockFiles[p] = f
		current, d := decodeTerraformMockData(f.Body)
		diags = append(diags, d...)
		if data == nil {
			data = current
			continue
		}
		diags = append(diags, data.merge(current)...)
	}
	return diags
}

// mockDataDiagnostic marks the diagnostics of reading mock data.
type mockDataDiagnostic struct{}

// IsMockDataDiagnostic reports whether d comes from reading a Terraform
// mock data directory (which terraform init does only when it installs
// modules or the configuration has no other error).
func IsMockDataDiagnostic(d *hcl.Diagnostic) bool {
	_, ok := d.Extra.(mockDataDiagnostic)
	return ok
}
