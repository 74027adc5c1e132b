package nesting

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// frameKind is what an open level of the scan is.
type frameKind uint8

const (
	kTop     frameKind = iota // the file's body: not a level
	kBare                     // a whole input that is a template (a JSON string): not a level
	kBrace                    // {
	kBracket                  // [
	kParen                    // (
	kInterp                   // ${ or %{
	kString                   // "
	kHeredoc                  // <<EOT
	kJSON                     // a JSON object or array
)

// frame is one open level. extra counts further levels that belong to it:
// unary and conditional operators open in an expression frame, open
// %{if}/%{for} blocks in a template frame.
type frame struct {
	kind      frameKind
	extra     int
	marker    []byte // heredoc end marker
	midline   bool   // heredoc: the current line began before an interpolation
	directive int8   // interpolation: +1 opens a template block, -1 closes one
	// runStart is 1 + the offset where the template's current run of
	// literal parts began, or 0 (no run: at the start, after "${").
	runStart int
}

type scanner struct {
	src      []byte
	pos      int
	max      int // < 0: no limit
	depth    int // current depth
	deepest  int
	exceeded int // byte offset where depth first went beyond max, or -1
	stack    []frame
	// exceededAt, when >= 0, is reported instead of positions in src (a
	// template scan inside a JSON string reports the string's offset).
	exceededAt int
	// invalid counts characters the HCL lexer takes for invalid tokens,
	// each of which becomes a diagnostic (a file of 10 MB of such bytes
	// makes 10 million); invalidAt is the offset of the one beyond
	// MaxInvalid, or -1. Only the top-level HCL scan with a limit counts.
	invalid, invalidAt int
	countInvalid       bool
	// tokens counts the tokens the parser will see (see Limits.Tokens);
	// maxTokens < 0 means no limit, tooManyAt is the offset of the token
	// beyond it, or -1.
	tokens, maxTokens, tooManyAt int
	// joined estimates the bytes HCL's parser copies joining consecutive
	// literal parts of templates (lines of a heredoc or bare template,
	// text around "$${" and "%%{" escapes), which it does one part at a
	// time: the cost is quadratic in the parts of a run. maxJoined < 0
	// means no limit; joinedAt is the offset of the part beyond it, or -1.
	joined, maxJoined int64
	joinedAt          int
}

func newScanner(src []byte, max int) *scanner {
	return &scanner{src: src, max: max, exceeded: -1, exceededAt: -1, invalidAt: -1, maxTokens: -1, tooManyAt: -1, maxJoined: -1, joinedAt: -1}
}

// token counts one token starting at offset at.
func (s *scanner) token(at int) {
	s.tokens++
	if s.maxTokens >= 0 && s.tokens > s.maxTokens && s.tooManyAt < 0 {
		s.tooManyAt = at
	}
}

// partCost is what joining one more literal part costs beyond its bytes.
const partCost = 32

// part records a literal part of the innermost template starting at
// offset at: after another part of the same run, the parser copies the
// run so far to join them.
func (s *scanner) part(at int) {
	f := s.top()
	if f.runStart == 0 {
		f.runStart = at + 1
		return
	}
	s.joined += int64(at-(f.runStart-1)) + partCost
	if s.maxJoined >= 0 && s.joined > s.maxJoined && s.joinedAt < 0 {
		s.joinedAt = at
	}
}

// invalidChar counts an invalid character at offset at.
func (s *scanner) invalidChar(at int) {
	if !s.countInvalid {
		return
	}
	s.invalid++
	if s.invalid > MaxInvalid && s.invalidAt < 0 {
		s.invalidAt = at
	}
}

func (s *scanner) run(syntax Syntax) {
	switch syntax {
	case HCL:
		s.countInvalid = s.max >= 0
		if !validUTF8(s.src) {
			if s.countInvalid && s.countBrokenUTF8() {
				return // binary: refused without lexing it
			}
			if s.tooManyTokens() {
				return // refused before the lexer allocates its tokens
			}
			var invalid int
			s.deepest, s.exceeded, invalid = lexedDepth(s.src, kTop, 0, s.max)
			if s.countInvalid && invalid >= 0 {
				s.invalidAt = invalid
			}
			return
		}
		s.stack = append(s.stack, frame{kind: kTop})
		s.scanHCL()
	case HCLJSON, JSON:
		s.scanJSON(syntax == HCLJSON)
	}
}

// tooManyTokens counts the tokens of an HCL file that is not valid UTF-8
// with the scan's own rules (close to the lexer's: a broken byte is one
// token) and reports whether there are more than maxTokens, setting
// tooManyAt.
func (s *scanner) tooManyTokens() bool {
	if s.maxTokens < 0 && s.maxJoined < 0 {
		return false
	}
	c := newScanner(s.src, -1)
	c.maxTokens = s.maxTokens
	c.stack = append(c.stack, frame{kind: kTop})
	c.maxJoined = s.maxJoined
	c.scanHCL()
	s.tokens, s.tooManyAt = c.tokens, c.tooManyAt
	s.joined, s.joinedAt = c.joined, c.joinedAt
	return s.tooManyAt >= 0 || s.joinedAt >= 0
}

func (s *scanner) done() bool {
	return s.pos >= len(s.src) || (s.exceeded >= 0 && s.max >= 0) || s.invalidAt >= 0 || s.tooManyAt >= 0 || s.joinedAt >= 0
}

// countBrokenUTF8 counts the bytes of src that are not valid UTF-8 and
// reports whether there are more than MaxInvalid (setting invalidAt).
func (s *scanner) countBrokenUTF8() bool {
	for i := 0; i < len(s.src); {
		r, size := utf8.DecodeRune(s.src[i:])
		if r == utf8.RuneError && size == 1 {
			s.invalidChar(i)
			if s.invalidAt >= 0 {
				return true
			}
		}
		i += size
	}
	return false
}

// grow adds n levels opened at byte offset at.
func (s *scanner) grow(n, at int) {
	s.depth += n
	if s.depth > s.deepest {
		s.deepest = s.depth
	}
	if s.max >= 0 && s.depth > s.max && s.exceeded < 0 {
		if s.exceededAt >= 0 {
			at = s.exceededAt
		}
		s.exceeded = at
	}
}

func (s *scanner) push(f frame, at int) {
	s.stack = append(s.stack, f)
	if f.kind != kTop && f.kind != kBare {
		s.grow(1, at)
	}
}

func (s *scanner) pop() frame {
	f := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	s.depth -= f.extra
	if f.kind != kTop && f.kind != kBare {
		s.depth--
	}
	return f
}

func (s *scanner) top() *frame { return &s.stack[len(s.stack)-1] }

// scanHCL runs the HCL native syntax scan over s.src from s.pos with the
// frames already on the stack.
func (s *scanner) scanHCL() {
	for !s.done() && len(s.stack) > 0 {
		switch s.top().kind {
		case kString:
			s.stringStep()
		case kHeredoc, kBare:
			s.templateStep()
		default:
			s.exprStep()
		}
	}
}

func (s *scanner) at(i int) byte {
	if i < len(s.src) {
		return s.src[i]
	}
	return 0
}

// exprStep consumes one token (or a run of spaces) in expression mode.
func (s *scanner) exprStep() {
	c := s.src[s.pos]
	f := s.top()
	if c != ' ' && c != '\t' && c != '\r' {
		s.token(s.pos)
	}
	switch {
	case c == '\n':
		if f.kind == kTop || f.kind == kBrace {
			// A newline ends an attribute or object item.
			s.depth -= f.extra
			f.extra = 0
		}
		s.pos++
	case c == '#' || (c == '/' && s.at(s.pos+1) == '/'):
		if i := bytes.IndexByte(s.src[s.pos:], '\n'); i >= 0 {
			s.pos += i
		} else {
			s.pos = len(s.src)
		}
	case c == '/' && s.at(s.pos+1) == '*':
		if i := bytes.Index(s.src[s.pos+2:], []byte("*/")); i >= 0 {
			s.pos += 2 + i + 2
		} else {
			s.pos++ // unterminated: not a comment for the lexer, but "/", "*"...
		}
	case c == '"':
		s.push(frame{kind: kString}, s.pos)
		s.pos++
	case c == '<' && s.at(s.pos+1) == '<':
		if marker, next := s.heredocIntro(s.pos + 2); next > 0 {
			s.push(frame{kind: kHeredoc, marker: marker}, s.pos)
			s.pos = next
			return
		}
		s.pos += 2
	case c == '{':
		s.push(frame{kind: kBrace}, s.pos)
		s.pos++
	case c == '[':
		s.push(frame{kind: kBracket}, s.pos)
		s.pos++
	case c == '(':
		s.push(frame{kind: kParen}, s.pos)
		s.pos++
	case c == '}':
		s.closeBrace()
		s.pos++
	case c == '~' && s.at(s.pos+1) == '}':
		s.closeBrace()
		s.pos += 2
	case c == ']' || c == ')':
		if f.kind == kBracket || f.kind == kParen {
			s.pop()
		}
		s.pos++
	case c == ',':
		s.depth -= f.extra
		f.extra = 0
		s.pos++
	case c == '!' && s.at(s.pos+1) == '=':
		s.token(s.pos)
		s.pos += 2
	case c == '!' || c == '-' || c == '?':
		s.token(s.pos) // an operator counts twice (see Limits.Tokens)
		f.extra++
		s.grow(1, s.pos)
		s.pos++
	case c >= '0' && c <= '9':
		s.pos = s.skipNumber(s.pos)
	case c < utf8.RuneSelf:
		switch {
		case c == '+' || c == '*' || c == '/' || c == '%' || c == '<' || c == '>' || c == '&' || c == '|' || c == '=' && s.at(s.pos+1) == '=':
			// An operator counts twice: its expression and its
			// evaluation cost about twice what other tokens cost.
			s.token(s.pos)
		case isASCIIIdentStart(c):
			s.pos = s.skipIdent(s.pos)
			return
		case c < ' ' && c != '\t' && c != '\r' || c == 0x7f || c == '@' || c == '$' || c == '\\' || c == '`' || c == '\'' || c == ';':
			s.invalidChar(s.pos)
		}
		s.pos++
	default:
		r, size := utf8.DecodeRune(s.src[s.pos:])
		if isIdentStart(r) {
			s.pos = s.skipIdent(s.pos)
		} else {
			s.invalidChar(s.pos)
			s.pos += size
		}
	}
}

// closeBrace handles "}" (or "~}"): as the lexer does, it closes the
// innermost brace or interpolation, together with any brackets and
// parentheses left open inside it. At the top level it is a stray token.
func (s *scanner) closeBrace() {
	for i := len(s.stack) - 1; i >= 0; i-- {
		switch s.stack[i].kind {
		case kBrace:
			for len(s.stack) > i {
				s.pop()
			}
			return
		case kInterp:
			for len(s.stack) > i+1 {
				s.pop()
			}
			f := s.pop()
			t := s.top()
			switch {
			case f.directive > 0:
				t.extra++
				s.grow(1, s.pos)
			case f.directive < 0 && t.extra > 0:
				t.extra--
				s.depth--
			}
			return
		case kTop, kBare, kString, kHeredoc:
			return
		}
	}
}

// stringStep consumes part of a quoted string.
func (s *scanner) stringStep() {
	src := s.src
	s.literal(s.pos)
	for i := s.pos; i < len(src); i++ {
		switch src[i] {
		case '"':
			s.token(i)
			s.pop()
			s.pos = i + 1
			return
		case '\\':
			if c := s.at(i + 1); c != '\n' && c != '\r' && i+1 < len(src) {
				i++
			}
		case '$', '%':
			if next, ok := s.templateSequence(i); ok {
				s.pos = next
				return
			} else {
				i = next - 1
			}
		}
	}
	s.pos = len(src)
}

// templateStep consumes part of a heredoc or bare template: at most one
// line, or up to an interpolation.
func (s *scanner) templateStep() {
	f := s.top()
	src := s.src
	s.literal(s.pos)
	if f.kind == kHeredoc && !f.midline && s.isEndMarker(f.marker) {
		// The end marker; its newline belongs to the expression.
		end := bytes.IndexByte(src[s.pos:], '\n')
		s.pos += end
		s.pop()
		return
	}
	for i := s.pos; i < len(src); i++ {
		switch src[i] {
		case '\n':
			f.midline = false
			s.pos = i + 1
			return
		case '$', '%':
			if next, ok := s.templateSequence(i); ok {
				s.pos = next
				return
			} else {
				i = next - 1
			}
		}
	}
	s.pos = len(src)
}

// literal counts the literal token of a string or template part starting
// at offset i, if it is not empty: a run of characters up to a quote, an
// interpolation or (in a heredoc) the end of a line.
func (s *scanner) literal(i int) {
	if i < len(s.src) && s.src[i] != '"' && s.src[i] != '\n' && !((s.src[i] == '$' || s.src[i] == '%') && s.at(i+1) == '{') {
		s.token(i)
		s.part(i)
	}
}

// templateSequence looks at the "$" or "%" at offset i of a template. If
// it begins an interpolation or directive, it opens it and returns the
// offset after "${" (or "${~") and true. Otherwise it returns the offset
// after the literal characters: "$${" and "%%{" are escapes.
func (s *scanner) templateSequence(i int) (int, bool) {
	c := s.src[i]
	switch {
	case s.at(i+1) == '{':
		var dir int8
		next := i + 2
		if s.at(next) == '~' {
			next++
		}
		if c == '%' {
			dir = s.directiveKind(next)
		}
		t := s.top()
		if t.kind == kHeredoc {
			t.midline = true
		}
		t.runStart = 0 // an interpolation ends the run of literal parts
		s.token(i)
		s.push(frame{kind: kInterp, directive: dir}, i)
		return next, true
	case s.at(i+1) == c && s.at(i+2) == '{':
		// An escape is a literal part of its own, and so is the text
		// after it.
		s.token(i)
		s.part(i)
		s.literal(i + 3)
		return i + 3, false
	}
	return i + 1, false
}

// directiveKind reads the keyword of a template directive at offset i:
// +1 for "if" and "for", -1 for "endif" and "endfor", 0 otherwise.
func (s *scanner) directiveKind(i int) int8 {
	for i < len(s.src) && (s.src[i] == ' ' || s.src[i] == '\t') {
		i++
	}
	j := i
	for j < len(s.src) && isASCIIIdentStart(s.src[j]) {
		j++
	}
	switch string(s.src[i:j]) {
	case "if", "for":
		return 1
	case "endif", "endfor":
		return -1
	}
	return 0
}

// heredocIntro reads a heredoc introducer after "<<" at offset i: an
// optional "-", an identifier and a newline. It returns the marker and the
// offset after the newline, or next 0 if there is none.
func (s *scanner) heredocIntro(i int) (marker []byte, next int) {
	if s.at(i) == '-' {
		i++
	}
	r, _ := utf8.DecodeRune(s.src[min(i, len(s.src)):])
	if i >= len(s.src) || !isIdentStart(r) {
		return nil, 0
	}
	end := s.skipIdent(i)
	marker = s.src[i:end]
	if s.at(end) == '\r' {
		end++
	}
	if s.at(end) != '\n' || end >= len(s.src) {
		return nil, 0
	}
	return marker, end + 1
}

// isEndMarker reports whether the line at s.pos ends the heredoc: as in
// the lexer, a line whose first literal token (after any invalid UTF-8
// bytes) runs to the newline and is the marker, give or take spaces.
func (s *scanner) isEndMarker(marker []byte) bool {
	rest := s.src[s.pos:]
	end := bytes.IndexByte(rest, '\n')
	if end < 0 {
		return false
	}
	line := rest[:end]
	for len(line) > 0 {
		r, size := utf8.DecodeRune(line)
		if r != utf8.RuneError || size != 1 {
			break
		}
		line = line[1:]
	}
	if bytes.IndexAny(line, "$%") >= 0 || !utf8.Valid(line) {
		return false
	}
	if bytes.IndexByte(bytes.TrimSuffix(line, []byte("\r")), '\r') >= 0 {
		return false
	}
	return bytes.Equal(bytes.TrimSpace(line), marker)
}

// skipNumber returns the offset after the number literal at i.
func (s *scanner) skipNumber(i int) int {
	for i < len(s.src) {
		c := s.src[i]
		switch {
		case c >= '0' && c <= '9' || c == '.':
			i++
		case (c == 'e' || c == 'E') && (isDigit(s.at(i+1)) || (s.at(i+1) == '+' || s.at(i+1) == '-') && isDigit(s.at(i+2))):
			i += 2
		default:
			return i
		}
	}
	return i
}

// skipIdent returns the offset after the identifier at i.
func (s *scanner) skipIdent(i int) int {
	for i < len(s.src) {
		c := s.src[i]
		if c < utf8.RuneSelf {
			if !isASCIIIdentStart(c) && !isDigit(c) && c != '-' {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(s.src[i:])
		if !isIdentContinue(r) {
			return i
		}
		i += size
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isASCIIIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIdentStart(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

func isIdentContinue(r rune) bool {
	return isIdentStart(r) || r == '-' || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}
