package upgrade

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/regfile"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/moduleaddr"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
	"github.com/tfdeps/tfdeps/requirements"
	"github.com/tfdeps/tfdeps/versions"
	"github.com/tfdeps/tfdeps/workdir"
)

var errNoSource = errors.New("no source of versions")

// Options say which root module Outdated reads and how.
type Options struct {
	// Dir is the root module's directory ("": the current one); its
	// files, lock file and installed modules are read there.
	Dir string
	// Flavour is the emulated product (default host of addresses, lock
	// file rules); Version its emulated version ("": the default).
	Flavour flavour.Flavour
	Version string
	// Config are more loader options (variable values, a shared parse
	// cache); Outdated adds the file system, working directory, flavour
	// and version.
	Config []config.Option
	// DataDir is TF_DATA_DIR, relative to Dir ("": .terraform).
	DataDir string
	// Versions answers the versions questions (shared by the roots of a
	// run). Required.
	Versions *Versions
	// Parallelism bounds the questions asked at once (0: 8).
	Parallelism int
	// Workdir are the options of the installation an upgrade runs
	// (registry clients, caches, CLI configuration); Apply sets its Dir,
	// Flavour, Version and Upgrade.
	Workdir workdir.Options
}

// Report is what Outdated found in one root module.
type Report struct {
	// Providers are the providers the installed module tree requires
	// (built-in ones left out), in address order.
	Providers []*Provider
	// Modules are the module calls of the installed tree, in path order.
	Modules []*Module
	// Notes are remarks that are not errors (e.g. a lock file written
	// by the other product).
	Notes []string

	opts  Options
	reqs  *requirements.Result
	locks *lockfile.Locks
}

// Provider is one required provider.
type Provider struct {
	Provider addrs.Provider
	// Constraints are the combined constraints of the whole tree.
	Constraints versions.Constraints
	// Locked is the lock file's selection, NewestAllowed the newest
	// version Constraints allow, Newest the newest available (a
	// prerelease only when the locked version is one); nil when there is
	// none (or the question failed: Err).
	Locked, NewestAllowed, Newest *versions.Version
	// RequiredBy are the modules that require it ("" for the root;
	// module.a.module.b), each once, in order.
	RequiredBy []string
	Warnings   []string
	Err        error

	available versions.List
	sources   []requirements.Source
}

// Module is one module call.
type Module struct {
	// Path is module.a.module.b; Key the manifest's key (a.b).
	Path, Key string
	// Source is the call's source address (canonical form for registry
	// sources), Registry whether it is a registry source.
	Source   string
	Registry bool
	// Constraints is the call's version argument as written ("" when
	// none), Installed the version modules.json records ("" when none).
	Constraints, Installed string
	// NewestAllowed and Newest are registry modules' ("" when unknown).
	NewestAllowed, Newest string
	Err                   error

	call   *config.ModuleCall
	pkg    moduleaddr.Registry
	listed []string
}

// Outdated reads the root module in opts.Dir, its installed module tree
// (.terraform/modules/modules.json) and its lock file, and asks the
// versions of every required provider and every registry module once.
// Nothing is downloaded or written. The diagnostics hold the loading
// errors (the report is then nil) and, as errors, the questions that
// failed (the report is still returned; the failed entries carry Err).
func Outdated(ctx context.Context, opts Options) (*Report, hcl.Diagnostics) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	version := opts.Version
	if version == "" {
		version = opts.Flavour.DefaultVersion()
	}
	if workdir.IsEmptyDir(dir, opts.Flavour) {
		abs, _ := filepath.Abs(dir)
		return nil, hcl.Diagnostics{errorDiag("No configuration files", fmt.Sprintf("The directory %s contains no %s configuration files.", abs, opts.Flavour.Product()))}
	}
	cfg := append([]config.Option{
		config.WithFileSystem(config.OSFileSystem{Root: opts.Dir}), config.WithWorkingDir(opts.Dir),
		config.WithTofuVersion(version), config.WithFlavour(opts.Flavour),
	}, opts.Config...)
	res, diags := requirements.Load(".", requirements.Options{Config: cfg})
	if res == nil || diags.HasErrors() {
		return nil, diags
	}
	r := &Report{opts: opts, reqs: res}
	r.opts.Version = version
	locks, lockDiags := r.readLocks(dir)
	if lockDiags.HasErrors() {
		return nil, append(diags, lockDiags...)
	}
	r.locks = locks
	r.collectProviders()
	modDiags := r.collectModules(dir)
	diags = append(diags, modDiags...)
	if diags.HasErrors() {
		return nil, diags
	}
	r.ask(ctx)
	return r, append(diags, r.failures()...)
}

// readLocks reads the lock file as the flavour does (OpenTofu moves
// registry.terraform.io entries to its own registry), noting one written
// by the other product.
func (r *Report) readLocks(dir string) (*lockfile.Locks, hcl.Diagnostics) {
	if other := OtherFlavourLockFile(dir, r.opts.Flavour); other != "" {
		r.Notes = append(r.Notes, other)
	}
	locks, _, diags := lockfile.ReadFile(lockFileName, lockfile.ReadOptions{Flavour: r.opts.Flavour, TofuVersion: r.opts.Version, Dir: r.opts.Dir})
	if diags.HasErrors() {
		return nil, diags
	}
	if r.opts.Flavour != flavour.Terraform {
		locks.MigrateTerraformRegistry()
	}
	return locks, nil
}

const lockFileName = ".terraform.lock.hcl"

// OtherFlavourLockFile is a sentence when the lock file in dir was
// written by the product f does not emulate ("" otherwise, also without
// a lock file).
func OtherFlavourLockFile(dir string, f flavour.Flavour) string {
	file, err := regfile.Open(filepath.Join(dir, lockFileName))
	if err != nil {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(file, 256)) // the first line is enough
	file.Close()
	line, _, _ := strings.Cut(string(b), "\n")
	line = strings.TrimRight(line, "\r") + "\n" // as HeaderLine ends
	other := flavour.OpenTofu
	if f != flavour.Terraform {
		other = flavour.Terraform
	}
	if line == lockfile.HeaderLine(f) || line != lockfile.HeaderLine(other) {
		return ""
	}
	return fmt.Sprintf("%s was written by %q, and tfdeps emulates %s here: its selections are read as %s reads them (-compat=%s to emulate %s)",
		lockFileName, other.Command()+" init", f.Product(), f.Product(), other.String(), other.Product())
}

func (r *Report) collectProviders() {
	for _, p := range r.reqs.Sorted() {
		if p.IsBuiltIn() {
			continue
		}
		e := &Provider{Provider: p, Constraints: r.reqs.Providers[p], sources: r.reqs.Sources[p]}
		if l := r.locks.Provider(p); l != nil {
			v := l.Version()
			e.Locked = &v
		}
		seen := map[string]bool{}
		for _, s := range e.sources {
			if !seen[s.Module] {
				seen[s.Module] = true
				e.RequiredBy = append(e.RequiredBy, s.Module)
			}
		}
		r.Providers = append(r.Providers, e)
	}
}

// manifestPath is the module manifest of the root module in dir.
func (r *Report) manifestPath(dir string) string {
	dataDir := r.opts.DataDir
	if dataDir == "" {
		dataDir = ".terraform"
	}
	if !filepath.IsAbs(dataDir) {
		dataDir = filepath.Join(dir, dataDir)
	}
	return filepath.Join(dataDir, "modules", manifest.FileName)
}

func (r *Report) collectModules(dir string) hcl.Diagnostics {
	man, err := manifest.Read(r.manifestPath(dir))
	if err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to read module manifest", Detail: err.Error()}}
	}
	r.reqs.Tree.Walk(func(t *config.Tree) {
		if t.Call == nil {
			return
		}
		m := &Module{Path: t.PathString(), Key: strings.Join(t.Path, "."), Source: t.SourceAddr, call: t.Call, Installed: man[strings.Join(t.Path, ".")].Version}
		if t.Call.Source != nil {
			m.Source = t.Call.Source.String()
		}
		if reg, ok := t.Call.Source.(moduleaddr.Registry); ok {
			m.Registry, m.pkg = true, reg
			m.Constraints = t.Call.Version
		}
		r.Modules = append(r.Modules, m)
	})
	sort.Slice(r.Modules, func(i, j int) bool { return r.Modules[i].Key < r.Modules[j].Key })
	return nil
}

// ask asks every question at once (bounded) and fills the answers in.
func (r *Report) ask(ctx context.Context) {
	n := r.opts.Parallelism
	if n <= 0 {
		n = 8
	}
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	run := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			f()
		}()
	}
	for _, p := range r.Providers {
		run(func() { p.answer(r.opts.Versions.Provider(ctx, p.Provider)) })
	}
	for _, m := range r.Modules {
		if m.Registry {
			run(func() { m.answer(r.opts.Versions.Module(ctx, m.pkg)) })
		}
	}
	wg.Wait()
}

func (p *Provider) answer(list versions.List, warnings []string, err error) {
	p.Warnings, p.Err = warnings, err
	if err != nil {
		return
	}
	p.available = list
	if v, err := versions.SelectNewest(list, p.Constraints); err == nil {
		p.NewestAllowed = &v
	}
	prerelease := p.Locked != nil && p.Locked.IsPrerelease()
	for _, v := range list {
		if v.IsPrerelease() && !prerelease {
			continue
		}
		if p.Newest == nil || p.Newest.LessThan(v) {
			v := v
			p.Newest = &v
		}
	}
}

func (m *Module) answer(listed []string, err error) {
	if err != nil {
		m.Err = err
		return
	}
	m.listed = listed
	chosen, newest, _, err := moduleaddr.SelectVersion(listed, m.Constraints)
	var nm *moduleaddr.NoMatchError
	if err != nil && !errors.As(err, &nm) && !errors.Is(err, moduleaddr.ErrNoVersions) {
		m.Err = err
		return
	}
	m.NewestAllowed, m.Newest = chosen, newest
	if isPrerelease(m.Installed) {
		// The newest may be a prerelease when the installed one is.
		if _, n, _, err := moduleaddr.SelectVersion(listed, m.Installed); err == nil || errors.As(err, &nm) {
			if v, e1 := versions.ParseVersion(n); e1 == nil {
				if w, e2 := versions.ParseVersion(newest); e2 != nil || w.LessThan(v) {
					m.Newest = n
				}
			}
		}
	}
}

func isPrerelease(v string) bool {
	pv, err := versions.ParseVersion(v)
	return err == nil && pv.IsPrerelease()
}

// failures are the failed questions as error diagnostics, and the
// registries' warnings.
func (r *Report) failures() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, p := range r.Providers {
		if len(p.Warnings) > 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Additional provider information from registry",
				Detail: fmt.Sprintf("The remote registry returned warnings for %s:\n- %s", p.Provider.String(), strings.Join(p.Warnings, "\n- "))})
		}
		if p.Err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to query available provider packages",
				Detail: fmt.Sprintf("Could not retrieve the list of available versions for provider %s: %s", p.Provider.ForDisplayIn(r.opts.Flavour), p.Err)})
		}
	}
	for _, m := range r.Modules {
		if m.Err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to list module versions",
				Detail: fmt.Sprintf("Could not list the versions of %s for %s: %s", m.Source, m.Path, m.Err)})
		}
	}
	return diags
}

// Outdated reports whether anything newer exists: a provider without a
// selection or whose newest version is not the one locked, a registry
// module not installed or whose newest version is not the one installed.
func (r *Report) Outdated() bool {
	for _, p := range r.Providers {
		if p.Newest != nil && (p.Locked == nil || !p.Locked.Same(*p.Newest)) {
			return true
		}
	}
	for _, m := range r.Modules {
		if m.Registry && m.Newest != "" && m.Installed != m.Newest {
			return true
		}
	}
	return false
}

// SourceForDisplayIn is the call's source as people read it: a registry
// source without flavour f's default host.
func (m *Module) SourceForDisplayIn(f flavour.Flavour) string {
	if m.Registry && m.pkg.Host == f.DefaultHost() {
		return strings.TrimPrefix(m.Source, m.pkg.Host.ForDisplay()+"/")
	}
	if m.call != nil && m.call.Source != nil {
		return m.call.Source.ForDisplay()
	}
	return m.Source
}
