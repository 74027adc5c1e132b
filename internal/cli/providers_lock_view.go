package cli

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/diagrender"
	"github.com/tfdeps/tfdeps/internal/initrun"
	"github.com/tfdeps/tfdeps/internal/livedisplay"
	"github.com/tfdeps/tfdeps/providerlock"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// lockView is how "tfdeps providers lock" shows what it does: OpenTofu's
// plain lines, or with -json the lines of its machine-readable UI.
type lockView interface {
	Fetching(p addrs.Provider, v versions.Version, pl addrs.Platform)
	// Retrieved: auth may be nil.
	Retrieved(p addrs.Provider, v versions.Version, pl addrs.Platform, auth *registry.AuthResult)
	// Warning shows a line the package's authentication asked to show.
	Warning(line string)
	Obtained(lines []providerlock.Obtained)
	// RootModule starts the lines of one root module (-recursive).
	RootModule(dir string)
	// Success ends a run that wrote the lock file; changed tells whether
	// anything in it changed.
	Success(changed bool)
	// Diagnostics shows diags, with source snippets from files (name to
	// parsed file) and those of the configuration files they name.
	Diagnostics(diags hcl.Diagnostics, files map[string]*hcl.File)
}

// newLockView is the view the output flags select: -json-into adds the
// JSON lines in the file to the human lines, which are live on a terminal
// (liveDisplayWanted).
func newLockView(m *Meta, jf *jsonFlags) lockView {
	var v lockView = &lockHumanView{m: m}
	switch {
	case jf.json:
		v = &lockJSONView{v: newBareJSONView(m)}
	case liveDisplayWanted(m, !m.Color):
		v = &lockLiveView{lockHumanView: &lockHumanView{m: m}, Display: livedisplay.OnTerminal(m.Stdout)}
	}
	if jf.into.file != nil {
		v = lockViews{v, &lockJSONView{v: jf.intoView(m), into: true}}
	}
	return v
}

// Texts of providers lock shared by both views.
const (
	lockObtainedFormat = "Obtained %s checksums for %s; %s"
	lockFetchingFormat = "Fetching %s %s for %s..."
	lockRootFormat     = "Locking providers for root module %s..."
)

var obtainedTexts = map[providerlock.ObtainedKind]string{
	providerlock.NewProvider:    "This was a new provider and the checksums for this platform are now tracked in the lock file",
	providerlock.AlreadyTracked: "All checksums for this platform were already tracked in the lock file",
	providerlock.Additional:     "Additional checksums for this platform are now tracked in the lock file",
}

// lockHumanView prints OpenTofu's (or Terraform's) plain lines.
type lockHumanView struct{ m *Meta }

func (h *lockHumanView) Fetching(p addrs.Provider, v versions.Version, pl addrs.Platform) {
	fmt.Fprintln(h.m.Stdout, "- "+fmt.Sprintf(lockFetchingFormat, p.ForDisplayIn(h.m.Flavour), v, pl))
}

func (h *lockHumanView) Warning(line string) { fmt.Fprintln(h.m.Stdout, line) }

func (h *lockHumanView) Retrieved(p addrs.Provider, v versions.Version, pl addrs.Platform, auth *registry.AuthResult) {
	fl, out := h.m.Flavour, h.m.Stdout
	if fl == flavour.Terraform {
		human, _ := initrun.TerraformAuthTexts(auth, h.m.Color)
		fmt.Fprintf(out, "- Retrieved %s %s for %s (%s)\n", p.ForDisplayIn(fl), v, pl, human)
		return
	}
	if auth.Signed() {
		keyID := fmt.Sprintf(diagrender.Colorize(", key ID [reset][bold]%s[reset]", h.m.Color), strings.Join(auth.KeyIDs(), ", "))
		fmt.Fprintf(out, "- Retrieved %s %s for %s (%s%s)\n", p.ForDisplayIn(fl), v, pl, auth.Summary(), keyID)
		return
	}
	fmt.Fprintf(out, "- Retrieved %s %s for %s (%s)\n", p.ForDisplayIn(fl), v, pl, auth.Summary())
}

func (h *lockHumanView) Obtained(lines []providerlock.Obtained) {
	for _, l := range lines {
		fmt.Fprintln(h.m.Stdout, "- "+fmt.Sprintf(lockObtainedFormat, l.Provider.ForDisplayIn(h.m.Flavour), l.Platform, obtainedTexts[l.Kind]))
	}
}

func (h *lockHumanView) RootModule(dir string) {
	fmt.Fprintln(h.m.Stdout, "\n"+fmt.Sprintf(lockRootFormat, dir))
}

func (h *lockHumanView) Success(changed bool) {
	m := h.m
	if changed {
		fmt.Fprintln(m.Stdout, diagrender.Colorize("\n[bold][green]Success![reset] [bold]"+m.Flavour.Product()+" has updated the lock file.[reset]", m.Color))
		fmt.Fprint(m.Stdout, "\nReview the changes in .terraform.lock.hcl and then commit to your\nversion control system to retain the new checksums.\n\n")
		return
	}
	fmt.Fprintln(m.Stdout, diagrender.Colorize("\n[bold][green]Success![reset] [bold]"+m.Flavour.Product()+" has validated the lock file and found no need for changes.[reset]", m.Color))
}

// Diagnostics prints each diagnostic followed by an extra newline.
func (h *lockHumanView) Diagnostics(diags hcl.Diagnostics, files map[string]*hcl.File) {
	if len(diags) == 0 {
		return
	}
	p := newDiagPrinter(h.m, diagrender.SnippetFiles(diags, files))
	p.ExtraNewline = true
	p.Print(diags)
}

// lockJSONView logs OpenTofu's JSON lines for providers lock (OpenTofu
// flavour only: Terraform's providers lock has no -json).
type lockJSONView struct {
	v *initrun.JSONView
	// into is set for the -json-into file, which does not get the plain
	// warning lines tofu prints to stdout.
	into bool
}

func (j *lockJSONView) info(format string, args ...any) {
	j.v.Log("info", fmt.Sprintf(format, args...))
}

func (j *lockJSONView) Fetching(p addrs.Provider, v versions.Version, pl addrs.Platform) {
	j.info(lockFetchingFormat, p.ForDisplay(), v, pl)
}

// Warning writes the line as it is: tofu prints the expired-key warning
// straight to stdout, between the JSON lines.
func (j *lockJSONView) Warning(line string) {
	if j.into {
		return
	}
	j.v.Println(line)
}

func (j *lockJSONView) Retrieved(p addrs.Provider, v versions.Version, pl addrs.Platform, auth *registry.AuthResult) {
	if auth.Signed() {
		j.info("Retrieved %s %s for %s (%s, key ID %s)", p.ForDisplay(), v, pl, auth.Summary(), strings.Join(auth.KeyIDs(), ", "))
		return
	}
	j.info("Retrieved %s %s for %s (%s)", p.ForDisplay(), v, pl, auth.Summary())
}

func (j *lockJSONView) Obtained(lines []providerlock.Obtained) {
	for _, l := range lines {
		j.info(lockObtainedFormat, l.Provider.ForDisplay(), l.Platform, obtainedTexts[l.Kind])
	}
}

// RootModule: -recursive is tfdeps' own; its line goes as a message too.
func (j *lockJSONView) RootModule(dir string) { j.info(lockRootFormat, dir) }

func (j *lockJSONView) Success(changed bool) {
	if changed {
		j.info("Success! OpenTofu has updated the lock file. Review the changes in .terraform.lock.hcl and then commit to your version control system to retain the new checksums")
		return
	}
	j.info("Success! OpenTofu has validated the lock file and found no need for changes.")
}

func (j *lockJSONView) Diagnostics(diags hcl.Diagnostics, files map[string]*hcl.File) {
	j.v.KeepFiles(files)
	j.v.Diagnostics(diags)
}

// lockViews shows everything in each of its views.
type lockViews []lockView

func (vs lockViews) Fetching(p addrs.Provider, v versions.Version, pl addrs.Platform) {
	for _, x := range vs {
		x.Fetching(p, v, pl)
	}
}

func (vs lockViews) Retrieved(p addrs.Provider, v versions.Version, pl addrs.Platform, auth *registry.AuthResult) {
	for _, x := range vs {
		x.Retrieved(p, v, pl, auth)
	}
}

func (vs lockViews) Warning(line string) {
	for _, x := range vs {
		x.Warning(line)
	}
}

func (vs lockViews) Obtained(lines []providerlock.Obtained) {
	for _, x := range vs {
		x.Obtained(lines)
	}
}

func (vs lockViews) RootModule(dir string) {
	for _, x := range vs {
		x.RootModule(dir)
	}
}

func (vs lockViews) Success(changed bool) {
	for _, x := range vs {
		x.Success(changed)
	}
}

func (vs lockViews) Diagnostics(diags hcl.Diagnostics, files map[string]*hcl.File) {
	for _, x := range vs {
		x.Diagnostics(diags, files)
	}
}
