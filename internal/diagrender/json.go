package diagrender

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcled"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// Diagnostic is a diagnostic as OpenTofu's machine-readable UI shows
// it, and the form both human renderings are produced from: the subject
// range (empty ranges widened by one byte) and a snippet of source.
type Diagnostic struct {
	Severity string   `json:"severity"`
	Summary  string   `json:"summary"`
	Detail   string   `json:"detail"`
	Range    *Range   `json:"range,omitempty"`
	Snippet  *Snippet `json:"snippet,omitempty"`
}

type Range struct {
	Filename string `json:"filename"`
	Start    Pos    `json:"start"`
	End      Pos    `json:"end"`
}

type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// Snippet is the source shown with a diagnostic: the lines overlapping
// the subject widened by its context range (empty lines are not
// included, as in OpenTofu), the enclosing block and the highlight's
// offsets into Code.
type Snippet struct {
	Context              *string    `json:"context"`
	Code                 string     `json:"code"`
	StartLine            int        `json:"start_line"`
	HighlightStartOffset int        `json:"highlight_start_offset"`
	HighlightEndOffset   int        `json:"highlight_end_offset"`
	Values               []struct{} `json:"values"`
}

func NewDiagnostic(d *hcl.Diagnostic, files map[string]*hcl.File) *Diagnostic {
	out := &Diagnostic{Severity: "warning", Summary: d.Summary, Detail: d.Detail}
	if d.Severity == hcl.DiagError {
		out.Severity = "error"
	}
	if d.Subject == nil {
		return out
	}
	highlight := *d.Subject
	if highlight.End == (hcl.Pos{}) {
		highlight.End = highlight.Start
	}
	snippet := highlight
	if d.Context != nil {
		snippet = *d.Context
	}
	snippet = hcl.RangeOver(snippet, highlight)
	if highlight.Empty() {
		highlight.End.Byte++
		highlight.End.Column++
	}
	if snippet.Empty() {
		snippet.End.Byte++
		snippet.End.Column++
	}
	out.Range = &Range{
		Filename: highlight.Filename,
		Start:    Pos{highlight.Start.Line, highlight.Start.Column, highlight.Start.Byte},
		End:      Pos{highlight.End.Line, highlight.End.Column, highlight.End.Byte},
	}
	out.Snippet = newJSONSnippet(snippet, highlight, files[snippet.Filename])
	return out
}

func newJSONSnippet(snippet, highlight hcl.Range, file *hcl.File) *Snippet {
	if file == nil || file.Bytes == nil {
		return nil
	}
	src := file.Bytes
	s := &Snippet{StartLine: snippet.Start.Line, Values: []struct{}{}}
	if file.Nav == nil {
		file = reparse(file, snippet.Filename)
	}
	if ctx := hcled.ContextString(file, highlight.Start.Byte-1); ctx != "" {
		ctx = cutSnippetContext(ctx)
		s.Context = &ctx
	}
	codeStart := 0
	var code strings.Builder
	// Only lines from the one holding the snippet's start can overlap it:
	// scan from there and stop past its end (scanning the whole file for
	// each diagnostic made many diagnostics in a large file quadratic).
	from, ordered := 0, snippet.Start.Byte <= snippet.End.Byte
	if b := min(max(snippet.Start.Byte, 0), len(src)); ordered && b > 0 {
		from = bytes.LastIndexByte(src[:b], '\n') + 1
	}
	sc := hcl.NewRangeScannerFragment(src, highlight.Filename, hcl.Pos{Line: 1, Column: 1, Byte: from}, bufio.ScanLines)
	for sc.Scan() {
		line := sc.Range()
		if ordered && line.Start.Byte > snippet.End.Byte {
			break
		}
		if !line.Overlaps(snippet) {
			continue
		}
		if codeStart == 0 && code.Len() == 0 {
			codeStart = line.Start.Byte
		}
		code.Write(line.SliceBytes(src))
		code.WriteByte('\n')
	}
	uncut := strings.TrimSuffix(code.String(), "\n")
	start := highlight.Start.Byte - codeStart
	end := start + (highlight.End.Byte - highlight.Start.Byte)
	start = max(0, min(start, len(uncut)))
	end = max(0, min(end, len(uncut)))
	// Lines longer than maxSnippetLine are cut around the highlight (see
	// cutSnippetCode); the offsets follow the cut.
	var cuts []snippetCut
	s.Code, cuts = cutSnippetCode(uncut, start)
	s.HighlightStartOffset = mapSnippetOffset(start, cuts)
	s.HighlightEndOffset = mapSnippetOffset(end, cuts)
	return s
}

// reparse gives a file without navigation data (built by hand) the data
// the enclosing-block lookup needs, when its bytes parse.
func reparse(file *hcl.File, name string) *hcl.File {
	if nestingTooDeep(name, file.Bytes) {
		return file // parsing could exhaust the stack
	}
	p := hclparse.NewParser()
	var f *hcl.File
	if strings.HasSuffix(name, ".json") {
		f, _ = p.ParseJSON(file.Bytes, name)
	} else {
		f, _ = p.ParseHCL(file.Bytes, name)
	}
	if f == nil {
		return file
	}
	return f
}
