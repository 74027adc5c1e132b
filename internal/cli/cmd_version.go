package cli

import (
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/lockfile"
)

const versionHelp = `
Usage: tfdeps [global options] version [options]

  Shows the version of the emulated product as "tofu version" shows it (or
  "terraform version" with -compat=terraform): its version, the platform
  and the provider versions the dependency lock file selects; then the
  tfdeps release. "tfdeps -v", "-version" and "--version", given anywhere,
  do the same.

Options:

  -json       Print the same as a JSON object: the keys of "tofu version
              -json" ("terraform version -json" with -compat=terraform)
              and "tfdeps_version". When the command fails (a command-line
              error), the object is {"diagnostics": [...]} instead.
`

// isVersionFlag reports whether a is one of the arguments that OpenTofu
// turns, wherever it stands, into the version command.
func isVersionFlag(a string) bool {
	return a == "-v" || a == "-version" || a == "--version"
}

// hasVersionFlag reports whether args hold a version flag.
func hasVersionFlag(args []string) bool {
	for _, a := range args {
		if isVersionFlag(a) {
			return true
		}
	}
	return false
}

// versionDocument is what "version -json" prints: the document of the
// emulated product's "version -json" (Terraform adds terraform_outdated,
// always false: tfdeps does not ask HashiCorp's checkpoint service), then
// tfdeps' own release.
type versionDocument struct {
	Version            string            `json:"terraform_version"`
	Platform           string            `json:"platform"`
	ProviderSelections map[string]string `json:"provider_selections"`
	Outdated           *bool             `json:"terraform_outdated,omitempty"`
	TfdepsVersion      string            `json:"tfdeps_version"`
}

// runVersion implements "tfdeps version". As OpenTofu's, it ignores
// positional arguments and the -v and -version flags (it runs with the
// whole command line when one of those was given to another command).
func runVersion(m *Meta, args []string) int {
	fs := newFlagSet(m, "version", versionHelp)
	asJSON := fs.Bool("json", false, "")
	fs.Bool("v", true, "")
	fs.Bool("version", true, "")
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	switch {
	case err == nil:
	case err == flag.ErrHelp:
		usage()
		return 0
	case m.Flavour == flavour.Terraform:
		// terraform version: its help, then the error, both on stderr.
		fmt.Fprintf(m.Stderr, "%s\nError parsing command-line flags: %s\n\n", strings.TrimSpace(versionHelp), err)
		if wantsJSON(args) {
			return printFailureDocument(m, hcl.Diagnostics{flagParseDiag(err)})
		}
		return 1
	case wantsJSON(args):
		diags := hcl.Diagnostics{flagParseDiag(err)}
		printVersionDiags(m, diags)
		return printFailureDocument(m, diags)
	default:
		code, _ := flagError(m, fs, err)
		return code
	}
	selections := lockedVersions(m)
	if *asJSON {
		doc := versionDocument{
			Version:            m.Version(),
			Platform:           m.Platform,
			ProviderSelections: selections,
			TfdepsVersion:      Version,
		}
		if m.Flavour == flavour.Terraform {
			outdated := false
			doc.Outdated = &outdated
		}
		if err := writeDocument(m, doc); err != nil {
			fmt.Fprintf(m.Stderr, "Error: %s\n", err)
			return 1
		}
		return 0
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s v%s\non %s\n", m.Product(), m.Version(), m.Platform)
	addrs := make([]string, 0, len(selections))
	for addr := range selections {
		addrs = append(addrs, addr)
	}
	sort.Strings(addrs)
	for _, addr := range addrs {
		if v := selections[addr]; v == "0.0.0" {
			fmt.Fprintf(&b, "+ provider %s (unversioned)\n", addr)
		} else {
			fmt.Fprintf(&b, "+ provider %s v%s\n", addr, v)
		}
	}
	fmt.Fprintf(&b, "emulated by tfdeps v%s\n", Version)
	fmt.Fprint(m.Stdout, b.String())
	return 0
}

// printVersionDiags prints the text form of a version -json failure on
// stderr.
func printVersionDiags(m *Meta, diags hcl.Diagnostics) {
	p := newDiagPrinter(m, nil)
	p.Stdout = m.Stderr
	p.ExtraNewline = true
	p.Print(diags)
}

// lockedVersions maps each provider the lock file selects to its version,
// as the version command lists them: none when there is no lock file or
// it has errors (the command does not report them).
func lockedVersions(m *Meta) map[string]string {
	out := map[string]string{}
	locks, _, diags := lockfile.ReadFile(lockFileName, m.lockReadOptions())
	if diags.HasErrors() || locks == nil {
		return out
	}
	for _, lock := range locks.Providers() {
		out[lock.Provider().String()] = lock.Version().String()
	}
	return out
}
