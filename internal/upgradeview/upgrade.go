package upgradeview

import (
	"context"
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/upgrade"
)

// UpgradeUsage is "tfdeps upgrade -help".
const UpgradeUsage = `
Usage: tfdeps [global options] upgrade [options] [PROVIDER|MODULE_PATH...]

  Moves providers and modules of the configuration in the working directory
  to newer versions. With PROVIDER (an address such as acme/foo) or
  MODULE_PATH (module.a.module.b) arguments, only those; otherwise all.
  At the end, what changed, one line each:

    acme/foo 1.0.0 → 2.0.0 (versions.tf:6: "~> 1.0" → "~> 2.0")

  Run it after "init": the installed modules and the lock file are read.
  Nothing is written on errors (exit status 1).

Options:

  -providers            Upgrade providers (with -modules: both; neither: both).

  -modules              Upgrade registry modules.

  -constraints=keep     Leave every version constraint as written: the lock
                        file moves to the newest versions the constraints
                        allow and modules are reinstalled at theirs, as
                        "init -upgrade" does (the default).

  -constraints=bump     First rewrite each version constraint of the root
                        module that excludes the newest version so that it
                        allows it, keeping its operator and precision
                        ("~> 1.0" → "~> 2.0", "~> 1.2.3" → "~> 2.0.0", an
                        exact pin → the new version, ">= 1.0, < 2.0" →
                        ">= 1.0, < 3.0"); only that string changes in the
                        file. A constraint written in another module (a
                        registry or git module) is never rewritten: it is
                        named as what limits the upgrade.

  -recursive            Every root module at or below the working directory
                        (found as "providers lock -recursive" finds them),
                        each provider's and module's versions asked once for
                        all.

  -dry-run              Print what would change; write nothing.

  -json                 Print one JSON document per root module:
                        {"dry_run","changes":[{"provider"|"module","from",
                        "to","edits":[{"file","line","old","new"}]}],
                        "limits":[...]}.
`

// ParseMode reads -constraints.
func ParseMode(s string) (upgrade.Mode, error) {
	switch s {
	case "keep":
		return upgrade.KeepConstraints, nil
	case "bump":
		return upgrade.BumpConstraints, nil
	}
	return 0, fmt.Errorf("-constraints must be keep or bump, not %q", s)
}

// Upgrade runs and renders "upgrade", root by root.
type Upgrade struct {
	Stdout    io.Writer
	JSON      bool
	Recursive bool
	DryRun    bool
	Flavour   flavour.Flavour
	// Diagnostics shows diagnostics (to stderr).
	Diagnostics func(hcl.Diagnostics)

	failed     bool
	shown      int
	shownDiags map[string]bool
}

// Root upgrades the root module opts.Dir as plan says and shows the
// result.
func (u *Upgrade) Root(ctx context.Context, opts upgrade.Options, po upgrade.PlanOptions) {
	if other := upgrade.OtherFlavourLockFile(opts.Dir, opts.Flavour); other != "" && !u.DryRun {
		// Checked first: the other product's defaults may not even load
		// the installed modules.
		u.fail(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Lock file of the other product", Detail: other + "."}})
		return
	}
	rep, diags := upgrade.Outdated(ctx, opts)
	if rep == nil || diags.HasErrors() {
		u.fail(diags)
		return
	}
	u.show(diags)
	pl, err := rep.Plan(po)
	if err != nil {
		u.fail(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot upgrade", Detail: err.Error()}})
		return
	}
	if !u.DryRun {
		diags, err := pl.Apply(ctx)
		if err != nil {
			u.fail(diags)
			return
		}
		u.show(diags)
	}
	if u.JSON {
		u.writeJSON(opts.Dir, pl)
		return
	}
	if u.Recursive {
		rootHeader(u.Stdout, opts.Dir, &u.shown)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(u.Stdout, "Note: %s.\n", n)
	}
	WritePlan(u.Stdout, pl, u.Flavour, u.DryRun)
}

// Failed records a root that failed before it could be upgraded (its
// diagnostics shown by the caller).
func (u *Upgrade) Failed() { u.failed = true }

func (u *Upgrade) fail(diags hcl.Diagnostics) {
	u.failed = true
	u.show(diags)
}

// show passes diags on, without those already shown (a registry's
// warnings come back from the install).
func (u *Upgrade) show(diags hcl.Diagnostics) {
	if u.shownDiags == nil {
		u.shownDiags = map[string]bool{}
	}
	var out hcl.Diagnostics
	for _, d := range diags {
		key := fmt.Sprintf("%d\x00%s\x00%s", d.Severity, d.Summary, d.Detail)
		if !u.shownDiags[key] {
			u.shownDiags[key] = true
			out = append(out, d)
		}
	}
	if len(out) > 0 {
		u.Diagnostics(out)
	}
}

// ExitCode is 1 after any error, else 0.
func (u *Upgrade) ExitCode() int {
	if u.failed {
		return 1
	}
	return 0
}

// WritePlan writes one line per change, then the limits.
func WritePlan(w io.Writer, pl *upgrade.Plan, f flavour.Flavour, dryRun bool) {
	if dryRun {
		fmt.Fprintln(w, "Dry run: nothing was written.")
	}
	for _, c := range pl.Changes {
		fmt.Fprintln(w, ChangeLine(c, f))
	}
	for _, l := range pl.Limits {
		fmt.Fprintf(w, "Limit: %s.\n", l)
	}
	if len(pl.Changes) == 0 {
		fmt.Fprintln(w, "Nothing to upgrade: everything selected is at the newest version its constraints allow.")
	}
}

// ChangeLine is one change in words:
// acme/foo 1.0.0 → 2.0.0 (versions.tf:6: "~> 1.0" → "~> 2.0").
func ChangeLine(c *upgrade.Change, f flavour.Flavour) string {
	name := c.Module
	if name == "" {
		name = c.Provider.ForDisplayIn(f)
	}
	from := c.From
	if from == "" {
		from = "none"
	}
	s := fmt.Sprintf("%s %s → %s", name, from, c.To)
	for _, e := range c.Edits {
		s += fmt.Sprintf(" (%s:%d: %q → %q)", e.File, e.Line, e.Old, e.New)
	}
	return s
}

// UpgradeDocument is the -json document of one root module.
type UpgradeDocument struct {
	Root    *string      `json:"root,omitempty"`
	DryRun  bool         `json:"dry_run"`
	Changes []ChangeJSON `json:"changes"`
	Limits  []string     `json:"limits"`
}

// ChangeJSON is one change of the -json document.
type ChangeJSON struct {
	Provider string        `json:"provider,omitempty"`
	Module   string        `json:"module,omitempty"`
	From     *string       `json:"from"`
	To       string        `json:"to"`
	Edits    []upgradeEdit `json:"edits"`
}

type upgradeEdit struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

func (u *Upgrade) writeJSON(dir string, pl *upgrade.Plan) {
	doc := UpgradeDocument{DryRun: u.DryRun, Changes: []ChangeJSON{}, Limits: append([]string{}, pl.Limits...)}
	if u.Recursive {
		doc.Root = &dir
	}
	for _, c := range pl.Changes {
		cj := ChangeJSON{Module: c.Module, From: str(c.From), To: c.To, Edits: []upgradeEdit{}}
		if c.Module == "" {
			cj.Provider = c.Provider.String()
		}
		for _, e := range c.Edits {
			cj.Edits = append(cj.Edits, upgradeEdit{File: e.File, Line: e.Line, Old: e.Old, New: e.New})
		}
		doc.Changes = append(doc.Changes, cj)
	}
	writeJSON(u.Stdout, doc)
}
