package cli

import (
	"context"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/fleet"
	"github.com/tfdeps/tfdeps/internal/fleetview"
	"github.com/tfdeps/tfdeps/internal/initrun"
	"github.com/tfdeps/tfdeps/providersource"
)

// init -recursive initialises every root module at or below the working
// directory (found as providers lock -recursive finds them) in one
// process: each root as init alone there would, its output buffered and
// printed in root order under a header line, the roots run in parallel
// (-parallelism), sharing the work they have in common (package fleet):
// provider version lists and package metadata asked once, each provider
// package downloaded once, each module package fetched once, each file
// parsed once. A failing root does not stop the others; the run ends with
// a table of the roots and exits 1 when any failed.
//
// Paths given on the command line (-plugin-dir, -var-file, -state,
// -backend-config files) are taken relative to the directory tfdeps runs
// in, not to each root.

// runInitRecursive is init -recursive.
func runInitRecursive(ctx context.Context, m *Meta, o *initOptions) int {
	if o.fromModule != "" {
		return recursiveUsageError(m, "The -recursive option cannot be used with -from-module.")
	}
	if o.jsonInto.file != nil {
		return recursiveUsageError(m, "The -recursive option cannot be used with -json-into.")
	}
	roots, ok := fleetRoots(m)
	if !ok {
		return 1
	}
	base := initEnv(m)
	if err := absolutePaths(m, o); err != nil {
		newDiagPrinter(m, nil).Print(hcl.Diagnostics{errorDiag("Failed to find root modules", err.Error())})
		return 1
	}
	src, _ := providersource.Build(providersource.BuildOptions{
		Config: base.CLIConfig, CLI: base.CLIOptions, Registry: base.Registry, Getenv: m.Getenv, PluginDirs: o.pluginDirs,
	})
	shared, err := fleet.NewShared(fleet.SharedOptions{
		Providers:      src,
		Downloader:     base.Registry,
		ModuleRegistry: base.ModuleRegistry,
		ModuleCacheDir: base.Workdir.ModuleCacheDir,
		DownloadBytes:  fleetDownloadBytes,
		Near:           ".",
	})
	if err != nil {
		newDiagPrinter(m, nil).Print(hcl.Diagnostics{errorDiag("Failed to prepare the shared work", err.Error())})
		return 1
	}
	defer shared.Close()
	base.Providers = shared.Providers
	base.Workdir.Downloader = shared.Downloader
	base.Workdir.Packages = shared.Packages
	base.Workdir.ModuleCacheDir = shared.Modules.Dir()
	if shared.ModuleRegistry != nil {
		base.ModuleRegistry = shared.ModuleRegistry
	}
	base.Workdir.Variables = append(base.Workdir.Variables, config.WithParseCache(shared.Parses))
	base.LiveDisplay = nil
	opts := o.runOptions()
	opts.Input = false // nobody can answer a prompt for one of many roots
	f := fleetRun{command: fleetview.Init, parallelism: o.parallelism, json: o.json, noColor: o.noColor}
	return f.run(ctx, m, roots, func(ctx context.Context, t *fleet.Task) int {
		env := *base
		env.Dir = t.Root
		env.Stdin = strings.NewReader("")
		env.Stdout, env.Stderr = t.Stdout, t.Stderr
		env.Progress = t.Progress
		return initrun.Run(ctx, &env, opts)
	})
}

// fleetDownloadBytes bounds the provider archives one run keeps to share
// between its roots; past it, each root downloads its own.
const fleetDownloadBytes = 4 << 30

// absolutePaths makes the paths given on the command line absolute from
// the working directory, so that every root finds the same files.
func absolutePaths(m *Meta, o *initOptions) error {
	abs, err := absFrom(m)
	if err != nil {
		return err
	}
	for i, d := range o.pluginDirs {
		o.pluginDirs[i] = abs(d)
	}
	if err := absVarFiles(m, o.vars.opts); err != nil {
		return err
	}
	o.statePath = abs(o.statePath)
	for i, c := range o.configs {
		if !strings.Contains(c, "=") {
			o.configs[i] = abs(c)
		}
	}
	return nil
}
