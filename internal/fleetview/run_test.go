package fleetview

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/fleet"
)

// recordingLine is a StatusLine keeping the texts shown.
type recordingLine struct{ shown []string }

func (r *recordingLine) Show(text string) { r.shown = append(r.shown, text) }
func (r *recordingLine) Print(f func())   { f() }

// TestRun: each root's output under its header in root order, the live
// line carrying the packages and bytes the roots report, the table, the
// exit code; the roots run with the work context, not the one that stops
// starting them.
func TestRun(t *testing.T) {
	type key struct{}
	roots := []string{"a", "b", "c"}
	var stdout, stderr bytes.Buffer
	line := &recordingLine{}
	work := context.WithValue(context.Background(), key{}, "work")
	code := Run(context.Background(), work, roots, func(ctx context.Context, rt *fleet.Task) int {
		if ctx.Value(key{}) != "work" {
			t.Errorf("root %s: not run with the work context", rt.Root)
		}
		rt.Progress(1, 250_000)
		fmt.Fprintf(rt.Stdout, "output of %s\n", rt.Root)
		if rt.Root == "b" {
			fmt.Fprintf(rt.Stderr, "\nError: b is broken\n")
			return 1
		}
		rt.Progress(1, 250_000)
		return 0
	}, RunOptions{Command: Init, Parallelism: 2, Stdout: &stdout, Stderr: &stderr, Status: line, DataDir: t.TempDir()})
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	wantOut := "Initializing root module a...\noutput of a\n" +
		"Initializing root module b...\noutput of b\n" +
		"Initializing root module c...\noutput of c\n\n"
	if got := stdout.String(); !strings.HasPrefix(got, wantOut) || !strings.Contains(got, "\n1 root module failed:\n  b: b is broken\n") {
		t.Errorf("stdout:\n%s", got)
	}
	if got := stderr.String(); got != "\nError: b is broken\n" {
		t.Errorf("stderr %q", got)
	}
	if last := line.shown[len(line.shown)-1]; last != "  Root modules: 3/3 done, 5 packages, 1.2 MB" {
		t.Errorf("last status line %q", last)
	}
}
