package config

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// Option changes how a directory is loaded.
type Option func(*options)

type options struct {
	fsys        FileSystem
	testsDir    string
	tofuVersion string
	flavour     flavour.Flavour
	parallelism int
	static      staticOptions
	// noResourceConfig drops resources' configuration arguments after
	// loading (WithoutResourceConfig).
	noResourceConfig bool
	// rootValues reads the root module's variable values before building
	// the tree (WithRootVariableValues).
	rootValues bool
	parseCache *ParseCache // WithParseCache
}

// WithFileSystem reads files through fsys instead of the operating system.
func WithFileSystem(fsys FileSystem) Option { return func(o *options) { o.fsys = fsys } }

// WithTestsDir also discovers test files, in dir (relative to the module
// directory) and in the module directory itself. Test files are listed in
// Module.Files but are never loaded as configuration.
func WithTestsDir(dir string) Option { return func(o *options) { o.testsDir = dir } }

// WithTofuVersion sets the emulated OpenTofu (or, in the Terraform flavour,
// Terraform) version used for core version constraints and texts (default
// DefaultTofuVersion, or flavour.DefaultTerraformVersion for Terraform).
func WithTofuVersion(v string) Option { return func(o *options) { o.tofuVersion = v } }

// WithParallelism bounds how many files are parsed at once (default
// GOMAXPROCS).
func WithParallelism(n int) Option { return func(o *options) { o.parallelism = n } }

// WithoutResourceConfig drops each resource's configuration (its arguments
// and blocks other than meta-arguments: Resource.Config) once the module is
// loaded and its diagnostics reported, for callers that need requirements
// and diagnostics only. What the meta-arguments decode to (provider, count,
// for_each, depends_on, lifecycle, connection, provisioners) is kept.
// Module.Document then has no resource arguments: do not render it.
//
// The configuration is most of a large module's memory (the expressions
// of every resource argument): requirements.Load uses this.
func WithoutResourceConfig() Option { return func(o *options) { o.noResourceConfig = true } }

func newOptions(opts []Option) options {
	o := options{fsys: OSFileSystem{}, parallelism: runtime.GOMAXPROCS(0)}
	for _, opt := range opts {
		opt(&o)
	}
	if o.tofuVersion == "" {
		o.tofuVersion = DefaultTofuVersion
		if o.flavour == flavour.Terraform {
			o.tofuVersion = flavour.DefaultTerraformVersion
		}
	}
	if o.parallelism < 1 {
		o.parallelism = 1
	}
	return o
}

// LoadDir loads the module in dir as OpenTofu does. File names in ranges are
// dir joined with the file name, so load the root module as "." to get
// "main.tf". It always returns a module (possibly empty) with every
// diagnostic, in OpenTofu's order.
func LoadDir(dir string, opts ...Option) (*Module, hcl.Diagnostics) {
	o := newOptions(opts)
	files, diags := DiscoverFiles(o.fsys, dir, o.testsDir, o.flavour)
	m := newModule(dir)
	m.flavour = o.flavour
	m.Files = files
	m.static = newStaticEvaluator(m, o.static)
	m.deferInit = o.flavour == flavour.Terraform && (o.static.call != nil || o.rootValues)
	if diags.HasErrors() {
		return m, diags
	}
	names := append(append([]string{}, files.Primary...), files.Override...)
	decoded := loadFiles(o, names, len(files.Primary))
	var incompatible bool
	for _, f := range decoded {
		diags = append(diags, f.Diagnostics...)
		for _, d := range f.Diagnostics {
			if d.Summary == incompatibleModuleSummary {
				incompatible = true
			}
		}
	}
	diags = append(diags, m.assemble(decoded[:len(files.Primary)], decoded[len(files.Primary):])...)
	if len(files.Tests) > 0 {
		tests, dropped, testDiags := loadTestFiles(o, files)
		m.Tests, m.droppedTests = tests, dropped
		diags = append(diags, testDiags...)
		if o.flavour == flavour.Terraform {
			diags = append(diags, loadTerraformMockData(o.fsys, tests)...)
		}
	}
	if incompatible {
		diags = onlyIncompatible(diags)
	}
	if o.flavour == flavour.Terraform {
		m.coreConstraints = terraformModuleConstraints(decoded, len(files.Primary))
	}
	if o.noResourceConfig {
		m.dropResourceConfig()
	}
	return m, diags
}

// onlyIncompatible keeps the Incompatible module errors only (§4).
func onlyIncompatible(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Summary == incompatibleModuleSummary {
			out = append(out, d)
		}
	}
	return out
}

// loadFiles reads, parses and decodes files on a bounded pool of workers;
// the result is in the order of names whatever the scheduling.
func loadFiles(o options, names []string, numPrimary int) []*File {
	out := make([]*File, len(names))
	jobs := make(chan int)
	var wg sync.WaitGroup
	workers := min(o.parallelism, len(names))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i] = loadFile(o, names[i], i >= numPrimary)
				out[i].Index = i
			}
		}()
	}
	for i := range names {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return out
}

func loadFile(o options, name string, override bool) *File {
	src, err := o.fsys.ReadFile(name)
	if tooLarge := (*FileTooLargeError)(nil); errors.As(err, &tooLarge) {
		return &File{Name: name, Override: override, Diagnostics: hcl.Diagnostics{tooLarge.Diagnostic()}}
	}
	if err != nil {
		return &File{Name: name, Override: override, Diagnostics: hcl.Diagnostics{readFailure(name, err)}}
	}
	return parseAndDecode(name, src, override, o.core(), o.parseCache)
}

// parseAndDecode never panics: a panic inside the HCL library on hostile
// input becomes an error diagnostic for that file.
func parseAndDecode(name string, src []byte, override bool, core coreVersion, cache *ParseCache) (file *File) {
	defer func() {
		if r := recover(); r != nil {
			file = &File{Name: name, Override: override, Diagnostics: hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Failed to decode file",
				Detail:   fmt.Sprintf("The file %q could not be decoded: internal error: %v.", name, r),
			}}}
		}
	}()
	hf, parseDiags := cache.parse(name, src)
	if core.flavour == flavour.Terraform {
		markSyntax(parseDiags)
	}
	file = decodeFile(hf, name, override, core)
	if core.flavour == flavour.Terraform && hf != nil && hf.Body != nil {
		// Terraform reads required_version from every file; take it before
		// the parsed body is let go.
		file.coreConstraints, _ = terraformCoreConstraints(hf.Body)
	}
	file.HCL = sourceOnly(hf, name)
	file.Diagnostics = append(parseDiags, file.Diagnostics...)
	return file
}
