package upgradeview

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/upgrade"
	"github.com/tfdeps/tfdeps/versions"
)

// OutdatedUsage is "tfdeps outdated -help".
const OutdatedUsage = `
Usage: tfdeps [global options] outdated [options]

  Shows, for each provider the configuration in the working directory
  requires (through the whole installed module tree), its combined version
  constraints, the version the lock file selects, the newest version the
  constraints allow and the newest version available (a prerelease only
  when the locked version is one); and for each module call with a registry
  source, its version constraint, the version installed, the newest
  allowed and the newest. Modules from other sources are listed as "not
  from a registry". Each provider's and module's versions are asked once;
  nothing is downloaded or written. Run it after "init": the installed
  modules are read.

Options:

  -json                 Print one JSON document:
                        {"providers":[{"provider","constraints","locked",
                        "newest_allowed","newest","required_by"}],
                        "modules":[{"path","source","constraints",
                        "installed","newest_allowed","newest"}]}.

  -recursive            Every root module at or below the working directory
                        (found as "providers lock -recursive" finds them),
                        each provider's and module's versions asked once for
                        all; with -json, one document per line, with "root".

  -detailed-exitcode    Exit 0 when nothing newer exists, 2 when a provider
                        or module has a newer version (or no selection), 1
                        on errors. Without it: 0, or 1 on errors.
`

// Outdated renders the reports of one run of "outdated", root by root.
type Outdated struct {
	Stdout    io.Writer
	JSON      bool
	Recursive bool
	Flavour   flavour.Flavour

	failed, newer bool
	shown         int
}

// Root shows the report of the root module in dir ("" for the working
// directory); rep is nil when the root failed to load (its diagnostics
// already shown), failed when anything failed.
func (o *Outdated) Root(dir string, rep *upgrade.Report, failed bool) {
	o.failed = o.failed || failed
	if rep == nil {
		return
	}
	o.newer = o.newer || rep.Outdated()
	if o.JSON {
		doc := Document(rep)
		if o.Recursive {
			doc.Root = &dir
		}
		writeJSON(o.Stdout, doc)
		return
	}
	if o.Recursive {
		rootHeader(o.Stdout, dir, &o.shown)
	}
	WriteTable(o.Stdout, rep, o.Flavour)
}

// ExitCode is the run's exit code: 1 after errors; with detailed, 2 when
// something newer exists.
func (o *Outdated) ExitCode(detailed bool) int {
	switch {
	case o.failed:
		return 1
	case detailed && o.newer:
		return 2
	}
	return 0
}

// OutdatedDocument is the -json document.
type OutdatedDocument struct {
	Root      *string        `json:"root,omitempty"`
	Providers []ProviderJSON `json:"providers"`
	Modules   []ModuleJSON   `json:"modules"`
}

// ProviderJSON is one provider of the -json document.
type ProviderJSON struct {
	Provider      string   `json:"provider"`
	Constraints   *string  `json:"constraints"`
	Locked        *string  `json:"locked"`
	NewestAllowed *string  `json:"newest_allowed"`
	Newest        *string  `json:"newest"`
	RequiredBy    []string `json:"required_by"`
}

// ModuleJSON is one module call of the -json document.
type ModuleJSON struct {
	Path          string  `json:"path"`
	Source        string  `json:"source"`
	Constraints   *string `json:"constraints"`
	Installed     *string `json:"installed"`
	NewestAllowed *string `json:"newest_allowed"`
	Newest        *string `json:"newest"`
}

// Document is rep as the -json document (addresses in canonical form,
// absent values null, the root module as "").
func Document(rep *upgrade.Report) OutdatedDocument {
	doc := OutdatedDocument{Providers: []ProviderJSON{}, Modules: []ModuleJSON{}}
	for _, p := range rep.Providers {
		doc.Providers = append(doc.Providers, ProviderJSON{
			Provider: p.Provider.String(), Constraints: str(p.Constraints.String()),
			Locked: ver(p.Locked), NewestAllowed: ver(p.NewestAllowed), Newest: ver(p.Newest),
			RequiredBy: append([]string{}, p.RequiredBy...),
		})
	}
	for _, m := range rep.Modules {
		doc.Modules = append(doc.Modules, ModuleJSON{
			Path: m.Path, Source: m.Source, Constraints: str(m.Constraints),
			Installed: str(m.Installed), NewestAllowed: str(m.NewestAllowed), Newest: str(m.Newest),
		})
	}
	return doc
}

// WriteTable writes rep as two tables, providers then modules, with the
// flavour's display forms of the addresses.
func WriteTable(w io.Writer, rep *upgrade.Report, f flavour.Flavour) {
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "Note: %s.\n", n)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if len(rep.Providers) > 0 {
		fmt.Fprintln(tw, "PROVIDER\tCONSTRAINTS\tLOCKED\tNEWEST ALLOWED\tNEWEST\tREQUIRED BY")
		for _, p := range rep.Providers {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", p.Provider.ForDisplayIn(f), dash(p.Constraints.String()),
				dash(verText(p.Locked)), dash(verText(p.NewestAllowed)), dash(verText(p.Newest)), requiredBy(p.RequiredBy))
		}
	}
	tw.Flush()
	if len(rep.Modules) > 0 {
		if len(rep.Providers) > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(tw, "MODULE\tSOURCE\tCONSTRAINTS\tINSTALLED\tNEWEST ALLOWED\tNEWEST")
		for _, m := range rep.Modules {
			if !m.Registry {
				fmt.Fprintf(tw, "%s\t%s\tnot from a registry\n", m.Path, m.SourceForDisplayIn(f))
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", m.Path, m.SourceForDisplayIn(f), dash(m.Constraints),
				dash(m.Installed), dash(m.NewestAllowed), dash(m.Newest))
		}
		tw.Flush()
	}
	switch {
	case len(rep.Providers) == 0 && len(rep.Modules) == 0:
		fmt.Fprintln(w, "The configuration requires no providers and calls no modules.")
	case rep.Outdated():
		fmt.Fprintln(w, "\nNewer versions are available.")
	default:
		fmt.Fprintln(w, "\nEverything is at its newest version.")
	}
}

func requiredBy(mods []string) string {
	out := make([]string, len(mods))
	for i, m := range mods {
		out[i] = m
		if m == "" {
			out[i] = "root"
		}
	}
	return strings.Join(out, ", ")
}

func str(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func ver(v *versions.Version) *string {
	if v == nil {
		return nil
	}
	return str(v.String())
}

func verText(v *versions.Version) string {
	if v == nil {
		return ""
	}
	return v.String()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// writeJSON writes v as one line of JSON, without HTML escapes.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// rootHeader introduces a root's output in a -recursive run, after an
// empty line from the previous root's.
func rootHeader(w io.Writer, dir string, shown *int) {
	if *shown > 0 {
		fmt.Fprintln(w)
	}
	*shown++
	fmt.Fprintf(w, "Root module %s:\n", dir)
}
