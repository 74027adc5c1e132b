package cli

import (
	"flag"
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// jsonIntoFlag is -json-into=FILE of init (backendFlags), get and
// providers lock (jsonFlags), OpenTofu's flavour only:
// the human output as usual, and the -json lines written into FILE.
type jsonIntoFlag struct {
	path string
	file *os.File
}

// register adds -json-into to fs; Terraform has no such flag.
func (j *jsonIntoFlag) register(f flavour.Flavour, fs *flag.FlagSet) {
	if f != flavour.Terraform {
		fs.StringVar(&j.path, "json-into", "", "")
	}
}

// open creates or truncates the file (mode 0600) as OpenTofu does; when
// that fails it prints tofu's error and the usage and returns false.
func (j *jsonIntoFlag) open(m *Meta, fs *flag.FlagSet) (int, bool) {
	if j.path == "" {
		return 0, true
	}
	f, d := openJSONIntoFile(j.path)
	if d != nil {
		return usageError(m, fs, d), false
	}
	j.file = f
	return 0, true
}

// openJSONIntoFile creates or truncates -json-into's file, mode 0600, as
// tofu does. It is written as a stream (it may be a pipe or /dev/stderr),
// not replaced atomically.
func openJSONIntoFile(path string) (*os.File, *hcl.Diagnostic) {
	f, err := os.OpenFile(path, os.O_TRUNC|os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return nil, errorDiag("Invalid argument", fmt.Sprintf("Unable to open the file %q specified by -json-into for writing: %s", path, err))
	}
	return f, nil
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
