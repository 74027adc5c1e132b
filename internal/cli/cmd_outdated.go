package cli

import (
	"context"
	"os"
	"os/signal"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/internal/diagrender"
	"github.com/tfdeps/tfdeps/internal/upgradeview"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/upgrade"
)

// runOutdated implements "tfdeps outdated" (package upgrade; rendering in
// internal/upgradeview).
func runOutdated(m *Meta, args []string) int {
	fs := newFlagSet(m, "outdated", upgradeview.OutdatedUsage)
	asJSON, recursive := fs.Bool("json", false, ""), fs.Bool("recursive", false, "")
	detailed, vars := fs.Bool("detailed-exitcode", false, ""), addVarFlags(m, fs)
	if code, ok := parseFlags(m, fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(m, fs, unexpectedArgumentDiag())
	}
	roots, ok := upgradeRoots(m, *recursive, vars)
	if !ok {
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := upgradeOptions(m)
	out := &upgradeview.Outdated{Stdout: m.Stdout, JSON: *asJSON, Recursive: *recursive, Flavour: m.Flavour}
	for _, root := range roots {
		if !upgradeRoot(m, vars, &opts, root) {
			out.Root(root, nil, true)
			continue
		}
		rep, diags := upgrade.Outdated(ctx, opts)
		printUpgradeDiags(m, root, diags)
		out.Root(root, rep, diags.HasErrors())
	}
	return out.ExitCode(*detailed)
}

// printUpgradeDiags prints the diagnostics of the root module in dir,
// with snippets, all to stderr: stdout is the report's.
func printUpgradeDiags(m *Meta, dir string, diags hcl.Diagnostics) {
	p := newDiagPrinter(m, diagrender.SnippetFilesIn(dir, diags, nil))
	p.Stdout = m.Stderr
	p.Print(diags)
}

// upgradeOptions are package upgrade's options for this process: the CLI
// configuration's sources of provider versions, the registry client for
// module versions, one answer per question for the whole run.
func upgradeOptions(m *Meta) upgrade.Options {
	env := initEnv(m)
	env.Workdir.ModuleRegistry = env.ModuleRegistry
	src, _ := providersource.Build(providersource.BuildOptions{Config: env.CLIConfig, CLI: env.CLIOptions, Registry: env.Registry, Getenv: m.Getenv})
	return upgrade.Options{Flavour: m.Flavour, Version: m.Version(), DataDir: m.Getenv("TF_DATA_DIR"),
		Versions: upgrade.NewVersions(src, env.Registry), Workdir: env.Workdir}
}
