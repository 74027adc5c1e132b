package moduleinstall

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleaddr"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
)

// "init -from-module=SOURCE" fills an empty working directory with a copy
// of a module. As OpenTofu and Terraform do it, the module is installed by
// the ordinary installer as the only call, named "root", of a made-up root
// module, into a staging modules directory inside .terraform; then the
// package of "root" is copied into the working directory and the packages
// of its descendants into the modules directory, every key losing its
// "root." prefix, and modules.json is written for the new layout. Copies
// leave out every entry whose name starts with "." (.git, .terraform,
// .terraform.lock.hcl, ...). The staging directory is removed once all of
// it succeeded, and left behind otherwise.

const (
	// fromModuleCall is the name of the made-up call.
	fromModuleCall = "root"
	// fromModuleFile names the made-up call's location in diagnostics.
	fromModuleFile = "<main configuration>"
)

// FromModuleStaging is where InstallFromModule installs the module first,
// relative to the working directory (whatever TF_DATA_DIR says).
const FromModuleStaging = ".terraform" + string(filepath.Separator) + "init-from-module"

// InstallFromModule copies the module at source into the working
// directory, which must hold nothing but maybe .terraform, and installs
// the modules it calls into o.ModsDir, writing modules.json there. A
// relative source (".", "./x", "../x") is taken from the working
// directory. o.Events receives the downloads of the module's descendants
// (not of the module itself) under their new keys as they happen, then
// one Install for each descendant once everything is fetched, in the order
// of the keys. o.InstallErrorsOnly, o.TreeChecks and o.RootDiags are not
// used. Warnings of the installation are dropped, as OpenTofu drops them.
func InstallFromModule(ctx context.Context, source string, o Options) hcl.Diagnostics {
	o = o.withDir()
	if d := checkEmptyTarget(&o, "."); d != nil {
		return hcl.Diagnostics{d}
	}
	staging := FromModuleStaging
	_ = os.RemoveAll(o.inDir(staging)) // MkdirAll fails too if this did
	if err := os.MkdirAll(o.inDir(staging), 0o777); err != nil {
		return hcl.Diagnostics{sourceless("Failed to create temporary directory", fmt.Sprintf("Failed to create temporary directory %s: %s.", staging, o.relErr(err)))}
	}
	source = absoluteIfRelative(&o, source)
	root, diags := fromModuleRoot(source, o.Flavour)
	events := o.Events
	inst := o
	inst.ModsDir = staging
	inst.InstallErrorsOnly = true
	inst.TreeChecks = nil
	inst.RootDiags = nil
	inst.Events = stagingEvents{events}
	if d := Install(ctx, root, inst); d.HasErrors() {
		return append(diags, d...)
	}
	staged, err := manifest.Read(o.inDir(filepath.Join(staging, manifest.FileName)))
	if err != nil {
		return append(diags, sourceless("Failed to read modules manifest file", "Error reading manifest for "+staging+": "+o.relErr(err).Error()+"."))
	}
	p := &placement{o: o, events: events, source: source, staging: staging, staged: staged, placed: manifest.Manifest{}}
	diags = append(diags, p.place()...)
	if !diags.HasErrors() {
		_ = os.RemoveAll(o.inDir(staging)) // a leftover does no harm
	}
	return diags
}

// checkEmptyTarget requires dir to exist and hold nothing but .terraform.
func checkEmptyTarget(o *Options, dir string) *hcl.Diagnostic {
	entries, err := os.ReadDir(o.inDir(dir))
	err = o.relErr(err)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return sourceless("Target directory does not exist", fmt.Sprintf("Cannot initialize non-existent directory %s.", dir))
	case err != nil:
		return sourceless("Failed to read target directory", fmt.Sprintf("Error reading %s to ensure it is empty: %s.", dir, err))
	}
	for _, e := range entries {
		if e.Name() != ".terraform" {
			return sourceless("Can't populate non-empty directory", fmt.Sprintf("The target directory %s is not empty, so it cannot be initialized with the -from-module=... option.", dir))
		}
	}
	return nil
}

// absoluteIfRelative turns a relative path source into an absolute one:
// relative to the made-up root module it would mean nothing, and an
// absolute path is fetched (copied) like any remote package.
func absoluteIfRelative(o *Options, source string) string {
	s := filepath.ToSlash(source)
	if s != "." && !strings.HasPrefix(s, "./") && !strings.HasPrefix(s, "../") {
		return source
	}
	wd, err := filepath.Abs(o.inDir("."))
	if err != nil {
		return source
	}
	return filepath.Join(wd, source)
}

// fromModuleRoot is the made-up root module whose one call, "root",
// installs source. A source that does not parse leaves the call without
// an address, so nothing is installed: OpenTofu reports the parse error
// (returned here); Terraform reports it while building the tree, where it
// becomes a warning that is dropped.
func fromModuleRoot(source string, f flavour.Flavour) (*config.Module, hcl.Diagnostics) {
	rng := hcl.Range{Filename: fromModuleFile, Start: hcl.InitialPos, End: hcl.InitialPos}
	call := &config.ModuleCall{
		Name:            fromModuleCall,
		SourceExpr:      hcl.StaticExpr(cty.StringVal(source), rng),
		SourceSet:       true,
		SourceAddr:      source,
		SourceAddrRange: rng,
		DeclRange:       rng,
	}
	var diags hcl.Diagnostics
	p := moduleaddr.Parser{}
	if f == flavour.Terraform {
		p.DefaultHost = f.DefaultHost()
	}
	if src, err := p.Parse(source); err == nil {
		call.Source, call.SourceAddr = src, src.String()
	} else if f != flavour.Terraform {
		diags = append(diags, sourceless("Invalid module source address", "Failed to parse module source address: "+err.Error()))
	}
	root := &config.Module{SourceDir: ".", ModuleCalls: map[string]*config.ModuleCall{fromModuleCall: call}}
	return root, diags
}

// stagingEvents passes on the downloads of the staging installation under
// their final keys, leaving out the module itself and every Install (the
// placement reports those).
type stagingEvents struct{ Events }

func (e stagingEvents) Download(key, addr, version string) {
	if trimmed, ok := strings.CutPrefix(key, fromModuleCall+"."); ok {
		e.Events.Download(trimmed, addr, version)
	}
}

func (stagingEvents) Install(string, string, string) {}

// placement moves a staging installation into its final layout.
type placement struct {
	o       Options
	events  Events
	source  string // the (absolute) source of the module
	staging string
	staged  manifest.Manifest
	placed  manifest.Manifest
}

// place copies the module into the working directory and its descendants
// into the modules directory, in the order of their keys (a parent before
// its children), then writes the new modules.json; Terraform ignores a
// failure to write it.
func (p *placement) place() hcl.Diagnostics {
	if err := os.MkdirAll(p.o.inDir(p.o.ModsDir), 0o777); err != nil {
		return hcl.Diagnostics{sourceless("Failed to create local modules directory", fmt.Sprintf("Failed to create modules directory %s: %s.", p.o.ModsDir, p.o.relErr(err)))}
	}
	keys := make([]string, 0, len(p.staged))
	for k := range p.staged {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var diags hcl.Diagnostics
	for _, k := range keys {
		rec := p.staged[k]
		switch {
		case rec.Key == fromModuleCall:
			d, stop := p.placeRoot(rec)
			diags = append(diags, d...)
			if stop {
				return diags
			}
		case strings.HasPrefix(rec.Key, fromModuleCall+"."):
			diags = append(diags, p.placeDescendant(rec)...)
		}
	}
	err := p.placed.Write(p.o.inDir(filepath.Join(p.o.ModsDir, manifest.FileName)))
	if err != nil && p.o.Flavour != flavour.Terraform {
		diags = append(diags, sourceless("Failed to write module manifest", fmt.Sprintf("Error writing module manifest: %s.", p.o.relErr(err))))
	}
	return diags
}

// placeRoot copies the module's directory into the working directory and
// reports each of its calls that leaves it through "../", which can no
// longer be found there. stop is set when Terraform gave up on a call
// whose source is not a literal string.
func (p *placement) placeRoot(rec manifest.Record) (diags hcl.Diagnostics, stop bool) {
	if err := copyTree(p.o.inDir("."), p.o.inDir(rec.Dir), true); err != nil {
		return hcl.Diagnostics{sourceless("Failed to copy root module", fmt.Sprintf("Error copying root module %q from %s to %s: %s.", p.source, rec.Dir, ".", p.o.relText(err.Error())))}, false
	}
	p.placed[""] = manifest.Record{Key: "", Dir: "."}
	mod, _ := config.LoadDir(".", append(append([]config.Option{}, p.o.Config...), config.WithTestsDir(""))...)
	if mod == nil {
		return nil, false
	}
	names := make([]string, 0, len(mod.ModuleCalls))
	for n := range mod.ModuleCalls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		raw, known := rawSource(mod.ModuleCalls[n])
		if !known && p.o.Flavour == flavour.Terraform {
			mc := mod.ModuleCalls[n]
			return append(diags, blockDiag("Unknown module source", "Dynamic module sources cannot be used in conjunction with -from-module", mc.SourceAddrRange)), true
		}
		if d := parentReference(p.source, raw); d != nil {
			diags = append(diags, d)
		}
	}
	return diags, false
}

// rawSource is a call's source as written when it is a literal string,
// else its evaluated address (known: false).
func rawSource(mc *config.ModuleCall) (raw string, known bool) {
	if mc.SourceExpr != nil {
		if v, d := mc.SourceExpr.Value(nil); !d.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
			return v.AsString(), true
		}
	}
	return mc.SourceAddr, false
}

// parentReference is the error for a call of the copied module with the
// local source raw that starts with "../", naming the remote address that
// would reach the same directory (nil when raw stays inside, or when even
// that address would leave the package).
func parentReference(source, raw string) *hcl.Diagnostic {
	if !traversesUp(raw) {
		return nil
	}
	pkg, subdir := moduleaddr.SplitPackageSubdir(source)
	sub := filepath.Join(subdir, raw)
	if traversesUp(sub) {
		return nil // loading it fails later anyway
	}
	addr := pkg
	if sub != "" {
		addr += "//" + filepath.ToSlash(sub)
	}
	return sourceless("Root module references parent directory", fmt.Sprintf("The requested module %q refers to a module via its parent directory. To use this as a new root module this source string must be rewritten as a remote source address, such as %q.", source, addr))
}

func traversesUp(p string) bool { return strings.HasPrefix(filepath.ToSlash(p), "../") }

// placeDescendant moves one descendant of the module: a package of its
// own is copied to MODDIR/KEY; a local call keeps its place relative to
// its parent.
func (p *placement) placeDescendant(rec manifest.Record) hcl.Diagnostics {
	key := strings.TrimPrefix(rec.Key, fromModuleCall+".")
	instPath := filepath.Join(p.o.ModsDir, key)
	tempPath := filepath.Join(p.staging, rec.Key)
	if _, err := os.Stat(p.o.inDir(tempPath)); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return hcl.Diagnostics{sourceless("Failed to stat temporary module install directory", fmt.Sprintf("Error from stat %s for module %s: %s.", instPath, key, p.o.relErr(err)))}
		}
		return p.placeLocal(rec, key)
	}
	if err := os.MkdirAll(p.o.inDir(instPath), 0o777); err != nil {
		return hcl.Diagnostics{sourceless("Failed to create module install directory", fmt.Sprintf("Error creating directory %s for module %s: %s.", instPath, key, p.o.relErr(err)))}
	}
	if err := copyTree(p.o.inDir(instPath), p.o.inDir(tempPath), true); err != nil {
		summary := "Failed to copy descendent module"
		if p.o.Flavour == flavour.Terraform {
			summary = "Failed to copy descendant module"
		}
		return hcl.Diagnostics{sourceless(summary, fmt.Sprintf("Error copying module %q from %s to %s: %s.", key, tempPath, ".", p.o.relText(err.Error())))}
	}
	sub, err := filepath.Rel(tempPath, rec.Dir)
	if err != nil {
		sub = "" // both are under the staging directory
	}
	p.record(rec, key, filepath.Join(instPath, sub))
	return nil
}

// placeLocal places a module installed from a local path: its directory
// relative to its parent's staged directory, joined to the parent's new
// one. OpenTofu records it even when that relation cannot be computed
// (at the parent's own directory), after reporting the error.
func (p *placement) placeLocal(rec manifest.Record, key string) hcl.Diagnostics {
	parentKey := ""
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		parentKey = key[:i]
	}
	oldParent := p.staged[""]
	if parentKey != "" {
		oldParent = p.staged[fromModuleCall+"."+parentKey]
	}
	var diags hcl.Diagnostics
	rel, err := filepath.Rel(oldParent.Dir, rec.Dir)
	if err != nil && oldParent.Dir == "." {
		var abs string
		if abs, err = filepath.Abs(p.o.inDir(oldParent.Dir)); err != nil {
			return hcl.Diagnostics{sourceless("Failed to determine module install directory", fmt.Sprintf("Error determine relative source directory for module %s: %s.", key, err))}
		}
		if rel, err = filepath.Rel(abs, rec.Dir); err != nil {
			return hcl.Diagnostics{sourceless("Failed to determine relative module source location", fmt.Sprintf("Error determining relative source for module %s: %s.", key, err))}
		}
	} else if err != nil {
		diags = append(diags, sourceless("Failed to determine relative module source location", fmt.Sprintf("Error determining relative source for module %s: %s.", key, err)))
	}
	p.record(rec, key, filepath.Join(p.placed[parentKey].Dir, rel))
	return diags
}

// record enters rec under its new key and directory and reports it.
func (p *placement) record(rec manifest.Record, key, dir string) {
	rec.Key, rec.Dir = key, dir
	p.placed[key] = rec
	p.events.Install(key, rec.Version, dir)
}
