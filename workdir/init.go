package workdir

import (
	"context"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/requirements"
)

// Result is what Init did.
type Result struct {
	// Empty is set when the working directory has no configuration
	// files: nothing was done.
	Empty bool
	// ModulesInstalled is set when the module installer ran.
	ModulesInstalled bool
	// Requirements are the provider requirements collected.
	Requirements *requirements.Result
	// Providers is what the provider step did.
	Providers *ProvidersResult
}

// Init initialises the working directory (Options.Dir): it records the plugin
// directories (Options.PluginDirs), loads the root module, installs the
// modules it calls (or, with NoGet, checks they are installed), collects
// the provider requirements, installs the providers and updates the lock
// file, in OpenTofu's order, reporting events. Without Options.Providers,
// packages come from the plugin directories when given, else from the
// CLI configuration's installation methods and the registries through
// Options.Registry. The backend is left as it is: with no backend block,
// the default local backend needs nothing recorded, as with tofu init.
//
// The error is nil on success (the diagnostics may hold warnings), or
// ErrConfiguration, ErrFailed, ErrUpgradeReadOnly, or ctx's error.
func Init(ctx context.Context, opts Options, events Events) (*Result, hcl.Diagnostics, error) {
	if err := StorePluginDirs(opts.inDir(opts.dataDir()), opts.PluginDirs); err != nil {
		return nil, hcl.Diagnostics{errorDiag("Error saving -plugin-path values", opts.relErr(err).Error())}, ErrFailed
	}
	if opts.Version == "" {
		opts.Version = opts.Flavour.DefaultVersion()
	}
	if opts.Providers == nil {
		if len(opts.PluginDirs) > 0 {
			opts.Providers = PluginDirSource(opts.Dir, opts.PluginDirs)
		} else {
			src, diags := providersource.Build(providersource.BuildOptions{Config: opts.CLIConfig, Registry: opts.Registry})
			if diags.HasErrors() {
				return nil, diags, ErrFailed
			}
			opts.Providers = src
		}
	}
	if IsEmptyDir(opts.Dir, opts.Flavour) {
		return &Result{Empty: true}, nil, nil
	}
	r := NewRun(opts, events)
	res := &Result{}
	root, diags := r.LoadRoot()
	if diags.HasErrors() {
		return res, diags, ErrConfiguration
	}
	var moduleDiags hcl.Diagnostics
	switch {
	case opts.NoGet:
		if check, err := r.CheckModulesInstalled(root); err != nil {
			return res, check, err
		}
	case HasModuleCalls(root):
		if events.ModulesInstalling != nil {
			events.ModulesInstalling(opts.Upgrade)
		}
		moduleDiags = append(diags, r.InstallModules(ctx, root, nil)...)
		res.ModulesInstalled = true
		if moduleDiags.HasErrors() {
			return res, moduleDiags, ErrFailed
		}
	}
	reqs, diags, err := r.Requirements(opts.StatePath, moduleDiags, nil)
	res.Requirements = reqs
	if err != nil {
		return res, diags, err
	}
	res.Providers, diags, err = r.InstallProviders(ctx, reqs, diags)
	return res, diags, err
}

// PluginDirSource is the source of provider packages of init's
// -plugin-dir values dirs: a filesystem mirror at each, in order (as
// providersource.Build makes them), read relative to the working
// directory dir ("" for the current one) and named in messages as given.
func PluginDirSource(dir string, dirs []string) providersource.Multi {
	o := Options{Dir: dir}
	m := make(providersource.Multi, 0, len(dirs))
	for _, d := range dirs {
		m = append(m, providersource.Selector{Source: providersource.NewFilesystemMirrorAt(d, o.inDir(d))})
	}
	return m
}

// StorePluginDirs records the -plugin-dir values in dataDir/plugin_path
// (dataDir as the operating system is given it; the values as given),
// as init does: nothing without values, the file removed for a single
// empty value.
func StorePluginDirs(dataDir string, dirs []string) error {
	return cliconfig.NewPluginDirFlag(dirs).Store(dataDir)
}
