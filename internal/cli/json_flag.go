package cli

import (
	"flag"
	"io"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/initrun"
)

// jsonFlags are the output flags "tofu get" and "tofu providers lock"
// accept: -json (the machine-readable UI on stdout instead of the human
// lines) and -json-into=FILE (the human lines on stdout and the same JSON
// lines in FILE). Terraform's commands have neither: in that flavour they
// stay undefined and are refused as any unknown flag is.
type jsonFlags struct {
	json bool
	into jsonIntoFlag
}

func addJSONFlags(m *Meta, fs *flag.FlagSet) *jsonFlags {
	j := &jsonFlags{}
	if m.Flavour != flavour.Terraform {
		fs.BoolVar(&j.json, "json", false, "")
	}
	j.into.register(m.Flavour, fs)
	return j
}

// parse is parseFlags for a command with jsonFlags. A parse error once
// -json was read (the flag package stops at the first bad argument) is
// reported as OpenTofu's JSON view reports it: the version line, the
// diagnostic, no help text, exit status 1. In the Terraform flavour, a
// parse error is the diagnostic alone, as terraform shows it for these
// commands. Otherwise as parseFlags.
func (j *jsonFlags) parse(m *Meta, fs *flag.FlagSet, args []string) (int, bool) {
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	switch {
	case err == nil:
		return 0, true
	case err == flag.ErrHelp:
	case j.json:
		newBareJSONView(m).Diagnostics(hcl.Diagnostics{flagParseDiag(err)})
		return 1, false
	case m.Flavour == flavour.Terraform:
		p := newDiagPrinter(m, nil)
		p.ExtraNewline = true
		p.Print(hcl.Diagnostics{flagParseDiag(err)})
		return 1, false
	}
	return flagError(m, fs, err)
}

func flagParseDiag(err error) *hcl.Diagnostic {
	return errorDiag("Failed to parse command-line flags", err.Error())
}

// open opens the -json-into file (jsonIntoFlag.open). With -json as well,
// tofu still opens (truncates) it, then reports the pair as an error in
// JSON, on stdout and into the file; false means the command must stop
// with the exit code.
func (j *jsonFlags) open(m *Meta, fs *flag.FlagSet) (int, bool) {
	if !j.json || j.into.path == "" {
		return j.into.open(m, fs)
	}
	var diags hcl.Diagnostics
	f, d := openJSONIntoFile(j.into.path)
	if d != nil {
		diags = append(diags, d)
	}
	diags = append(diags, jsonIntoConflict()...)
	newBareJSONView(m).Diagnostics(diags)
	if f != nil {
		initrun.NewJSONView(m.runEnv(), f, true).Diagnostics(diags)
		f.Close()
	}
	return 1, false
}

// close closes the -json-into file, if any.
func (j *jsonFlags) close() { j.into.close() }

// newBareJSONView is the JSON view of get and providers lock: OpenTofu's
// lines exactly, without tfdeps' own "tfdeps" key.
func newBareJSONView(m *Meta) *initrun.JSONView { return initrun.NewJSONView(m.runEnv(), nil, true) }

// intoView is the JSON view writing into the -json-into file.
func (j *jsonFlags) intoView(m *Meta) *initrun.JSONView {
	return initrun.NewJSONView(m.runEnv(), j.into.file, true)
}

// intoWriter is the -json-into file as a writer (nil: none).
func (j *jsonFlags) intoWriter() io.Writer {
	if j.into.file == nil {
		return nil
	}
	return j.into.file
}
