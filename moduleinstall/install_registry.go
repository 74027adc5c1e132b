package moduleinstall

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	getter "github.com/hashicorp/go-getter"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleaddr"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
	"github.com/tfdeps/tfdeps/registry"
)

// DefaultRegistryHost is the host of registry addresses without one.
const DefaultRegistryHost = "registry.opentofu.org"

// chooseVersion lists and selects the version of a registry call,
// reporting M9–M14 and M18.
func (w *walk) chooseVersion(req *config.ModuleRequest, src moduleaddr.Registry) (string, hcl.Diagnostics) {
	host := src.Host.ForDisplay()
	rng := req.Call.DeclRange
	at := fmt.Sprintf("%s:%d", rng.Filename, rng.Start.Line)
	if w.res == nil {
		return "", hcl.Diagnostics{blockDiag("Error accessing remote module registry", fmt.Sprintf("Failed to retrieve available versions for module %q (%s) from %s: %s.", req.Name, at, host, "no module registry client"), rng)}
	}
	listed, err := w.res.Versions(w.ctx, src)
	var notFound *registry.ModuleNotFoundError
	switch {
	case errors.As(err, &notFound) && w.o.Flavour == flavour.Terraform:
		return "", hcl.Diagnostics{blockDiag("Module not found", fmt.Sprintf("Module %q (from %s) cannot be found in the module registry at %s.", req.Name, at, host), rng)}
	case errors.As(err, &notFound):
		hint := ""
		if host == DefaultRegistryHost {
			hint = "\n\nIf you believe this module is missing from the registry, please submit a issue on the OpenTofu Registry https://github.com/opentofu/registry/issues/new/choose"
		}
		return "", hcl.Diagnostics{blockDiag("Module not found", fmt.Sprintf("Module %s (%q from %s) cannot be found in the module registry at %s.%s", src.ProtocolPath(), req.Name, at, host, hint), rng)}
	case isCanceled(err):
		return "", hcl.Diagnostics{sourceless("Module installation was interrupted", fmt.Sprintf("Received interrupt signal while retrieving available versions for module %q.", req.Name))}
	case errors.Is(err, registry.ErrNoModulesListed):
		return "", hcl.Diagnostics{blockDiag("Invalid response from remote module registry", fmt.Sprintf("The registry at %s returned an invalid response when %s requested available versions for module %q (%s).", host, w.o.Flavour.Product(), req.Name, at), rng)}
	case err != nil:
		return "", hcl.Diagnostics{blockDiag("Error accessing remote module registry", fmt.Sprintf("Failed to retrieve available versions for module %q (%s) from %s: %s.", req.Name, at, host, err), rng)}
	}
	constraint := ""
	if req.Call.HasVersion {
		constraint = req.Call.Version
	}
	chosen, _, skipped, err := moduleaddr.SelectVersion(listed, constraint)
	var diags hcl.Diagnostics
	for _, bad := range skipped {
		d := blockDiag("Invalid response from remote module registry", fmt.Sprintf("The registry at %s returned an invalid version string %q for module %q (%s), which %s ignored.", host, bad, req.Name, at, w.o.Flavour.Product()), rng)
		d.Severity = hcl.DiagWarning
		diags = append(diags, d)
	}
	var noMatch *moduleaddr.NoMatchError
	switch {
	case errors.Is(err, moduleaddr.ErrNoVersions):
		return "", append(diags, blockDiag("Module has no versions", fmt.Sprintf("Module %q (%s) has no versions available on %s.", src.String(), at, host), rng))
	case errors.As(err, &noMatch):
		return "", append(diags, blockDiag("Unresolvable module version constraint", fmt.Sprintf("There is no available version of module %q (%s) which matches the given version constraint. The newest available version is %s.", src.String(), at, noMatch.Newest), rng))
	case err != nil:
		return "", append(diags, blockDiag("Invalid version constraint", err.Error(), rng))
	}
	return chosen, diags
}

// installRegistry installs a registry module (modules.md §3, §5.3).
func (w *walk) installRegistry(req *config.ModuleRequest, src moduleaddr.Registry, instPath string) (*config.Module, string, hcl.Diagnostics) {
	rng := req.Call.DeclRange
	v, diags := w.chooseVersion(req, src)
	if v == "" {
		return nil, "", diags
	}
	w.o.Events.Download(req.Key(), src.Package().String(), v)
	loc, err := w.res.Location(w.ctx, src, v)
	var bad *registry.InvalidLocationError
	if errors.As(err, &bad) && w.o.Flavour == flavour.Terraform {
		return nil, "", append(diags, sourceless("Invalid package location from module registry", fmt.Sprintf("Module registry %s returned invalid source location %q for %s %s: %s.", src.Host.ForDisplay(), bad.Location, src.String(), v, bad.Err)))
	}
	if err != nil {
		return nil, "", append(diags, sourceless("Error accessing remote module registry", fmt.Sprintf("Failed to retrieve a download URL for %s %s from %s: %s", src.String(), v, src.Host.ForDisplay(), err)))
	}
	err = w.fetch.obtain(w.ctx, w.o.inDir(instPath), w.registryPackage(w.ctx, src, v, loc))
	sub := locationSubdir(loc)
	dir := instPath
	if sub != "" {
		dir = filepath.Join(instPath, filepath.FromSlash(sub))
	}
	if isCanceled(err) {
		return nil, "", append(diags, sourceless("Module download was interrupted", fmt.Sprintf("Interrupt signal received when downloading module %s.", src.String())))
	}
	if err != nil {
		from := loc.Label()
		if w.o.Flavour == flavour.Terraform {
			from = fmt.Sprintf("%q", terraformLocation(loc, src.Subdir))
		}
		return nil, "", append(diags, blockDiag("Failed to download module", fmt.Sprintf("Could not download module %q (%s:%d) source code from %s: %s.", req.Name, rng.Filename, rng.Start.Line, from, w.o.relText(err.Error())), rng))
	}
	mod, modDiags := w.loadInstalled(req, dir, instPath, sub, true)
	w.manifest[req.Key()] = manifest.Record{Key: req.Key(), Source: src.String(), Version: v, Dir: dir}
	w.o.Events.Install(req.Key(), v, dir)
	return mod, dir, append(diags, modDiags...)
}

// terraformLocation is how Terraform names a registry location in M5: the
// remote address the registry answered, without the call's subdirectory
// (which tfdeps' location has joined onto the answer's).
func terraformLocation(loc registry.ModulePackageLocation, callSubdir string) string {
	switch {
	case loc.Indirect != nil:
		r := *loc.Indirect
		if callSubdir != "" {
			r.Subdir = strings.TrimSuffix(strings.TrimSuffix(r.Subdir, callSubdir), "/")
		}
		return r.String()
	case loc.Direct != nil:
		return loc.Direct.URL.String()
	}
	return ""
}

// locationSubdir is the module's directory inside the package: the
// location's subdirectory joined with the call's, not glob-expanded (the
// 1.12.6 behaviour, modules.md §3.4).
func locationSubdir(loc registry.ModulePackageLocation) string {
	var sub string
	switch {
	case loc.Indirect != nil:
		sub = loc.Indirect.Subdir
	case loc.Direct != nil:
		sub = loc.Direct.Subdir
	}
	if sub = path.Clean("/" + sub); sub == "/" {
		return ""
	}
	return sub[1:]
}

// registryPackage is the package of a registry location: for the run
// named by its location, in the shared cache by module package, version
// and location (a registry version's content does not change).
func (w *walk) registryPackage(ctx context.Context, src moduleaddr.Registry, v string, loc registry.ModulePackageLocation) packageFetch {
	var pf packageFetch
	if loc.Direct != nil {
		direct := *loc.Direct
		pf.key = "direct:" + direct.URL.String()
		pf.fill = func(dst string) error {
			return w.fetch.events.around(direct.URL.String(), func(getter.ProgressTracker) error {
				_, err := w.res.reg.FetchModulePackage(ctx, &direct, "", dst)
				return err
			})
		}
	} else {
		pkg := loc.Indirect.Package
		pf.key = pkg
		pf.fill = func(dst string) error { return w.fetch.get(ctx, pkg, dst) }
	}
	pf.cacheKey = "registry " + src.Package().String() + " " + v + " " + pf.key
	return pf
}

func isCanceled(err error) bool {
	var rc registry.RequestCanceledError
	return err != nil && (errors.Is(err, context.Canceled) || errors.As(err, &rc))
}
