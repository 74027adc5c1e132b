package cli

import (
	"flag"
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// jsonIntoFlag is -json-into=FILE (init and get, OpenTofu's flavour): the
// human output as usual, and the -json lines written into FILE.
type jsonIntoFlag struct {
	path string
	file *os.File
}

// register adds -json-into to fs; Terraform has no such flag.
func (j *jsonIntoFlag) register(m *Meta, fs *flag.FlagSet) {
	if m.Flavour != flavour.Terraform {
		fs.StringVar(&j.path, "json-into", "", "")
	}
}

// open creates or truncates the file (mode 0600) as OpenTofu does; when
// that fails it prints tofu's error and the usage and returns false.
func (j *jsonIntoFlag) open(m *Meta, fs *flag.FlagSet) (int, bool) {
	if j.path == "" {
		return 0, true
	}
	f, err := os.OpenFile(j.path, os.O_TRUNC|os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return usageError(m, fs, errorDiag("Invalid argument", fmt.Sprintf("Unable to open the file %q specified by -json-into for writing: %s", j.path, err))), false
	}
	j.file = f
	return 0, true
}

// close closes the file, if one was opened.
func (j *jsonIntoFlag) close() {
	if j.file != nil {
		j.file.Close()
	}
}

// jsonIntoConflict is OpenTofu's error for -json with -json-into.
func jsonIntoConflict() hcl.Diagnostics {
	return hcl.Diagnostics{errorDiag("Invalid output format", "The -json and -json-into arguments are mutually exclusive")}
}

// teeView shows everything through a human view and writes it as JSON
// lines into the -json-into file.
type teeView struct {
	human initView
	json  *jsonView
}

func (v *teeView) Event(kind, provider, version, text string) {
	v.human.Event(kind, provider, version, text)
	v.json.Event(kind, provider, version, text)
}

func (v *teeView) Progress(provider, version string, done, total int64) {
	v.human.Progress(provider, version, done, total)
	v.json.Progress(provider, version, done, total)
}

func (v *teeView) Message(kind, text string, toStderr bool) {
	v.human.Message(kind, text, toStderr)
	v.json.Message(kind, text, toStderr)
}

func (v *teeView) Diagnostics(diags hcl.Diagnostics) {
	v.human.Diagnostics(diags)
	v.json.Diagnostics(diags)
}

func (v *teeView) Text(level, kind, human, machine string) {
	v.human.Text(level, kind, human, machine)
	v.json.Text(level, kind, human, machine)
}

func (v *teeView) Close() {
	v.human.Close()
	v.json.Close()
}
