package upgrade

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/internal/regfile"
	"github.com/tfdeps/tfdeps/requirements"
	"github.com/tfdeps/tfdeps/versions"
)

// Mode says what an upgrade does with version constraints.
type Mode int

const (
	// KeepConstraints leaves every constraint as written: providers and
	// modules move to the newest versions the constraints allow, as
	// "init -upgrade" moves them.
	KeepConstraints Mode = iota
	// BumpConstraints rewrites the root module's constraints that
	// exclude the newest version (Bump, BumpModule), then upgrades as
	// KeepConstraints does.
	BumpConstraints
)

// PlanOptions choose what an upgrade touches.
type PlanOptions struct {
	// Providers and Modules select the kinds upgraded (neither: both).
	Providers, Modules bool
	// Targets, when given, are the only providers (addresses, e.g.
	// acme/foo) and module calls (paths, module.a.module.b) upgraded.
	Targets     []string
	Constraints Mode
	// MissingTargetsOK ignores targets the root module does not have
	// (for a run over many root modules) instead of failing.
	MissingTargetsOK bool
}

// Plan is what an upgrade will do: the versions that change, the
// constraints rewritten, and what keeps a dependency below its newest
// version.
type Plan struct {
	Changes []*Change
	// Limits say which constraints keep a dependency below its newest
	// version and are not rewritten (in a module that is not the root, in
	// a JSON file, not a plain string).
	Limits []string

	report *Report
	// files are the new contents of the configuration files rewritten,
	// by path; every is set when everything is upgraded (no targets,
	// both kinds).
	files map[string][]byte
	order []string
	every bool
}

// Change is one dependency whose version or constraint changes.
type Change struct {
	// Provider is set for a provider, Module (a path) for a module call.
	Provider addrs.Provider
	Module   string
	// From is the locked or installed version ("" when none), To the
	// version after the upgrade (after Apply: the one installed).
	From, To string
	Edits    []Edit
}

// Edit is one version string rewritten: file (relative to the root
// module's directory), line, and the string before and after.
type Edit struct {
	File     string
	Line     int
	Old, New string
}

// Plan works out what an upgrade of the report's root module does. It
// reads the files it would rewrite but writes nothing. A target that
// names no required provider and no module call, or a report with failed
// questions, is an error.
func (r *Report) Plan(opts PlanOptions) (*Plan, error) {
	if !opts.Providers && !opts.Modules {
		opts.Providers, opts.Modules = true, true
	}
	for _, p := range r.Providers {
		if p.Err != nil {
			return nil, fmt.Errorf("the versions of %s are unknown: %w", p.Provider.ForDisplayIn(r.opts.Flavour), p.Err)
		}
	}
	for _, m := range r.Modules {
		if m.Err != nil {
			return nil, fmt.Errorf("the versions of %s are unknown: %w", m.Path, m.Err)
		}
	}
	sel, err := r.targets(opts.Targets, opts.MissingTargetsOK)
	if err != nil {
		return nil, err
	}
	pl := &Plan{report: r, files: map[string][]byte{}, every: opts.Providers && opts.Modules && len(opts.Targets) == 0}
	if opts.Providers {
		for _, p := range r.Providers {
			if sel.provider(p.Provider) {
				if err := pl.provider(p, opts.Constraints); err != nil {
					return nil, err
				}
			}
		}
	}
	if opts.Modules {
		for _, m := range r.Modules {
			if m.Registry && sel.module(m.Path) {
				if err := pl.module(m, opts.Constraints); err != nil {
					return nil, err
				}
			}
		}
	}
	return pl, nil
}

// selection is the targets, parsed; empty selects everything.
type selection struct {
	all       bool
	providers map[addrs.Provider]bool
	modules   map[string]bool
}

func (s selection) provider(p addrs.Provider) bool { return s.all || s.providers[p] }

func (s selection) module(path string) bool { return s.all || s.modules[path] }

func (r *Report) targets(targets []string, missingOK bool) (selection, error) {
	sel := selection{all: len(targets) == 0, providers: map[addrs.Provider]bool{}, modules: map[string]bool{}}
	for _, t := range targets {
		if strings.HasPrefix(t, "module.") {
			if !r.hasModule(t) && !missingOK {
				return sel, fmt.Errorf("%s: the configuration has no such module call", t)
			}
			sel.modules[t] = true
			continue
		}
		p, err := addrs.ParseProviderSourceIn(r.opts.Flavour, t)
		if err != nil {
			return sel, fmt.Errorf("%s is neither a provider address nor a module path (module.NAME): %w", t, err)
		}
		if !r.hasProvider(p) && !missingOK {
			return sel, fmt.Errorf("%s: the configuration does not require this provider", t)
		}
		sel.providers[p] = true
	}
	return sel, nil
}

func (r *Report) hasModule(path string) bool {
	for _, m := range r.Modules {
		if m.Path == path {
			return true
		}
	}
	return false
}

func (r *Report) hasProvider(p addrs.Provider) bool {
	for _, e := range r.Providers {
		if e.Provider == p {
			return true
		}
	}
	return false
}

// provider plans p: with Bump, each root required_providers constraint
// that excludes the newest version is rewritten, and the others that do
// are limits; then the newest version all the constraints allow.
func (pl *Plan) provider(p *Provider, mode Mode) error {
	var edits []Edit
	combined := p.Constraints
	if mode == BumpConstraints && p.Newest != nil && !p.Constraints.Allows(*p.Newest) {
		var all []versions.Constraints
		for _, src := range p.sources {
			c := src.Constraints
			if c != nil && !c.Allows(*p.Newest) {
				e, bumped, err := pl.bumpProvider(p, src)
				if err != nil {
					return err
				}
				if e != nil {
					edits, c = append(edits, *e), bumped
				}
			}
			all = append(all, c)
		}
		combined = versions.Intersect(all...)
	}
	to, err := versions.SelectNewest(p.available, combined)
	if err != nil {
		return fmt.Errorf("%s: %w", p.Provider.ForDisplayIn(pl.report.opts.Flavour), err)
	}
	from := ""
	if p.Locked != nil {
		from = p.Locked.String()
	}
	if from != to.String() || len(edits) > 0 {
		pl.Changes = append(pl.Changes, &Change{Provider: p.Provider, From: from, To: to.String(), Edits: edits})
	}
	return nil
}

// bumpProvider rewrites src's constraint when it is the root module's
// required_providers entry in a native-syntax file; otherwise it records
// the limit and returns no edit.
func (pl *Plan) bumpProvider(p *Provider, src requirements.Source) (*Edit, versions.Constraints, error) {
	newest := *p.Newest
	where := fmt.Sprintf("%s:%d", filepath.ToSlash(src.Range.Filename), src.Range.Start.Line)
	name := p.Provider.ForDisplayIn(pl.report.opts.Flavour)
	switch {
	case src.Module != "":
		pl.limit("%s: %s requires %s %q: a constraint outside the root module is not rewritten, and keeps it below %s", where, src.Module, name, src.Constraints.String(), newest)
		return nil, nil, nil
	case src.Kind != requirements.FromRequiredProviders:
		pl.limit("%s: the %s constraint %q is not in required_providers and is not rewritten; it keeps it below %s", where, name, src.Constraints.String(), newest)
		return nil, nil, nil
	}
	var bumped versions.Constraints
	e, err := pl.edit(src.Range.Filename, constraintEdit{name: src.Name, bump: func(old string) (string, error) {
		s, err := Bump(old, newest)
		if err != nil {
			return "", fmt.Errorf("%s: %s: %w", where, name, err)
		}
		bumped, err = versions.ParseConstraints(s)
		return s, err
	}})
	if err != nil {
		if errors.As(err, new(notRewritable)) {
			pl.limit("%s: %s, so it is not rewritten and keeps %s below %s", where, err, name, newest)
			return nil, nil, nil
		}
		return nil, nil, err
	}
	return e, bumped, nil
}

// module plans m: with Bump, a call of the root module whose constraint
// excludes the newest version is rewritten; a call in another module is
// a limit. Then the newest version the constraint allows.
func (pl *Plan) module(m *Module, mode Mode) error {
	to := m.NewestAllowed
	var edits []Edit
	if mode == BumpConstraints && m.Newest != "" && m.Newest != m.NewestAllowed {
		where := fmt.Sprintf("%s:%d", filepath.ToSlash(m.call.DeclRange.Filename), m.call.DeclRange.Start.Line)
		if strings.Contains(m.Key, ".") {
			parent := m.Path[:strings.LastIndex(m.Path, ".module.")]
			pl.limit("%s: %s's constraint %q is written in %s, not the root module, and is not rewritten; it keeps it below %s", where, m.Path, m.Constraints, parent, m.Newest)
		} else {
			newest, err := versions.ParseVersion(m.Newest)
			if err != nil {
				return err
			}
			e, err := pl.edit(m.call.DeclRange.Filename, constraintEdit{module: true, name: m.call.Name, bump: func(old string) (string, error) {
				s, err := BumpModule(old, newest)
				if err != nil {
					return "", fmt.Errorf("%s: %s: %w", where, m.Path, err)
				}
				return s, nil
			}})
			switch {
			case err == nil:
				edits, to = append(edits, *e), m.Newest
			case errors.As(err, new(notRewritable)):
				pl.limit("%s: %s, so it is not rewritten and keeps %s below %s", where, err, m.Path, m.Newest)
			default:
				return err
			}
		}
	}
	if to != "" && (to != m.Installed || len(edits) > 0) {
		pl.Changes = append(pl.Changes, &Change{Module: m.Path, From: m.Installed, To: to, Edits: edits})
	}
	return nil
}

// maxConfigFile bounds the configuration files read for rewriting.
const maxConfigFile = 64 << 20

// notRewritable is a constraint that exists but cannot be rewritten (a
// JSON file, an expression that is not a plain string).
type notRewritable struct{ msg string }

func (e notRewritable) Error() string { return e.msg }

func (pl *Plan) limit(format string, args ...any) {
	pl.Limits = append(pl.Limits, fmt.Sprintf(format, args...))
}

// edit applies e to file (relative to the root module's directory) in
// the plan's copy of it.
func (pl *Plan) edit(file string, e constraintEdit) (*Edit, error) {
	if strings.HasSuffix(file, ".json") {
		return nil, notRewritable{"the constraint is in a JSON file"}
	}
	path := file
	if !filepath.IsAbs(path) {
		path = filepath.Join(pl.report.opts.Dir, file)
	}
	src, ok := pl.files[path]
	if !ok {
		b, err := regfile.ReadFileMax(path, maxConfigFile)
		if err != nil {
			return nil, err
		}
		src = b
		pl.order = append(pl.order, path)
	}
	out, res, err := rewriteConstraint(src, file, e)
	if err != nil {
		return nil, err
	}
	pl.files[path] = out
	return &Edit{File: filepath.ToSlash(file), Line: res.Line, Old: res.Old, New: res.New}, nil
}
