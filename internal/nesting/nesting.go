package nesting

import (
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// MaxDepth is the nesting limit for configuration files, the lock file and
// the CLI configuration: far above anything written by hand or generated
// (OpenTofu's own test fixtures nest fewer than 20 levels), far below the
// tens of thousands of levels at which the parsers exhaust the stack.
const MaxDepth = 1000

// MaxResponseDepth is the nesting limit for JSON documents received from
// registries and mirrors, whose formats nest at most five levels.
const MaxResponseDepth = 100

// Syntax selects the rules of the scan.
type Syntax int

const (
	// HCL is the HCL native syntax (.tf, .tofu, .terraform.lock.hcl, the
	// CLI configuration). HCL 1 files are scanned with the same rules,
	// which count at least the levels the HCL 1 parser recurses on.
	HCL Syntax = iota
	// HCLJSON is HCL's JSON syntax (.tf.json): JSON whose strings are
	// templates.
	HCLJSON
	// JSON is plain JSON.
	JSON
)

// TooDeepError reports input that nests deeper than Max levels. Pos is
// where the level beyond Max opens: Line and Column count from 1 (Column
// in characters), Byte from 0.
type TooDeepError struct {
	Max int
	Pos hcl.Pos
}

func (e *TooDeepError) Error() string {
	return fmt.Sprintf("line %d, column %d: nesting deeper than %d levels", e.Pos.Line, e.Pos.Column, e.Max)
}

// Diagnostic returns the error as an error diagnostic whose Subject is the
// character where the limit is exceeded in the named file.
func (e *TooDeepError) Diagnostic(filename string) *hcl.Diagnostic {
	end := e.Pos
	end.Column++
	end.Byte++
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Nesting too deep",
		Detail: fmt.Sprintf("This file nests brackets, braces, parentheses, strings, templates or operators more than %d levels deep (line %d, column %d). "+
			"tfdeps refuses such a file before parsing it, because parsing it could exhaust the stack.", e.Max, e.Pos.Line, e.Pos.Column),
		Subject: &hcl.Range{Filename: filename, Start: e.Pos, End: end},
	}
}

// Check returns a *TooDeepError if src nests deeper than max levels in
// the given syntax, and nil otherwise. It never fails for another reason:
// malformed input is left to the parser.
func Check(src []byte, syntax Syntax, max int) error {
	s := newScanner(src, max)
	s.run(syntax)
	if s.exceeded >= 0 {
		return &TooDeepError{Max: max, Pos: position(src, s.exceeded)}
	}
	return nil
}

// Depth returns the deepest nesting of src in the given syntax.
func Depth(src []byte, syntax Syntax) int {
	s := newScanner(src, -1)
	s.run(syntax)
	return s.deepest
}

// CheckDiagnostics is Check for a named HCL or HCL JSON file, returning
// the error as diagnostics.
func CheckDiagnostics(filename string, src []byte, syntax Syntax, max int) hcl.Diagnostics {
	if err := Check(src, syntax, max); err != nil {
		return hcl.Diagnostics{err.(*TooDeepError).Diagnostic(filename)}
	}
	return nil
}

// position converts a byte offset of src to a line and a column counted
// in characters (runes), as hcl.Pos does for single-rune characters.
func position(src []byte, offset int) hcl.Pos {
	line, start := 1, 0
	for i := 0; i < offset; i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return hcl.Pos{Line: line, Column: utf8.RuneCount(src[start:offset]) + 1, Byte: offset}
}
