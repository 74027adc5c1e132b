package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcled"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/mitchellh/go-wordwrap"
)

// diagPrinter renders diagnostics as OpenTofu does without colour: errors to
// stderr, warnings to stdout, each with a source snippet when its file is known.
type diagPrinter struct {
	stdout, stderr io.Writer
	// files maps a file name, as it appears in diagnostic ranges, to its parsed form.
	files map[string]*hcl.File
	// width is the wrap width (Detail lines wrap at width-1).
	width int
	// extraNewline adds one newline after each diagnostic (init, providers lock/mirror).
	extraNewline bool
}

func newDiagPrinter(m *Meta, files map[string]*hcl.File) *diagPrinter {
	return &diagPrinter{stdout: m.Stdout, stderr: m.Stderr, files: files, width: terminalWidth(m.Stderr)}
}

// Print sorts, consolidates and writes diags.
func (p *diagPrinter) Print(diags hcl.Diagnostics) {
	for _, d := range consolidateWarnings(sortDiagnostics(diags)) {
		w := p.stdout
		if d.Severity == hcl.DiagError {
			w = p.stderr
		}
		io.WriteString(w, p.render(d))
		if p.extraNewline {
			io.WriteString(w, "\n")
		}
	}
}

func (p *diagPrinter) render(d *hcl.Diagnostic) string {
	var buf bytes.Buffer
	if d.Severity == hcl.DiagError {
		buf.WriteString("\nError: ")
	} else {
		buf.WriteString("\nWarning: ")
	}
	fmt.Fprintf(&buf, "%s\n\n", d.Summary)
	if d.Subject != nil {
		p.writeSnippet(&buf, d)
	}
	if d.Detail != "" {
		for _, line := range strings.Split(d.Detail, "\n") {
			if p.width > 1 && !strings.HasPrefix(line, " ") {
				line = wordwrap.WrapString(line, uint(p.width-1))
			}
			fmt.Fprintf(&buf, "%s\n", line)
		}
	}
	return buf.String()
}

// writeSnippet writes "  on FILE line N, in CONTEXT:" and the source lines the
// subject (widened by the context range, if any) covers.
func (p *diagPrinter) writeSnippet(buf *bytes.Buffer, d *hcl.Diagnostic) {
	rng := *d.Subject
	if d.Context != nil {
		rng = hcl.RangeOver(rng, *d.Context)
	}
	file := p.files[rng.Filename]
	if file == nil || file.Bytes == nil {
		fmt.Fprintf(buf, "  on %s line %d:\n", rng.Filename, d.Subject.Start.Line)
		buf.WriteString("  (source code not available)\n\n")
		return
	}
	header := fmt.Sprintf("  on %s line %d", rng.Filename, d.Subject.Start.Line)
	// The enclosing block is looked up just before the subject; a subject
	// at the very start of the file has none.
	if offset := d.Subject.Start.Byte - 1; offset >= 0 {
		if ctx := hcled.ContextString(file, offset); ctx != "" {
			header += ", in " + ctx
		}
	}
	buf.WriteString(header + ":\n")
	lines := strings.Split(string(file.Bytes), "\n")
	end := rng.End.Line
	if end < rng.Start.Line {
		end = rng.Start.Line
	}
	for n := rng.Start.Line; n <= end && n-1 < len(lines); n++ {
		fmt.Fprintf(buf, "%4d: %s\n", n, strings.TrimRight(lines[n-1], "\r"))
	}
	buf.WriteByte('\n')
}

// sortDiagnostics orders diagnostics as OpenTofu prints them: warnings before
// errors, unsited before sited, then by file (fewer separators first), start
// byte and end byte. The sort is stable.
func sortDiagnostics(diags hcl.Diagnostics) hcl.Diagnostics {
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
		if n == 1 {
			d.Detail += "\n\n(and one more similar warning elsewhere)"
		} else {
			d.Detail += fmt.Sprintf("\n\n(and %d more similar warnings elsewhere)", n)
		}
	}
	return out
}

// snippetFiles are the parsed files diagnostics can show source snippets
// from: those already parsed (known, e.g. the module tree's as the loader
// read them) and, for a subject in any other file (a state file), that file
// read and parsed now.
func snippetFiles(diags hcl.Diagnostics, known map[string]*hcl.File) map[string]*hcl.File {
	files := make(map[string]*hcl.File, len(known))
	for name, f := range known {
		files[name] = f
	}
	parser := hclparse.NewParser()
	for _, d := range diags {
		if d.Subject == nil || files[d.Subject.Filename] != nil {
			continue
		}
		name := d.Subject.Filename
		src, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		var f *hcl.File
		if strings.HasSuffix(name, ".json") {
			f, _ = parser.ParseJSON(src, name)
		} else {
			f, _ = parser.ParseHCL(src, name)
		}
		if f != nil {
			files[name] = f
		}
	}
	return files
}
