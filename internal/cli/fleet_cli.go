package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/fleet"
	"github.com/tfdeps/tfdeps/internal/fleetview"
	"github.com/tfdeps/tfdeps/internal/livedisplay"
)

// What init, get and lock verify share with -recursive: every root
// module at or below the working directory (fleet.Roots) run through the
// command's own work for one directory, in parallel (-parallelism), each
// root's output held back and printed in root order under a header line
// (package fleetview), then a table of the roots (or, with -json, one
// line per root and a summary line). A failing root does not stop the
// others; the command exits 1 when any failed.

// fleetFlags are -recursive and -parallelism (0: one root per CPU).
type fleetFlags struct {
	recursive   bool
	parallelism int
}

func addFleetFlags(fs *flag.FlagSet) *fleetFlags {
	f := &fleetFlags{}
	fs.BoolVar(&f.recursive, "recursive", false, "")
	fs.IntVar(&f.parallelism, "parallelism", 0, "")
	return f
}

// fleetRoots are the root modules at or below the working directory;
// false when they could not be listed (the error printed).
func fleetRoots(m *Meta) ([]string, bool) {
	roots, err := fleet.Roots(".")
	if err != nil {
		newDiagPrinter(m, nil).Print(hcl.Diagnostics{errorDiag("Failed to find root modules", err.Error())})
		return nil, false
	}
	return roots, true
}

// fleetRun is how a -recursive command shows its roots.
type fleetRun struct {
	command     fleetview.Command
	parallelism int
	// json: the run prints -json lines; noColor is the command's
	// -no-color.
	json, noColor bool
}

// run calls fn for each root and shows the roots and the table
// (fleetview.Run); it returns the exit code.
func (f fleetRun) run(ctx context.Context, m *Meta, roots []string, fn fleetview.RootFunc) int {
	var status fleetview.StatusLine
	if !f.json && liveDisplayWanted(m, f.noColor) {
		status = livedisplay.StatusOnTerminal(m.Stdout)
	}
	work, stop := finishing(ctx, m)
	defer stop()
	return fleetview.Run(ctx, work, roots, fn, fleetview.RunOptions{
		Command: f.command, Parallelism: f.parallelism, JSON: f.json, Color: !f.noColor && m.Color,
		Stdout: m.Stdout, Stderr: m.Stderr, Status: status, DataDir: m.Getenv("TF_DATA_DIR"),
	})
}

// rootMeta is m printing to stdout and stderr, for one root's run.
func rootMeta(m *Meta, stdout, stderr io.Writer) *Meta {
	rm := *m
	rm.Stdout, rm.Stderr = stdout, stderr
	return &rm
}

// recursiveUsageError reports a flag that -recursive does not combine with.
func recursiveUsageError(m *Meta, detail string) int {
	newDiagPrinter(m, nil).Print(hcl.Diagnostics{errorDiag("Invalid combination of options", detail)})
	return 1
}

// absFrom makes a path given on the command line absolute from the
// working directory, so that every root finds the same file.
func absFrom(m *Meta) (func(string) string, error) {
	wd, err := m.Getwd()
	if err != nil {
		return nil, err
	}
	return func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(wd, p)
	}, nil
}

// absVarFiles makes the -var-file names absolute (absFrom).
func absVarFiles(m *Meta, opts []config.VarOption) error {
	abs, err := absFrom(m)
	if err != nil {
		return err
	}
	for i, v := range opts {
		if v.File {
			opts[i].Value = abs(v.Value)
		}
	}
	return nil
}

// finishing is the context the roots run with. An interrupt (ctx
// cancelled) stops the run from starting further roots but lets the
// roots under way finish, so that every root is left either as it was
// or complete; a second interrupt cancels the context returned, stopping
// those roots as an interrupt stops a single init (which may leave a
// root half initialised, as it does). stop releases the signal.
func finishing(ctx context.Context, m *Meta) (work context.Context, stop func()) {
	work, cancel := context.WithCancel(context.WithoutCancel(ctx))
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt)
	go func() {
		select {
		case <-ctx.Done():
			fmt.Fprintln(m.Stderr, fleetview.InterruptText)
		case <-work.Done():
			return
		}
		for n := 0; n < 2; n++ { // the first is the one that cancelled ctx
			select {
			case <-sig:
			case <-work.Done():
				return
			}
		}
		cancel()
	}()
	return work, func() { signal.Stop(sig); cancel() }
}
