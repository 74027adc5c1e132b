package cli

import (
	"context"
	"os"
	"os/signal"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/internal/upgradeview"
	"github.com/tfdeps/tfdeps/upgrade"
)

// runUpgrade implements "tfdeps upgrade" (package upgrade; rendering in
// internal/upgradeview).
func runUpgrade(m *Meta, args []string) int {
	fs := newFlagSet(m, "upgrade", upgradeview.UpgradeUsage)
	var po upgrade.PlanOptions
	fs.BoolVar(&po.Providers, "providers", false, "")
	fs.BoolVar(&po.Modules, "modules", false, "")
	constraints := fs.String("constraints", "keep", "")
	recursive, dryRun, asJSON := fs.Bool("recursive", false, ""), fs.Bool("dry-run", false, ""), fs.Bool("json", false, "")
	vars := addVarFlags(m, fs)
	if code, ok := parseFlags(m, fs, args); !ok {
		return code
	}
	mode, err := upgradeview.ParseMode(*constraints)
	if err != nil {
		return usageError(m, fs, errorDiag("Invalid -constraints", err.Error()))
	}
	po.Constraints, po.Targets, po.MissingTargetsOK = mode, fs.Args(), *recursive
	roots, ok := upgradeRoots(m, *recursive, vars)
	if !ok {
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := upgradeOptions(m)
	u := &upgradeview.Upgrade{Stdout: m.Stdout, JSON: *asJSON, Recursive: *recursive, DryRun: *dryRun, Flavour: m.Flavour}
	for _, root := range roots {
		if !upgradeRoot(m, vars, &opts, root) {
			u.Failed()
			continue
		}
		u.Diagnostics = func(d hcl.Diagnostics) { printUpgradeDiags(m, root, d) }
		u.Root(ctx, opts, po)
	}
	return u.ExitCode()
}

// upgradeRoots are the root modules of outdated or upgrade: the working
// directory, or with -recursive every root below it (-var-file names then
// relative to the working directory); false after errors (printed).
func upgradeRoots(m *Meta, recursive bool, vars *varFlags) ([]string, bool) {
	if !recursive {
		return []string{""}, true
	}
	roots, ok := fleetRoots(m)
	if !ok {
		return nil, false
	}
	if err := absVarFiles(m, vars.opts); err != nil {
		recursiveUsageError(m, err.Error())
		return nil, false
	}
	return roots, true
}

// upgradeRoot points opts at the root module in root with its variable
// values (-var, -var-file, tfvars files); false after errors (printed).
func upgradeRoot(m *Meta, vars *varFlags, opts *upgrade.Options, root string) bool {
	varOpts, diags := vars.configOptionsIn(m, root)
	if diags.HasErrors() {
		printVarErrors(m, vars, diags)
		return false
	}
	opts.Dir, opts.Config = root, varOpts
	return true
}
