package modules

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	tfaddr "github.com/opentofu/registry-address/v2"

	"github.com/tfdeps/tfdeps/config"
)

// DefaultRegistryHost is the host of registry addresses without one.
const DefaultRegistryHost = "registry.opentofu.org"

// chooseVersion lists and selects the version of a registry call,
// reporting M9–M14; nil when there is none to install.
func (w *walk) chooseVersion(ctx context.Context, req request, addr tfaddr.Module) (string, bool) {
	host := addr.Package.Host.ForDisplay()
	if w.res == nil {
		w.diags = append(w.diags, blockDiag("Error accessing remote module registry", fmt.Sprintf("Failed to retrieve available versions for module %q (%s:%d) from %s: %s.", req.name, req.rng.Filename, req.rng.Start.Line, host, "no module registry client"), req.rng))
		return "", false
	}
	listed, err := w.res.Versions(ctx, addr.Package)
	switch {
	case errors.Is(err, ErrModuleNotFound):
		hint := ""
		if host == DefaultRegistryHost {
			hint = "\n\nIf you believe this module is missing from the registry, please submit a issue on the OpenTofu Registry https://github.com/opentofu/registry/issues/new/choose"
		}
		w.diags = append(w.diags, blockDiag("Module not found", fmt.Sprintf("Module %s (%q from %s:%d) cannot be found in the module registry at %s.%s", addr.Package.ForRegistryProtocol(), req.name, req.rng.Filename, req.rng.Start.Line, host, hint), req.rng))
		return "", false
	case errors.Is(err, context.Canceled):
		w.diags = append(w.diags, sourceless("Module installation was interrupted", fmt.Sprintf("Received interrupt signal while retrieving available versions for module %q.", req.name)))
		return "", false
	case errors.Is(err, ErrNoModules):
		w.diags = append(w.diags, blockDiag("Invalid response from remote module registry", fmt.Sprintf("The registry at %s returned an invalid response when OpenTofu requested available versions for module %q (%s:%d).", host, req.name, req.rng.Filename, req.rng.Start.Line), req.rng))
		return "", false
	case err != nil:
		w.diags = append(w.diags, blockDiag("Error accessing remote module registry", fmt.Sprintf("Failed to retrieve available versions for module %q (%s:%d) from %s: %s.", req.name, req.rng.Filename, req.rng.Start.Line, host, err), req.rng))
		return "", false
	}
	sel := selectVersion(listed, req.constraint)
	for _, bad := range sel.invalid {
		d := blockDiag("Invalid response from remote module registry", fmt.Sprintf("The registry at %s returned an invalid version string %q for module %q (%s:%d), which OpenTofu ignored.", host, bad, req.name, req.rng.Filename, req.rng.Start.Line), req.rng)
		d.Severity = hcl.DiagWarning
		w.diags = append(w.diags, d)
	}
	if sel.newest == nil {
		w.diags = append(w.diags, blockDiag("Module has no versions", fmt.Sprintf("Module %q (%s:%d) has no versions available on %s.", addr.String(), req.rng.Filename, req.rng.Start.Line, host), req.rng))
		return "", false
	}
	if sel.match == nil {
		w.diags = append(w.diags, blockDiag("Unresolvable module version constraint", fmt.Sprintf("There is no available version of module %q (%s:%d) which matches the given version constraint. The newest available version is %s.", addr.String(), req.rng.Filename, req.rng.Start.Line, sel.newest), req.rng))
		return "", false
	}
	return sel.match.String(), true
}

// installRegistry installs a registry module (modules.md §3, §5.3).
func (w *walk) installRegistry(ctx context.Context, parent *node, req request, src Source, instPath string) (*node, *config.Module) {
	addr := src.Registry
	v, ok := w.chooseVersion(ctx, req, addr)
	if !ok {
		return nil, nil
	}
	w.o.Events.Download(req.key(), addr.Package.String(), v)
	loc, err := w.res.Location(ctx, addr.Package, v)
	if err != nil {
		w.diags = append(w.diags, sourceless("Error accessing remote module registry", fmt.Sprintf("Failed to retrieve a download URL for %s %s from %s: %s", addr.String(), v, addr.Package.Host.ForDisplay(), err)))
		return nil, nil
	}
	dir := instPath
	key, cacheKey, fill := w.registryPackage(ctx, src, v, loc)
	err = w.fetch.obtain(ctx, instPath, key, cacheKey, fill)
	sub := path.Join(loc.Subdir, addr.Subdir)
	if sub == "." {
		sub = ""
	}
	if sub != "" {
		dir = filepath.Join(instPath, filepath.FromSlash(sub))
	}
	if errors.Is(err, context.Canceled) {
		w.diags = append(w.diags, sourceless("Module download was interrupted", fmt.Sprintf("Interrupt signal received when downloading module %s.", addr.String())))
		return nil, nil
	}
	if err != nil {
		shown := loc
		shown.Subdir = sub
		w.diags = append(w.diags, blockDiag("Failed to download module", fmt.Sprintf("Could not download module %q (%s:%d) source code from %s: %s.", req.name, req.rng.Filename, req.rng.Start.Line, shown.Label(), err), req.rng))
		return nil, nil
	}
	mod := w.loadInstalled(req, dir, instPath, sub, true)
	w.manifest[req.key()] = Record{Key: req.key(), Source: src.String(), Version: v, Dir: dir}
	w.o.Events.Install(req.key(), v, dir)
	return &node{path: req.path, dir: dir, src: &src, parent: parent}, mod
}

// registryPackage names the package of a registry location for the
// fetcher (key), the shared cache (cacheKey: module address, version and
// location) and says how to fetch it.
func (w *walk) registryPackage(ctx context.Context, src Source, v string, loc Location) (string, string, func(string) error) {
	key := loc.Package
	fill := func(dst string) error { return w.fetch.get(ctx, loc.Package, dst) }
	if loc.Direct {
		key = "direct:" + loc.Package
		fill = func(dst string) error { return w.res.reg.DownloadDirect(ctx, loc, dst) }
	}
	return key, "registry " + src.Registry.Package.String() + " " + v + " " + key, fill
}
