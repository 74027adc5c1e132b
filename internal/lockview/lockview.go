// Package lockview shows what "tfdeps providers lock" and "tfdeps providers
// mirror" do: OpenTofu's (or Terraform's) plain lines, the lines of
// OpenTofu's machine-readable UI for providers lock -json, and on a
// terminal a status line with the packages being downloaded below the
// plain lines.
package lockview

import (
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/diagrender"
	"github.com/tfdeps/tfdeps/internal/initrun"
	"github.com/tfdeps/tfdeps/providerlock"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// View is how providers lock shows its progress and outcome.
type View interface {
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

// The texts both kinds of view share.
const (
	obtainedFormat = "Obtained %s checksums for %s; %s"
	fetchingFormat = "Fetching %s %s for %s..."
	rootFormat     = "Locking providers for root module %s..."
)

var obtainedTexts = map[providerlock.ObtainedKind]string{
	providerlock.NewProvider:    "This was a new provider and the checksums for this platform are now tracked in the lock file",
	providerlock.AlreadyTracked: "All checksums for this platform were already tracked in the lock file",
	providerlock.Additional:     "Additional checksums for this platform are now tracked in the lock file",
}

// Human prints the plain lines of the emulated product.
type Human struct {
	Out     io.Writer
	Flavour flavour.Flavour
	Color   bool
	// PrintDiagnostics prints diagnostics with the source snippets of
	// files, each followed by an extra newline.
	PrintDiagnostics func(diags hcl.Diagnostics, files map[string]*hcl.File)
}

func (h *Human) Fetching(p addrs.Provider, v versions.Version, pl addrs.Platform) {
	fmt.Fprintln(h.Out, "- "+fmt.Sprintf(fetchingFormat, p.ForDisplayIn(h.Flavour), v, pl))
}

func (h *Human) Warning(line string) { fmt.Fprintln(h.Out, line) }

func (h *Human) Retrieved(p addrs.Provider, v versions.Version, pl addrs.Platform, auth *registry.AuthResult) {
	fl, out := h.Flavour, h.Out
	if fl == flavour.Terraform {
		human, _ := initrun.TerraformAuthTexts(auth, h.Color)
		fmt.Fprintf(out, "- Retrieved %s %s for %s (%s)\n", p.ForDisplayIn(fl), v, pl, human)
		return
	}
	if auth.Signed() {
		keyID := fmt.Sprintf(diagrender.Colorize(", key ID [reset][bold]%s[reset]", h.Color), strings.Join(auth.KeyIDs(), ", "))
		fmt.Fprintf(out, "- Retrieved %s %s for %s (%s%s)\n", p.ForDisplayIn(fl), v, pl, auth.Summary(), keyID)
		return
	}
	fmt.Fprintf(out, "- Retrieved %s %s for %s (%s)\n", p.ForDisplayIn(fl), v, pl, auth.Summary())
}

func (h *Human) Obtained(lines []providerlock.Obtained) {
	for _, l := range lines {
		fmt.Fprintln(h.Out, "- "+fmt.Sprintf(obtainedFormat, l.Provider.ForDisplayIn(h.Flavour), l.Platform, obtainedTexts[l.Kind]))
	}
}

func (h *Human) RootModule(dir string) {
	fmt.Fprintln(h.Out, "\n"+fmt.Sprintf(rootFormat, dir))
}

func (h *Human) Success(changed bool) {
	product := h.Flavour.Product()
	if changed {
		fmt.Fprintln(h.Out, diagrender.Colorize("\n[bold][green]Success![reset] [bold]"+product+" has updated the lock file.[reset]", h.Color))
		fmt.Fprint(h.Out, "\nReview the changes in .terraform.lock.hcl and then commit to your\nversion control system to retain the new checksums.\n\n")
		return
	}
	fmt.Fprintln(h.Out, diagrender.Colorize("\n[bold][green]Success![reset] [bold]"+product+" has validated the lock file and found no need for changes.[reset]", h.Color))
}

func (h *Human) Diagnostics(diags hcl.Diagnostics, files map[string]*hcl.File) {
	if len(diags) == 0 || h.PrintDiagnostics == nil {
		return
	}
	h.PrintDiagnostics(diags, files)
}

// JSON logs OpenTofu's JSON lines for providers lock (OpenTofu flavour
// only: Terraform's providers lock has no -json).
type JSON struct {
	V *initrun.JSONView
	// Into is set for the -json-into file, which does not get the plain
	// warning lines tofu prints to stdout.
	Into bool
}

func (j *JSON) info(format string, args ...any) {
	j.V.Log("info", fmt.Sprintf(format, args...))
}

func (j *JSON) Fetching(p addrs.Provider, v versions.Version, pl addrs.Platform) {
	j.info(fetchingFormat, p.ForDisplay(), v, pl)
}

// Warning writes the line as it is: tofu prints the expired-key warning
// straight to stdout, between the JSON lines.
func (j *JSON) Warning(line string) {
	if j.Into {
		return
	}
	j.V.Println(line)
}

func (j *JSON) Retrieved(p addrs.Provider, v versions.Version, pl addrs.Platform, auth *registry.AuthResult) {
	if auth.Signed() {
		j.info("Retrieved %s %s for %s (%s, key ID %s)", p.ForDisplay(), v, pl, auth.Summary(), strings.Join(auth.KeyIDs(), ", "))
		return
	}
	j.info("Retrieved %s %s for %s (%s)", p.ForDisplay(), v, pl, auth.Summary())
}

func (j *JSON) Obtained(lines []providerlock.Obtained) {
	for _, l := range lines {
		j.info(obtainedFormat, l.Provider.ForDisplay(), l.Platform, obtainedTexts[l.Kind])
	}
}

// RootModule: -recursive is tfdeps' own; its line goes as a message too.
func (j *JSON) RootModule(dir string) { j.info(rootFormat, dir) }

func (j *JSON) Success(changed bool) {
	if changed {
		j.info("Success! OpenTofu has updated the lock file. Review the changes in .terraform.lock.hcl and then commit to your version control system to retain the new checksums")
		return
	}
	j.info("Success! OpenTofu has validated the lock file and found no need for changes.")
}

func (j *JSON) Diagnostics(diags hcl.Diagnostics, files map[string]*hcl.File) {
	j.V.KeepFiles(files)
	j.V.Diagnostics(diags)
}

// Views shows everything in each of its views.
type Views []View

func (vs Views) Fetching(p addrs.Provider, v versions.Version, pl addrs.Platform) {
	for _, x := range vs {
		x.Fetching(p, v, pl)
	}
}

func (vs Views) Retrieved(p addrs.Provider, v versions.Version, pl addrs.Platform, auth *registry.AuthResult) {
	for _, x := range vs {
		x.Retrieved(p, v, pl, auth)
	}
}

func (vs Views) Warning(line string) {
	for _, x := range vs {
		x.Warning(line)
	}
}

func (vs Views) Obtained(lines []providerlock.Obtained) {
	for _, x := range vs {
		x.Obtained(lines)
	}
}

func (vs Views) RootModule(dir string) {
	for _, x := range vs {
		x.RootModule(dir)
	}
}

func (vs Views) Success(changed bool) {
	for _, x := range vs {
		x.Success(changed)
	}
}

func (vs Views) Diagnostics(diags hcl.Diagnostics, files map[string]*hcl.File) {
	for _, x := range vs {
		x.Diagnostics(diags, files)
	}
}
