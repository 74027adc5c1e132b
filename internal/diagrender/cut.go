package diagrender

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Source snippets are cut to a bounded width, so that a diagnostic about a
// file with a very long line (4 MB of generated JSON on one line, 10 MB of
// "[") prints a few hundred bytes of it instead of all of it. OpenTofu
// prints the whole line. A line of up to maxSnippetLine bytes is shown
// whole, which no hand-written or formatted line comes near; a longer one
// keeps snippetWindow bytes: from snippetLead bytes before the highlight
// when the highlight starts on it, else from its start. Each cut part is
// replaced by a marker saying how many bytes were left out.
const (
	maxSnippetLine = 1000
	snippetWindow  = 500
	snippetLead    = 160
)

// cutMarker stands for n bytes of a line left out of a snippet.
func cutMarker(n int) string { return fmt.Sprintf("…(%d bytes)…", n) }

// snippetCut is one part of the uncut code left out: the bytes [from, to)
// of the uncut code, replaced by marker at offset at of the cut code.
type snippetCut struct {
	from, to int
	at       int
	marker   string
	head     bool // the part is the start of its line (the kept text follows the marker)
}

// cutSnippetCode cuts the lines of code longer than maxSnippetLine around
// highlight, an offset into code, and returns the cut code with the cuts
// made, in order; code is returned as it is when no line is that long.
func cutSnippetCode(code string, highlight int) (string, []snippetCut) {
	if len(code) <= maxSnippetLine {
		return code, nil
	}
	var out strings.Builder
	var cuts []snippetCut
	for lineStart := 0; lineStart <= len(code); {
		lineEnd := len(code)
		if i := strings.IndexByte(code[lineStart:], '\n'); i >= 0 {
			lineEnd = lineStart + i
		}
		if lineStart > 0 {
			out.WriteByte('\n')
		}
		if lineEnd-lineStart <= maxSnippetLine {
			out.WriteString(code[lineStart:lineEnd])
		} else {
			from, to := snippetWindowOf(code, lineStart, lineEnd, highlight)
			if from > lineStart {
				c := snippetCut{from: lineStart, to: from, at: out.Len(), marker: cutMarker(from - lineStart), head: true}
				cuts = append(cuts, c)
				out.WriteString(c.marker)
			}
			out.WriteString(code[from:to])
			if to < lineEnd {
				c := snippetCut{from: to, to: lineEnd, at: out.Len(), marker: cutMarker(lineEnd - to)}
				cuts = append(cuts, c)
				out.WriteString(c.marker)
			}
		}
		lineStart = lineEnd + 1
	}
	return out.String(), cuts
}

// snippetWindowOf is the part of the line [start, end) of code that a cut
// keeps, on UTF-8 character boundaries.
func snippetWindowOf(code string, start, end, highlight int) (from, to int) {
	from = start
	if highlight >= start && highlight <= end {
		from = max(start, highlight-snippetLead)
	}
	to = min(end, from+snippetWindow)
	from = max(start, min(from, to-snippetWindow))
	for from > start && !utf8.RuneStart(code[from]) {
		from--
	}
	for to < end && !utf8.RuneStart(code[to]) {
		to--
	}
	return from, to
}

// mapSnippetOffset moves an offset into the uncut code to the cut code:
// an offset inside a part left out lands where the kept text of its line
// begins (a head cut) or ends (a tail cut).
func mapSnippetOffset(offset int, cuts []snippetCut) int {
	shift := 0
	for _, c := range cuts {
		switch {
		case offset >= c.to:
			shift += len(c.marker) - (c.to - c.from)
		case offset > c.from && c.head:
			return c.at + len(c.marker)
		case offset > c.from:
			return c.at
		default:
			return offset + shift
		}
	}
	return offset + shift
}

// cutSnippetContext bounds the enclosing block's description ("resource
// "a" "b"") shown with a snippet, whose labels can be as long as the file.
func cutSnippetContext(ctx string) string {
	if len(ctx) <= maxSnippetLine {
		return ctx
	}
	to := snippetWindow
	for to > 0 && !utf8.RuneStart(ctx[to]) {
		to--
	}
	return ctx[:to] + cutMarker(len(ctx)-to)
}
