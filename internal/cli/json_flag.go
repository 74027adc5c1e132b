package cli

import (
	"flag"
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// jsonFlags are the output flags "tofu get" and "tofu providers lock"
// accept: -json (the machine-readable UI on stdout instead of the human
// lines) and -json-into=FILE (the human lines on stdout and the same JSON
// lines in FILE). Terraform's commands have neither: in that flavour they
// stay undefined and are refused as any unknown flag is.
type jsonFlags struct {
	json bool
	into string
	// file is the opened -json-into file.
	file *os.File
}

func addJSONFlags(m *Meta, fs *flag.FlagSet) *jsonFlags {
	j := &jsonFlags{}
	if m.Flavour != flavour.Terraform {
		fs.BoolVar(&j.json, "json", false, "")
		fs.StringVar(&j.into, "json-into", "", "")
	}
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
		p.extraNewline = true
		p.Print(hcl.Diagnostics{flagParseDiag(err)})
		return 1, false
	}
	return flagError(m, fs, err)
}

func flagParseDiag(err error) *hcl.Diagnostic {
	return errorDiag("Failed to parse command-line flags", err.Error())
}

// open opens the -json-into file, truncating it, as tofu does (even when
// -json makes the pair an error). Its problems are reported as tofu's:
// with -json as JSON lines, else as an argument error with the help
// text; false means the command must stop with the exit code.
func (j *jsonFlags) open(m *Meta, fs *flag.FlagSet) (int, bool) {
	var diags hcl.Diagnostics
	if j.into != "" {
		f, err := os.OpenFile(j.into, os.O_TRUNC|os.O_WRONLY|os.O_CREATE, 0o600)
		if err != nil {
			diags = append(diags, errorDiag("Invalid argument", fmt.Sprintf(
				"Unable to open the file %q specified by -json-into for writing: %s", j.into, err)))
		} else {
			j.file = f
		}
		if j.json {
			diags = append(diags, errorDiag("Invalid output format", "The -json and -json-into arguments are mutually exclusive"))
		}
	}
	switch {
	case !diags.HasErrors():
		return 0, true
	case j.json:
		newBareJSONView(m).Diagnostics(diags)
	default:
		usageError(m, fs, diags[0])
	}
	j.close()
	return 1, false
}

// close closes the -json-into file, if any.
func (j *jsonFlags) close() {
	if j.file != nil {
		j.file.Close()
		j.file = nil
	}
}

// newBareJSONView is the JSON view of get and providers lock: OpenTofu's
// lines exactly, without tfdeps' own "tfdeps" key.
func newBareJSONView(m *Meta) *jsonView {
	v := newJSONView(m)
	v.bare = true
	return v
}

// intoView is the JSON view writing into the -json-into file.
func (j *jsonFlags) intoView(m *Meta) *jsonView {
	v := newJSONViewTo(m, j.file)
	v.bare = true
	return v
}

// keepFiles makes the view's snippets use files (name to parsed file).
func (v *jsonView) keepFiles(files map[string]*hcl.File) {
	for name, f := range files {
		v.keepSource(f, name)
	}
}

// initViews shows everything in each of its views (-json-into).
type initViews []initView

func (vs initViews) Event(kind, provider, version, text string) {
	for _, v := range vs {
		v.Event(kind, provider, version, text)
	}
}

func (vs initViews) Progress(provider, version string, done, total int64) {
	for _, v := range vs {
		v.Progress(provider, version, done, total)
	}
}

func (vs initViews) Message(kind, text string, toStderr bool) {
	for _, v := range vs {
		v.Message(kind, text, toStderr)
	}
}

func (vs initViews) Diagnostics(diags hcl.Diagnostics) {
	for _, v := range vs {
		v.Diagnostics(diags)
	}
}

func (vs initViews) Text(level, kind, human, machine string) {
	for _, v := range vs {
		v.Text(level, kind, human, machine)
	}
}

func (vs initViews) Close() {
	for _, v := range vs {
		v.Close()
	}
}
