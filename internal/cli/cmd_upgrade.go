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
	if code, ok := parseFlags(m, fs, args); !ok {
		return code
	}
	mode, err := upgradeview.ParseMode(*constraints)
	if err != nil {
		return usageError(m, fs, errorDiag("Invalid -constraints", err.Error()))
	}
	po.Constraints, po.Targets, po.MissingTargetsOK = mode, fs.Args(), *recursive
	roots, ok := []string{""}, true
	if *recursive {
		if roots, ok = fleetRoots(m); !ok {
			return 1
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := upgradeOptions(m)
	u := &upgradeview.Upgrade{Stdout: m.Stdout, JSON: *asJSON, Recursive: *recursive, DryRun: *dryRun, Flavour: m.Flavour}
	for _, root := range roots {
		opts.Dir = root
		u.Diagnostics = func(d hcl.Diagnostics) { printUpgradeDiags(m, root, d) }
		u.Root(ctx, opts, po)
	}
	return u.ExitCode()
}
