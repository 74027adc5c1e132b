package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/internal/diagrender"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/requirements"
)

// The -json outputs of tfdeps' own commands (providers, config, version)
// are one JSON document on stdout whatever happens: when the command
// fails before or instead of producing its document, stdout still gets a
// JSON object holding the diagnostics. (init, get and providers lock
// print OpenTofu's JSON lines instead; they are not documents.)

// documentDiagnostic is a diagnostic in a tfdeps JSON document.
type documentDiagnostic struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	// Range is FILE:LINE,COLUMN-LINE,COLUMN; absent without a subject.
	Range string `json:"range,omitempty"`
}

// documentDiagnostics converts diags, in the order they are printed and
// in the words of the emulated product; never nil.
func documentDiagnostics(m *Meta, diags hcl.Diagnostics) []documentDiagnostic {
	out := []documentDiagnostic{}
	for _, d := range diagrender.Sort(diags) {
		dj := documentDiagnostic{Severity: "warning", Summary: d.Summary, Detail: d.Detail}
		if d.Severity == hcl.DiagError {
			dj.Severity = "error"
		}
		if s := d.Subject; s != nil {
			dj.Range = fmt.Sprintf("%s:%d,%d-%d,%d", filepath.ToSlash(s.Filename), s.Start.Line, s.Start.Column, s.End.Line, s.End.Column)
		}
		out = append(out, dj)
	}
	return out
}

// failureDocument is what config -json and version -json print instead of
// their document when they fail: {"diagnostics": [...]}. A configuration
// in JSON syntax has no top-level "diagnostics" block type, so it is never
// mistaken for one.
type failureDocument struct {
	Diagnostics []documentDiagnostic `json:"diagnostics"`
}

// writeDocument prints v as indented JSON on stdout.
func writeDocument(m *Meta, v any) error {
	enc := json.NewEncoder(m.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// jsonDocumentCommands are the commands whose -json output is a tfdeps
// document.
var jsonDocumentCommands = map[string]bool{"providers": true, "config": true, "version": true}

// wantsJSON reports whether args ask for -json (a boolean flag: -json,
// --json, -json=true and the other true spellings), looking no further
// than a "--" that ends the options.
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "json" {
			continue
		}
		if !hasValue {
			return true
		}
		switch value {
		case "1", "t", "T", "true", "TRUE", "True":
			return true
		}
	}
	return false
}

// commandJSONFailure prints diags as the failure document of command name
// (its -json output when it cannot run at all: -chdir or global option
// errors) and returns 1. The text form has already gone to stderr.
func commandJSONFailure(m *Meta, name string, diags hcl.Diagnostics) int {
	if name == "providers" {
		return printProvidersJSON(m, &requirements.Result{}, diags, nil)
	}
	return printFailureDocument(m, diags)
}

// printFailureDocument prints the {"diagnostics": [...]} document and
// returns 1.
func printFailureDocument(m *Meta, diags hcl.Diagnostics) int {
	if err := writeDocument(m, failureDocument{Diagnostics: documentDiagnostics(m, diags)}); err != nil {
		fmt.Fprintf(m.Stderr, "Error: %s\n", err)
	}
	return 1
}

// readCLIConfig loads the CLI configuration and builds its provider
// installation sources, as loadCLIConfig does, but returns their problems
// instead of printing them, for a command that reports them in its JSON
// document. It always returns a usable configuration.
func readCLIConfig(m *Meta, opts cliconfig.Options) (*cliconfig.Config, hcl.Diagnostics) {
	cfg, diags := cliconfig.Load(opts)
	_, srcDiags := providersource.Build(providersource.BuildOptions{
		Config: cfg, CLI: opts, Registry: newRegistryClient(m, cfg), Getenv: m.Getenv,
	})
	return cfg, append(diags, srcDiags...)
}

// parseDocumentFlags is parseFlags for a command with a -json document:
// a parse error when args ask for -json (before or after the bad
// argument, where the flag package stopped) is reported by fail, in the
// document, instead of as text followed by the help.
func parseDocumentFlags(m *Meta, fs *flag.FlagSet, args []string, fail func(hcl.Diagnostics) int) (int, bool) {
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	switch {
	case err == nil:
		return 0, true
	case err != flag.ErrHelp && wantsJSON(args):
		return fail(hcl.Diagnostics{flagParseDiag(err)}), false
	}
	return flagError(m, fs, err)
}
