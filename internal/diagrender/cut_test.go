package diagrender

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// longSnippet is the JSON snippet of main.tf's bytes [start, end) as the
// subject of a diagnostic.
func longSnippet(t *testing.T, src string, start, end int) *Snippet {
	t.Helper()
	file, _ := hclparse.NewParser().ParseHCL([]byte(src), "main.tf")
	if file == nil {
		file = &hcl.File{Body: hcl.EmptyBody(), Bytes: []byte(src)}
	}
	pos := func(b int) hcl.Pos {
		line := 1 + strings.Count(src[:b], "\n")
		return hcl.Pos{Line: line, Column: b - strings.LastIndexByte(src[:b], '\n'), Byte: b}
	}
	rng := hcl.Range{Filename: "main.tf", Start: pos(start), End: pos(end)}
	return newJSONSnippet(rng, rng, file)
}

// TestSnippetCut: lines up to maxSnippetLine bytes are shown whole; a
// longer one keeps a window around the highlight with markers for what is
// left out, and the offsets still point at the highlighted text.
func TestSnippetCut(t *testing.T) {
	long := "a = \"" + strings.Repeat("x", 3000) + "ERR" + strings.Repeat("y", 3000) + "\"\n"
	errAt := strings.Index(long, "ERR")
	tests := []struct {
		name       string
		src        string
		start, end int
		code       string
		highlight  string
	}{
		{
			name:  "line of the limit is whole",
			src:   "a = \"" + strings.Repeat("x", maxSnippetLine-6) + "\"\n",
			start: 4, end: 5,
			code:      "a = \"" + strings.Repeat("x", maxSnippetLine-6) + "\"",
			highlight: "\"",
		},
		{
			name: "long line cut around the highlight",
			src:  long, start: errAt, end: errAt + 3,
			code:      cutMarker(errAt-snippetLead) + strings.Repeat("x", snippetLead) + "ERR" + strings.Repeat("y", snippetWindow-snippetLead-3) + cutMarker(len(long)-1-(errAt-snippetLead+snippetWindow)),
			highlight: "ERR",
		},
		{
			name: "highlight near the line start",
			src:  long, start: 0, end: 1,
			code:      long[:snippetWindow] + cutMarker(len(long)-1-snippetWindow),
			highlight: "a",
		},
		{
			name: "highlight at the line end",
			src:  long, start: len(long) - 2, end: len(long) - 1,
			code:      cutMarker(len(long)-1-snippetWindow) + long[len(long)-1-snippetWindow:len(long)-1],
			highlight: "\"",
		},
		{
			name: "highlight longer than the window",
			src:  long, start: 4, end: len(long) - 1,
			code:      long[:snippetWindow] + cutMarker(len(long)-1-snippetWindow),
			highlight: long[4:snippetWindow] + cutMarker(len(long)-1-snippetWindow),
		},
		{
			name:  "another line of the snippet cut from its start",
			src:   "a = 1\nb = \"" + strings.Repeat("z", 2000) + "\"\n",
			start: 0, end: 1000,
			code:      "a = 1\n" + "b = \"" + strings.Repeat("z", snippetWindow-5) + cutMarker(2006-snippetWindow),
			highlight: "a = 1\n" + "b = \"" + strings.Repeat("z", snippetWindow-5),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := longSnippet(t, tt.src, tt.start, tt.end)
			if diff := cmp.Diff(tt.code, s.Code); diff != "" {
				t.Errorf("code (-want +got):\n%s", diff)
			}
			if got := s.Code[s.HighlightStartOffset:s.HighlightEndOffset]; got != tt.highlight {
				t.Errorf("highlighted %q, want %q", got, tt.highlight)
			}
		})
	}
}

// TestSnippetCutUTF8: whatever the highlight, a cut line of multi-byte
// characters stays valid UTF-8, bounded, with offsets inside the code.
func TestSnippetCutUTF8(t *testing.T) {
	src := "a = \"" + strings.Repeat("é€😀", 300) + "\"\n"
	if !utf8.ValidString(src) {
		t.Fatal("test input is not UTF-8")
	}
	for start := 0; start < len(src)-1; start += 7 {
		s := longSnippet(t, src, start, start+1)
		if !utf8.ValidString(s.Code) {
			t.Fatalf("start %d: code is not valid UTF-8: %q", start, s.Code)
		}
		if len(s.Code) > snippetWindow+utf8.UTFMax+2*len(cutMarker(len(src))) {
			t.Fatalf("start %d: code of %d bytes", start, len(s.Code))
		}
		if s.HighlightStartOffset < 0 || s.HighlightStartOffset > s.HighlightEndOffset || s.HighlightEndOffset > len(s.Code) {
			t.Fatalf("start %d: offsets %d-%d in %d bytes", start, s.HighlightStartOffset, s.HighlightEndOffset, len(s.Code))
		}
	}
}

// TestSnippetContextCut: the enclosing block's description is bounded too
// (a label can be as long as the file), on a character boundary.
func TestSnippetContextCut(t *testing.T) {
	label := strings.Repeat("é", 1000)
	// 15 bytes before the label: byte snippetWindow is inside an "é".
	src := "resource \"ab\" \"" + label + "\" {\n  x = \n}\n"
	at := strings.Index(src, "x =")
	s := longSnippet(t, src, at, at+1)
	if s.Context == nil {
		t.Fatal("no context")
	}
	full := "resource \"ab\" \"" + label + "\""
	want := full[:snippetWindow-1] + cutMarker(len(full)-snippetWindow+1)
	if diff := cmp.Diff(want, *s.Context); diff != "" {
		t.Errorf("context (-want +got):\n%s", diff)
	}
}
