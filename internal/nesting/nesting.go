package nesting

import (
	"fmt"
	"math"
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

// MaxInvalid is how many characters of an HCL native syntax file may be
// invalid tokens (control characters, "@", bytes that are not UTF-8...):
// the parser reports each as an error, so that 10 MB of binary data would
// make ten million diagnostics and gigabytes of memory. A file with more
// is refused as not a configuration file at all.
const MaxInvalid = 1000

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
	return limitDiagnostic(filename, e.Pos, "Nesting too deep",
		fmt.Sprintf("This file nests brackets, braces, parentheses, strings, templates or operators more than %d levels deep (line %d, column %d). "+
			"tfdeps refuses such a file before parsing it, because parsing it could exhaust the stack.", e.Max, e.Pos.Line, e.Pos.Column))
}

// Check returns a *TooDeepError if src nests deeper than max levels in
// the given syntax, an *InvalidError if it is HCL with more than
// MaxInvalid invalid characters, and nil otherwise. Other malformed input
// is left to the parser.
func Check(src []byte, syntax Syntax, max int) error {
	return CheckLimits(src, syntax, Limits{Depth: max})
}

// Limits are what CheckLimits refuses.
type Limits struct {
	// Depth is the deepest nesting allowed.
	Depth int
	// Tokens, if not 0, is the most tokens allowed: names, numbers,
	// operators, punctuation, brackets, newlines, comments, each quote and
	// literal part of a string, each line of a heredoc (an operator
	// counting twice, for what evaluating it costs); in JSON each
	// bracket, string, literal, comma and colon, plus the tokens of the
	// templates in strings. It approximates what HCL's lexer produces
	// (within a few percent on real files) and bounds what its parser
	// allocates, which is in proportion to the tokens.
	Tokens int
	// Joined, if not 0, is the most bytes HCL's parser may copy joining
	// the consecutive literal parts of templates: the lines of a heredoc
	// or of a JSON string's template, and the text around "$${" and "%%{"
	// escapes. The parser joins a run of parts one at a time, so its work
	// grows with the square of the run (a 10 MB heredoc of short lines
	// takes hours); the scan estimates it as the bytes of the run before
	// each part, plus a little per part.
	Joined int64
}

// CheckLimits is Check with the given limits: it also returns a
// *TooManyTokensError if src has more than l.Tokens tokens (counting
// stops there).
func CheckLimits(src []byte, syntax Syntax, l Limits) error {
	s := newScanner(src, l.Depth)
	if l.Tokens > 0 {
		s.maxTokens = l.Tokens
	}
	if l.Joined > 0 {
		s.maxJoined = l.Joined
	}
	s.run(syntax)
	switch {
	case s.exceeded >= 0:
		return &TooDeepError{Max: l.Depth, Pos: position(src, s.exceeded)}
	case s.invalidAt >= 0:
		return &InvalidError{Max: MaxInvalid, Pos: position(src, s.invalidAt)}
	case s.tooManyAt >= 0:
		return &TooManyTokensError{Max: l.Tokens, Pos: position(src, s.tooManyAt)}
	case s.joinedAt >= 0:
		return &TooManyPartsError{Max: l.Joined, Pos: position(src, s.joinedAt)}
	}
	return nil
}

// Joined returns the estimate Limits.Joined bounds for src.
func Joined(src []byte, syntax Syntax) int64 {
	s := newScanner(src, -1)
	s.run(syntax)
	return s.joined
}

// TooManyPartsError reports a template whose literal parts would cost
// the parser more than Max bytes to join; Pos is the part beyond it.
type TooManyPartsError struct {
	Max int64
	Pos hcl.Pos
}

func (e *TooManyPartsError) Error() string {
	return fmt.Sprintf("line %d, column %d: joining the parts of a string or heredoc would copy more than %s bytes", e.Pos.Line, e.Pos.Column, thousands(int(e.Max)))
}

// Diagnostic returns the error as an error diagnostic whose Subject is the
// part beyond the limit in the named configuration file.
func (e *TooManyPartsError) Diagnostic(filename string) *hcl.Diagnostic {
	return limitDiagnostic(filename, e.Pos, "Configuration file too complex",
		fmt.Sprintf("A string or heredoc in this file, at line %d, column %d, has so many parts (lines, or \"$${\" and \"%%%%{\" escapes) for its size that parsing it would copy more than %s bytes, which takes minutes to hours. "+
			"tfdeps refuses such a file before parsing it. Split the text into several values, or read it with file().", e.Pos.Line, e.Pos.Column, thousands(int(e.Max))))
}

// Tokens returns the tokens of src in the given syntax, counted as
// Limits.Tokens counts them.
func Tokens(src []byte, syntax Syntax) int {
	s := newScanner(src, -1)
	s.maxTokens = math.MaxInt
	s.run(syntax)
	return s.tokens
}

// TooManyTokensError reports input with more than Max tokens; Pos is the
// start of the token beyond Max.
type TooManyTokensError struct {
	Max int
	Pos hcl.Pos
}

func (e *TooManyTokensError) Error() string {
	return fmt.Sprintf("line %d, column %d: more than %s tokens", e.Pos.Line, e.Pos.Column, thousands(e.Max))
}

// Diagnostic returns the error as an error diagnostic whose Subject is the
// token beyond the limit in the named configuration file.
func (e *TooManyTokensError) Diagnostic(filename string) *hcl.Diagnostic {
	return limitDiagnostic(filename, e.Pos, "Configuration file too complex",
		fmt.Sprintf("This file has more than %s tokens (names, numbers, operators, brackets, string parts); the one beyond the limit is at line %d, column %d. "+
			"tfdeps refuses such a file before parsing it, because parsing it would take more than 2 GB of memory. "+
			"Real configurations hold far fewer: split the file, or move large data into a file read with file() or jsondecode().", thousands(e.Max), e.Pos.Line, e.Pos.Column))
}

// thousands formats n with commas between groups of three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// InvalidError reports an HCL native syntax file with more than Max
// invalid characters; Pos is the one beyond Max.
type InvalidError struct {
	Max int
	Pos hcl.Pos
}

func (e *InvalidError) Error() string {
	return fmt.Sprintf("line %d, column %d: more than %d invalid characters", e.Pos.Line, e.Pos.Column, e.Max)
}

// Diagnostic returns the error as an error diagnostic whose Subject is the
// character beyond the limit in the named file.
func (e *InvalidError) Diagnostic(filename string) *hcl.Diagnostic {
	return limitDiagnostic(filename, e.Pos, "Not a configuration file",
		fmt.Sprintf("This file has more than %d characters that are not valid in the HCL syntax, as binary data does. "+
			"tfdeps stops reading it here rather than report each of them.", e.Max))
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
	return LimitsDiagnostics(filename, src, syntax, Limits{Depth: max})
}

// LimitsDiagnostics is CheckLimits for a named HCL or HCL JSON file,
// returning the error as diagnostics.
func LimitsDiagnostics(filename string, src []byte, syntax Syntax, l Limits) hcl.Diagnostics {
	if err := CheckLimits(src, syntax, l); err != nil {
		return hcl.Diagnostics{err.(interface {
			Diagnostic(string) *hcl.Diagnostic
		}).Diagnostic(filename)}
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

// limitDiagnostic is the error diagnostic of an exceeded limit, its
// Subject the character at pos in the named file.
func limitDiagnostic(filename string, pos hcl.Pos, summary, detail string) *hcl.Diagnostic {
	end := pos
	end.Column++
	end.Byte++
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: &hcl.Range{Filename: filename, Start: pos, End: end}}
}
