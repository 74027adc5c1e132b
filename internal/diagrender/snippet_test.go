package diagrender

import (
	"bufio"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// snippetCodeByFullScan is the snippet code as every line of the file
// overlapping the snippet, found by scanning the whole file.
func snippetCodeByFullScan(src []byte, snippet hcl.Range) string {
	var lines []string
	sc := hcl.NewRangeScanner(src, snippet.Filename, bufio.ScanLines)
	for sc.Scan() {
		if line := sc.Range(); line.Overlaps(snippet) {
			lines = append(lines, string(line.SliceBytes(src)))
		}
	}
	return strings.Join(lines, "\n")
}

// TestJSONSnippetScansNearbyLines: the snippet's code, read from the lines
// around it only, is what scanning the whole file gives, for every range
// of a file with empty lines, CRLF line ends and multi-byte characters.
func TestJSONSnippetScansNearbyLines(t *testing.T) {
	src := []byte("a = 1\n\nb = \"é\"\r\nc = [\n  1,\n]\r\n\n\nd = 2")
	file, diags := hclparse.NewParser().ParseHCL(src, "main.tf")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	pos := func(b int) hcl.Pos {
		return hcl.Pos{Line: 1 + strings.Count(string(src[:b]), "\n"), Column: 1, Byte: b}
	}
	for start := 0; start <= len(src); start++ {
		for end := start; end <= len(src); end++ {
			rng := hcl.Range{Filename: "main.tf", Start: pos(start), End: pos(end)}
			got := newJSONSnippet(rng, rng, file)
			if diff := cmp.Diff(snippetCodeByFullScan(src, rng), got.Code); diff != "" {
				t.Fatalf("bytes %d-%d (-full scan +got):\n%s", start, end, diff)
			}
		}
	}
}
