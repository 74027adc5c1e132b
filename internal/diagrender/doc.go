// Package diagrender turns hcl.Diagnostics into the text OpenTofu (or,
// in the Terraform flavour, Terraform) prints for them: the plain
// rendering (-no-color), the coloured one with its left rule, the frame
// Terraform draws, and the machine-readable form of OpenTofu's -json UI
// (Diagnostic), which the human renderings are produced from. It orders
// and consolidates diagnostics as OpenTofu does, quotes source snippets
// (cut to a bounded width around the highlight, where OpenTofu prints
// whole lines), and translates the colour markup ("[bold]", "[reset]")
// OpenTofu's messages are written in.
//
// It owns the shape of the text, not its words: the summaries and details
// come from the packages that found the problems, and the command decides
// where the output goes, how wide the terminal is and whether colour is
// on. It neither parses flags nor knows the commands; internal/cli sets a
// Printer up from its settings. It imports config only to refuse, as the
// loader does, re-parsing a file too large or too deeply nested to quote.
package diagrender
