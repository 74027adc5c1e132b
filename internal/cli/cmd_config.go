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

Load errors are printed to stderr and nothing is printed to stdout. Warnings
also go to stderr, so that stdout is always a loadable document.
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
	if code, ok := parseFlags(m, fs, args); !ok {
		return code
	}
	varOpts, varDiags := vars.configOptions(m)
	if varDiags.HasErrors() {
		return printVarErrors(m, vars, varDiags)
	}
	if diags := checkConfigArgs(opts, fs.Args()); diags.HasErrors() {
		newDiagPrinter(m, nil).Print(diags)
		return 1
	}

	mod, diags := config.LoadDir(".", m.configOptions(varOpts...)...)
	doc := mod.Document()
	printer := newDiagPrinter(m, doc.Files)
	// Warnings go to stderr too: stdout must stay a loadable document.
	printer.stdout = m.Stderr
	printer.Print(diags)
	if diags.HasErrors() {
		return 1
	}
	if opts.json {
		if jsonDiags := doc.CheckJSON(); jsonDiags.HasErrors() {
			printer.Print(jsonDiags)
			return 1
		}
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
