package fleetview

import (
	"bytes"
	"context"
	"io"
	"time"

	"github.com/tfdeps/tfdeps/fleet"
)

// RunOptions are how a -recursive command shows its roots.
type RunOptions struct {
	Command     Command
	Parallelism int
	// JSON: the run prints -json lines (each root prints its own, read
	// for its first error, not shown).
	JSON bool
	// Color: headers in bold.
	Color bool
	// Stdout and Stderr are the command's writers.
	Stdout, Stderr io.Writer
	// Status, when set, is the terminal's status line, which then shows
	// the live fleet line (roots done, packages, bytes).
	Status StatusLine
	// DataDir is TF_DATA_DIR ("": .terraform), for the table's counts.
	DataDir string
}

// RootFunc does the command's work in one root as the command alone does
// there, printing to t.Stdout and t.Stderr and reporting progress with
// t.Progress, and returns its exit code.
type RootFunc func(ctx context.Context, t *fleet.Task) int

// Run runs fn in each root (package fleet), showing each root's output
// under its header in root order, the live line, then the table (or,
// with JSON, one line per root and a summary line); it returns the exit
// code: 1 when a root failed or was not run. Roots start until ctx is
// cancelled; the roots' functions run with work.
func Run(ctx, work context.Context, roots []string, fn RootFunc, o RunOptions) int {
	var live *Live
	if !o.JSON && o.Status != nil {
		live = NewLive(o.Status, len(roots))
	}
	now := time.Now
	release := func(r fleet.RootResult) {
		show := func() {
			if o.JSON {
				_ = JSONRoot(o.Stdout, r, now())
				return
			}
			_ = Release(o.Stdout, o.Stderr, o.Command, r, o.Color)
		}
		if live != nil {
			live.Print(show)
			return
		}
		show()
	}
	var events func(fleet.Event)
	if live != nil {
		events = live.Event
	}
	sum := fleet.Run(ctx, roots, func(_ context.Context, t *fleet.Task) fleet.Outcome {
		var stdout, stderr bytes.Buffer // kept to find the first error
		rt := *t
		rt.Stdout, rt.Stderr = io.MultiWriter(t.Stdout, &stdout), io.MultiWriter(t.Stderr, &stderr)
		code := fn(work, &rt)
		var out fleet.Outcome
		out.Providers, out.Modules = Counts(t.Root, o.DataDir)
		if code != 0 {
			out.Err = FirstError(o.Command, stderr.Bytes(), stdout.Bytes(), o.JSON)
		}
		return out
	}, fleet.Options{Parallelism: o.Parallelism, Release: release, Events: events})
	if live != nil {
		live.Print(func() {})
	}
	if o.JSON {
		_ = JSONSummary(o.Stdout, sum, now())
	} else {
		_, _ = io.WriteString(o.Stdout, "\n")
		_ = Table(o.Stdout, sum)
	}
	if !sum.OK() {
		return 1
	}
	return 0
}
