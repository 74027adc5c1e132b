package diagrender

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/mitchellh/go-wordwrap"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/internal/regfile"
)

// Printer renders diagnostics as OpenTofu does: errors to Stderr,
// warnings to Stdout, each with a source snippet when its file is known;
// with colour and a left rule (OpenTofu's default, even when piped) or
// plain (-no-color).
type Printer struct {
	Stdout, Stderr io.Writer
	// Files maps a file name, as it appears in diagnostic ranges, to its parsed form.
	Files map[string]*hcl.File
	// Width is the terminal width (78 when stderr is not a terminal).
	Width int
	// Color selects OpenTofu's coloured rendering.
	Color bool
	// ExtraNewline adds one newline after each diagnostic (init, providers,
	// providers lock/mirror).
	ExtraNewline bool
	// Words rewords texts for the flavour.
	Words func(hcl.Diagnostics) hcl.Diagnostics
	// Terraform selects Terraform's coloured frame: the rule's colour
	// code twice, and a reset line after each diagnostic.
	Terraform bool
	// Bare leaves out the empty line after a coloured diagnostic
	// (terraform init).
	Bare bool
}

// Print sorts, consolidates and writes diags.
func (p *Printer) Print(diags hcl.Diagnostics) {
	if p.Words != nil {
		diags = p.Words(diags)
	}
	for _, d := range consolidateWarnings(Sort(diags)) {
		w := p.Stdout
		if d.Severity == hcl.DiagError {
			w = p.Stderr
		}
		io.WriteString(w, p.render(d))
		// A coloured diagnostic is always followed by an empty line; a
		// plain one only in commands that ask for it.
		if p.ExtraNewline && !p.Color {
			io.WriteString(w, "\n")
		}
	}
}

func (p *Printer) render(d *hcl.Diagnostic) string {
	j := NewDiagnostic(d, p.Files)
	if p.Color && p.Terraform {
		colour := "\x1b[33m"
		if d.Severity == hcl.DiagError {
			colour = "\x1b[31m"
		}
		return colour + renderColorDiagnostic(j, p.Width) + "\x1b[0m\x1b[0m\n"
	}
	if p.Color && p.Bare {
		return renderColorDiagnostic(j, p.Width)
	}
	if p.Color {
		return renderColorDiagnostic(j, p.Width) + "\n"
	}
	return renderPlainDiagnostic(j, p.Width)
}

// renderPlainDiagnostic is OpenTofu's -no-color rendering: Detail lines
// wrapped at width-1.
func renderPlainDiagnostic(d *Diagnostic, width int) string {
	return "\n" + plainDiagnosticBody(d, width-1)
}

// plainDiagnosticBody is a diagnostic without colour: its severity and
// summary, snippet, and Detail wrapped at wrap columns.
func plainDiagnosticBody(d *Diagnostic, wrap int) string {
	var buf bytes.Buffer
	if d.Severity == "error" {
		buf.WriteString("Error: ")
	} else {
		buf.WriteString("Warning: ")
	}
	fmt.Fprintf(&buf, "%s\n\n", d.Summary)
	writeSnippet(&buf, d, false)
	writeDetail(&buf, d.Detail, wrap)
	return buf.String()
}

// renderColorDiagnostic is OpenTofu's coloured rendering: a left rule in
// the severity's colour on every line, Detail lines wrapped at width-3.
func renderColorDiagnostic(d *Diagnostic, width int) string {
	var buf bytes.Buffer
	colour := "yellow"
	if d.Severity == "error" {
		colour = "red"
		buf.WriteString(Colorize("[bold][red]Error: [reset]", true))
	} else {
		buf.WriteString(Colorize("[bold][yellow]Warning: [reset]", true))
	}
	fmt.Fprintf(&buf, Colorize("[bold]%s[reset]\n\n", true), ReplaceControlChars(d.Summary))
	writeSnippet(&buf, d, true)
	writeDetail(&buf, ReplaceControlChars(d.Detail), width-3)

	rule := Colorize("["+colour+"]│[reset] ", true)
	var out strings.Builder
	out.WriteString(Colorize("["+colour+"]╷[reset]", true) + "\n")
	text := strings.TrimSuffix(buf.String(), "\n")
	if text != "" {
		for _, line := range strings.Split(text, "\n") {
			out.WriteString(rule + line + "\n")
		}
	}
	out.WriteString(Colorize("["+colour+"]╵[reset]", true) + "\n")
	return out.String()
}

// RenderFramed is the frame of the coloured rendering without
// colour, as Terraform's format.Diagnostic draws it with colour disabled:
// no space after the rule on an empty line.
func RenderFramed(d *Diagnostic, width int) string {
	var out strings.Builder
	out.WriteString("╷\n")
	for _, line := range strings.Split(strings.TrimSuffix(plainDiagnosticBody(d, width-3), "\n"), "\n") {
		if line == "" {
			out.WriteString("│\n")
		} else {
			out.WriteString("│ " + line + "\n")
		}
	}
	out.WriteString("╵\n")
	return out.String()
}

// writeDetail writes the Detail, each line not starting with a space
// word-wrapped at wrap columns (no wrapping when wrap < 1).
func writeDetail(buf *bytes.Buffer, detail string, wrap int) {
	if detail == "" {
		return
	}
	if wrap < 1 {
		fmt.Fprintf(buf, "%s\n", detail)
		return
	}
	for _, line := range strings.Split(detail, "\n") {
		if !strings.HasPrefix(line, " ") {
			line = wordwrap.WrapString(line, uint(wrap))
		}
		fmt.Fprintf(buf, "%s\n", line)
	}
}

// writeSnippet writes "  on FILE line N, in CONTEXT:" and the snippet's
// lines numbered from its start line, the highlight underlined in colour.
func writeSnippet(buf *bytes.Buffer, d *Diagnostic, color bool) {
	if d.Range == nil {
		return
	}
	if d.Snippet == nil {
		fmt.Fprintf(buf, "  on %s line %d:\n  (source code not available)\n\n", ReplaceControlChars(d.Range.Filename), d.Range.Start.Line)
		return
	}
	s := d.Snippet
	ctx := ""
	if s.Context != nil {
		ctx = ", in " + *s.Context
	}
	fmt.Fprintf(buf, "  on %s line %d%s:\n", ReplaceControlChars(d.Range.Filename), d.Range.Start.Line, ctx)
	code := s.Code
	start, end := s.HighlightStartOffset, s.HighlightEndOffset
	if end < start {
		end = min(start+1, len(code))
	}
	start = max(0, min(start, len(code)))
	end = max(0, min(end, len(code)))
	code = fmt.Sprintf(Colorize("%s[underline]%s[reset]%s", color), ReplaceControlChars(code[:start]), ReplaceControlChars(code[start:end]), ReplaceControlChars(code[end:]))
	for i, line := range strings.Split(code, "\n") {
		fmt.Fprintf(buf, "%4d: %s\n", s.StartLine+i, line)
	}
	buf.WriteByte('\n')
}

// Sort orders diagnostics as OpenTofu prints them: warnings before
// errors, unsited before sited, then by file (fewer separators first), start
// byte and end byte. The sort is stable.
func Sort(diags hcl.Diagnostics) hcl.Diagnostics {
	out := append(hcl.Diagnostics(nil), diags...)
	sort.SliceStable(out, func(i, j int) bool { return diagLess(out[i], out[j]) })
	return out
}

func diagLess(a, b *hcl.Diagnostic) bool {
	if a.Severity != b.Severity {
		return a.Severity == hcl.DiagWarning
	}
	if (a.Subject == nil) != (b.Subject == nil) {
		return a.Subject == nil
	}
	if a.Subject == nil {
		return false
	}
	as, bs := a.Subject, b.Subject
	if as.Filename != bs.Filename {
		an, bn := strings.Count(as.Filename, "/"), strings.Count(bs.Filename, "/")
		if an != bn {
			return an < bn
		}
		return as.Filename < bs.Filename
	}
	if as.Start.Byte != bs.Start.Byte {
		return as.Start.Byte < bs.Start.Byte
	}
	return as.End.Byte < bs.End.Byte
}

// consolidateWarnings folds sited warnings that share a Summary into the
// first of them, noting how many more there were.
func consolidateWarnings(diags hcl.Diagnostics) hcl.Diagnostics {
	first := map[string]int{}
	counts := map[string]int{}
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity != hcl.DiagWarning || d.Subject == nil {
			out = append(out, d)
			continue
		}
		if _, seen := first[d.Summary]; seen {
			counts[d.Summary]++
			continue
		}
		first[d.Summary] = len(out)
		cp := *d
		out = append(out, &cp)
	}
	for summary, n := range counts {
		d := out[first[summary]]
		msg := "(and one more similar warning elsewhere)"
		if n > 1 {
			msg = fmt.Sprintf("(and %d more similar warnings elsewhere)", n)
		}
		if d.Detail != "" {
			msg = d.Detail + "\n\n" + msg
		}
		d.Detail = msg
	}
	return out
}

// SnippetFiles are the parsed files diagnostics can show source snippets
// from: those already parsed (known, e.g. the module tree's as the loader
// read them) and, for a subject in another configuration file, that file
// read and parsed now. Like OpenTofu, other files (the lock file, a state
// file) show "(source code not available)".
func SnippetFiles(diags hcl.Diagnostics, known map[string]*hcl.File) map[string]*hcl.File {
	return SnippetFilesIn("", diags, known)
}

// SnippetFilesIn is SnippetFiles for diagnostics whose file names are
// relative to directory dir ("": the current one), as those of a run in
// dir are.
func SnippetFilesIn(dir string, diags hcl.Diagnostics, known map[string]*hcl.File) map[string]*hcl.File {
	files := make(map[string]*hcl.File, len(known))
	for name, f := range known {
		files[name] = f
	}
	parser := hclparse.NewParser()
	for _, d := range diags {
		if d.Subject == nil || files[d.Subject.Filename] != nil || !isConfigFileName(d.Subject.Filename) {
			continue
		}
		name := d.Subject.Filename
		path := name
		if dir != "" && !filepath.IsAbs(name) {
			path = filepath.Join(dir, name)
		}
		src, err := regfile.ReadFile(path)
		if err != nil {
			continue
		}
		var f *hcl.File
		switch {
		case nestingTooDeep(name, src):
			// Parsing could exhaust the stack: snippets need only the bytes.
			f = &hcl.File{Body: hcl.EmptyBody(), Bytes: src}
		case strings.HasSuffix(name, ".json"):
			f, _ = parser.ParseJSON(src, name)
		default:
			f, _ = parser.ParseHCL(src, name)
		}
		if f != nil {
			files[name] = f
		}
	}
	return files
}

// isConfigFileName reports whether name is a configuration, test or
// (Terraform) mock data file the loader reads.
func isConfigFileName(name string) bool {
	for _, suffix := range []string{".tf", ".tf.json", ".tofu", ".tofu.json", ".tftest.hcl", ".tftest.json", ".tofutest.hcl", ".tofutest.json", ".tfvars", ".tfvars.json", ".tfmock.hcl", ".tfmock.json"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// nestingTooDeep reports whether a file that diagnostics quote is too
// large, nested too deeply or has too many tokens to be parsed again for
// its snippets (config.RefusedBeforeParsing).
func nestingTooDeep(name string, src []byte) bool {
	return config.RefusedBeforeParsing(name, src)
}
