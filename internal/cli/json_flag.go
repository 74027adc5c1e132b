package cli

import (
	"flag"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// addJSONFlag registers -json on fs in the OpenTofu flavour, where "tofu
// get" and "tofu providers lock" accept it. Terraform's commands have no
// such flag: in that flavour it stays undefined and is refused as any
// unknown flag is.
func addJSONFlag(m *Meta, fs *flag.FlagSet) *bool {
	on := new(bool)
	if m.Flavour != flavour.Terraform {
		fs.BoolVar(on, "json", false, "")
	}
	return on
}

// parseFlagsJSON is parseFlags for a command with -json. A parse error
// once -json was read (the flag package stops at the first bad argument)
// is reported as OpenTofu's JSON view reports it: the version line, the
// diagnostic, no help text, exit status 1. In the Terraform flavour, a
// parse error is the diagnostic alone, as terraform shows it for these
// commands. Otherwise as parseFlags.
func parseFlagsJSON(m *Meta, fs *flag.FlagSet, args []string, json *bool) (int, bool) {
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	switch {
	case err == nil:
		return 0, true
	case err == flag.ErrHelp:
	case *json:
		newBareJSONView(m).Diagnostics(hcl.Diagnostics{errorDiag("Failed to parse command-line flags", err.Error())})
		return 1, false
	case m.Flavour == flavour.Terraform:
		// terraform get and terraform providers lock show the diagnostic
		// without their help text (so refuse -json so).
		p := newDiagPrinter(m, nil)
		p.extraNewline = true
		p.Print(hcl.Diagnostics{errorDiag("Failed to parse command-line flags", err.Error())})
		return 1, false
	}
	return flagError(m, fs, err)
}

// newBareJSONView is the JSON view of get and providers lock: OpenTofu's
// lines exactly, without tfdeps' own "tfdeps" key.
func newBareJSONView(m *Meta) *jsonView {
	v := newJSONView(m)
	v.bare = true
	return v
}

// keepFiles makes the view's snippets use files (name to parsed file).
func (v *jsonView) keepFiles(files map[string]*hcl.File) {
	for name, f := range files {
		v.keepSource(f, name)
	}
}
