package modules

import (
	"context"
	"errors"
	"fmt"
	"sync"

	version "github.com/hashicorp/go-version"
	tfaddr "github.com/opentofu/registry-address/v2"
)

// Registry is what the installer needs of the module registry protocol
// (modules.md §3). The CLI adapts internal/registry's client to it.
type Registry interface {
	// ModuleVersions lists the version strings of the first module in
	// the versions answer; ErrModuleNotFound for a 404, ErrNoModules for
	// an empty list.
	ModuleVersions(ctx context.Context, pkg tfaddr.ModulePackage) ([]string, error)
	// ModuleLocation asks where version v of pkg is.
	ModuleLocation(ctx context.Context, pkg tfaddr.ModulePackage, v string) (Location, error)
	// DownloadDirect fetches a registry-hosted archive (a direct location)
	// and extracts it into dir.
	DownloadDirect(ctx context.Context, loc Location, dir string) error
}

// Errors a Registry returns for the answers the installer reports in
// their own words.
var (
	ErrModuleNotFound = errors.New("module not found")
	ErrNoModules      = errors.New("registry returned no modules")
)

// Location is a registry's answer to a download request: an indirect
// go-getter address (Package with Subdir) or a direct archive URL.
type Location struct {
	Direct         bool
	Package        string // indirect: normalised package address; direct: archive URL
	Subdir         string // indirect only
	UseCredentials bool
	// Module and Version say which module it is for (the M5 text).
	Module  tfaddr.ModulePackage
	Version string
}

// Label is how M5 prints the location (the Go struct form, modules.md
// §8.2; the direct form is tfdeps' documented deviation).
func (l Location) Label() string {
	if !l.Direct {
		return fmt.Sprintf("{%q}", joinSubdir(l.Package, l.Subdir))
	}
	m := l.Module
	return fmt.Sprintf("{{%q %q %q %q} %q %q %t}", m.Host.ForDisplay(), m.Namespace, m.Name, m.TargetSystem, "", l.Package, l.UseCredentials)
}

// resolver memoises registry answers for one run: versions once per
// package, locations once per (package, version); both the prefetcher
// and the walk go through it, so each is requested once.
type resolver struct {
	reg Registry

	mu        sync.Mutex
	versions  map[tfaddr.ModulePackage]*onceResult[[]string]
	locations map[string]*onceResult[Location]
}

type onceResult[T any] struct {
	once sync.Once
	val  T
	err  error
}

func newResolver(reg Registry) *resolver {
	return &resolver{reg: reg, versions: map[tfaddr.ModulePackage]*onceResult[[]string]{}, locations: map[string]*onceResult[Location]{}}
}

func (r *resolver) Versions(ctx context.Context, pkg tfaddr.ModulePackage) ([]string, error) {
	r.mu.Lock()
	o := r.versions[pkg]
	if o == nil {
		o = &onceResult[[]string]{}
		r.versions[pkg] = o
	}
	r.mu.Unlock()
	o.once.Do(func() { o.val, o.err = r.reg.ModuleVersions(ctx, pkg) })
	return o.val, o.err
}

func (r *resolver) Location(ctx context.Context, pkg tfaddr.ModulePackage, v string) (Location, error) {
	k := pkg.String() + "@" + v
	r.mu.Lock()
	o := r.locations[k]
	if o == nil {
		o = &onceResult[Location]{}
		r.locations[k] = o
	}
	r.mu.Unlock()
	o.once.Do(func() { o.val, o.err = r.reg.ModuleLocation(ctx, pkg, v) })
	return o.val, o.err
}

// selection is the outcome of choosing a registry version.
type selection struct {
	match, newest *version.Version
	invalid       []string // unparseable version strings (warning M13)
}

// selectVersion applies modules.md §3.3 to the listed versions.
func selectVersion(listed []string, constraint string) selection {
	var s selection
	cons, _ := version.NewConstraint(constraint)
	for _, raw := range listed {
		v, err := version.NewVersion(raw)
		if err != nil {
			s.invalid = append(s.invalid, raw)
			continue
		}
		if v.Prerelease() != "" && !prereleaseAllowed(v, constraint) {
			continue
		}
		if s.newest == nil || v.GreaterThan(s.newest) {
			s.newest = v
		}
		if cons.Check(v) && (s.match == nil || v.GreaterThan(s.match)) {
			s.match = v
		}
	}
	return s
}
