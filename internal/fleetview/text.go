package fleetview

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tfdeps/tfdeps/fleet"
)

// Command names what a run does to each root, for the header line.
type Command int

const (
	Init Command = iota
	Get
	LockVerify
)

// headerFormats are the header lines, in the words of providers lock
// -recursive's "Locking providers for root module DIR...".
var headerFormats = map[Command]string{
	Init:       "Initializing root module %s...",
	Get:        "Downloading modules for root module %s...",
	LockVerify: "Verifying the lock file of root module %s...",
}

// Header writes the line that comes before a root's output, bold when
// colour is on.
func Header(w io.Writer, c Command, root string, color bool) error {
	line := fmt.Sprintf(headerFormats[c], root)
	if color {
		line = "\x1b[1m" + line + "\x1b[0m"
	}
	_, err := fmt.Fprintln(w, line)
	return err
}

// Release writes a root's header and then its output, stdout's part to
// stdout and stderr's to stderr, as the root printed them.
func Release(stdout, stderr io.Writer, c Command, r fleet.RootResult, color bool) error {
	if r.Status == fleet.NotRun {
		return nil
	}
	if err := Header(stdout, c, r.Root, color); err != nil {
		return err
	}
	return r.Output.WriteTo(stdout, stderr)
}

// Table writes the final table (root, result, providers, modules,
// seconds), then every failed root with its first error and every root
// not run, then a line of totals.
func Table(w io.Writer, s *fleet.Summary) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "ROOT\tRESULT\tPROVIDERS\tMODULES\tSECONDS")
	for _, r := range s.Results {
		if r.Status == fleet.NotRun {
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\n", r.Root, r.Status)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.1f\n", r.Root, r.Status, r.Providers, r.Modules, r.Duration.Seconds())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var b strings.Builder
	if failed := s.Failed(); len(failed) > 0 {
		fmt.Fprintf(&b, "\n%s failed:\n", plural(len(failed), "root module"))
		for _, r := range failed {
			fmt.Fprintf(&b, "  %s: %s\n", r.Root, firstLine(r.Err))
		}
	}
	if notRun := s.NotRun(); len(notRun) > 0 {
		fmt.Fprintf(&b, "\n%s not run (interrupted):\n", plural(len(notRun), "root module"))
		for _, r := range notRun {
			fmt.Fprintf(&b, "  %s\n", r.Root)
		}
	}
	ok := len(s.Results) - len(s.Failed()) - len(s.NotRun())
	fmt.Fprintf(&b, "\n%d of %s succeeded in %.1fs.\n", ok, plural(len(s.Results), "root module"), s.Elapsed.Seconds())
	_, err := io.WriteString(w, b.String())
	return err
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// firstLine is an error's first line (diagnostics run over several).
func firstLine(err error) string {
	if err == nil {
		return ""
	}
	s := strings.TrimSpace(err.Error())
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

// StatusText is the live status line for a run so far.
func StatusText(done, total, packages int, bytes int64) string {
	return fmt.Sprintf("  Root modules: %d/%d done, %s, %.1f MB", done, total, plural(packages, "package"), float64(bytes)/1e6)
}

// InterruptText is printed (to stderr) when a run is interrupted: the
// roots under way finish, no other starts.
const InterruptText = "\nInterrupt received: the root modules under way finish, no others start.\n" +
	"Interrupt again to stop those under way too (which may leave them half initialised)."
