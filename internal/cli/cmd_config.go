package cli

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
)

const configHelp = `
Usage: tfdeps [global options] config [options]

  Prints the effective configuration of the module in the working directory:
  every configuration file loaded as OpenTofu loads it, override files merged
  in, as one native-syntax document. Loading that document alone, as main.tf
  in an empty directory, gives the same module.

  Arguments written in native syntax are reproduced as written; values from
  JSON files (.tf.json, .tofu.json) are written as equivalent native syntax.

Options:

  -explain    Add a comment above every argument and nested block that an
              override file changed, naming the file and line that won and
              the one it replaced, and list the override files applied.

  -json       Print the configuration in OpenTofu's JSON configuration
              syntax (a .tf.json document) instead.

Diagnostics, warnings too, are printed to stderr, so that stdout is always a
loadable document. On errors (a directory without configuration files
among them: "No configuration files") the exit status is 1 and nothing is
printed to stdout, except with -json: stdout then gets one JSON object,
{"diagnostics": [...]}, each diagnostic with its "severity", "summary",
"detail" and, when it has a location, "range" (FILE:LINE,COL-LINE,COL);
that is also what a command-line error prints when -json is among the
arguments.
`

// configOptions are the flags of the config command.
type configOptions struct {
	explain bool
	json    bool
}

func runConfig(m *Meta, args []string) int {
	fs := newFlagSet(m, "config", configHelp)
	var opts configOptions
	fs.BoolVar(&opts.explain, "explain", false, "")
	fs.BoolVar(&opts.json, "json", false, "")
	vars := addVarFlags(m, fs)
	// failWith prints diagnostics that stop the command: on stderr
	// (warnings too, so that stdout stays a document; blankAfter adds
	// tofu's blank line after each, as providers prints them) and, with
	// -json, as the failure document on stdout. It returns 1.
	failWith := func(diags hcl.Diagnostics, files map[string]*hcl.File, blankAfter bool) int {
		printer := newDiagPrinter(m, files)
		printer.Stdout = m.Stderr
		printer.ExtraNewline = blankAfter
		printer.Print(diags)
		if opts.json || wantsJSON(args) {
			return printFailureDocument(m, diags)
		}
		return 1
	}
	fail := func(diags hcl.Diagnostics, files map[string]*hcl.File) int { return failWith(diags, files, false) }
	if code, ok := parseDocumentFlags(m, fs, args, func(d hcl.Diagnostics) int { return fail(d, nil) }); !ok {
		return code
	}
	if diags := checkConfigArgs(opts, fs.Args()); diags.HasErrors() {
		return fail(diags, nil)
	}
	// As providers (the same error and text, before any variable is read).
	if diags := noConfigurationFiles(m, ""); diags != nil {
		return failWith(diags, nil, true)
	}
	varOpts, varDiags := vars.configOptions(m)
	if varDiags.HasErrors() {
		return fail(varDiags, vars.files)
	}

	mod, diags := config.LoadDir(".", m.configOptions(varOpts...)...)
	doc := mod.Document()
	if diags.HasErrors() {
		return fail(diags, doc.Files)
	}
	if opts.json {
		if jsonDiags := doc.CheckJSON(); jsonDiags.HasErrors() {
			return fail(append(diags, jsonDiags...), doc.Files)
		}
	}
	// Warnings go to stderr too: stdout must stay a loadable document.
	printer := newDiagPrinter(m, doc.Files)
	printer.Stdout = m.Stderr
	printer.Print(diags)
	if opts.json {
		m.Stdout.Write(doc.RenderJSON())
	} else {
		m.Stdout.Write(doc.Render(config.RenderOptions{Explain: opts.explain}))
	}
	return 0
}

// checkConfigArgs rejects what the flag parser lets through.
func checkConfigArgs(opts configOptions, args []string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if len(args) > 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Too many command line arguments",
			Detail:   "The config command takes no arguments. To show the configuration of another directory, use the global -chdir option: tfdeps -chdir=DIR config",
		})
	}
	if opts.explain && opts.json {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Incompatible command line options",
			Detail:   "The -explain and -json options cannot be used together: JSON has no comments.",
		})
	}
	return diags
}
