package lockfile

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
)

// The plain lock-file syntax is the part of HCL that OpenTofu and tfdeps
// write: "#" and "//" comments, provider blocks with one quoted label, and
// in them the arguments version, constraints (quoted strings) and hashes (a
// list of quoted strings), each argument on its own line, in ASCII. Strings
// hold no escapes and no template sequences. readPlain decodes a file in
// this syntax directly from its bytes, with memory a small multiple of the
// file (the HCL parser needs about a hundred times the file); any other
// file goes to the HCL parser, which gives OpenTofu's diagnostics. Both
// give the same selections and diagnostics for a plain file.

// maxGeneralSyntaxSize is the largest lock file read with the HCL parser
// when it is not in the plain syntax: 256 KiB, more than a thousand
// providers' selections. The parser's memory is about a hundred times the
// file, so this bounds it too.
const maxGeneralSyntaxSize = 256 << 10

// plainPos is a position in the file; the column is in bytes, which for
// ASCII is what HCL counts.
type plainPos struct{ line, col, byte int }

func (p plainPos) pos() hcl.Pos { return hcl.Pos{Line: p.line, Column: p.col, Byte: p.byte} }

// plainSpan is the source range of a token or expression.
type plainSpan struct{ start, end plainPos }

// plainAttr is one argument of a provider block: whether it is set, and
// its value's span.
type plainAttr struct {
	set  bool
	expr plainSpan
}

// plainBlock is one provider block as scanned.
type plainBlock struct {
	typ, label                     plainSpan
	version, constraints, hashAttr plainAttr
}

// plainScanner scans src in the plain syntax; ok turns false, and stays
// false, at the first byte outside it, recorded in bad.
type plainScanner struct {
	src       string
	i         int
	line      int
	lineStart int
	ok        bool
	bad       plainPos
}

func newPlainScanner(src string) *plainScanner {
	return &plainScanner{src: src, line: 1, ok: true}
}

func (s *plainScanner) here() plainPos {
	return plainPos{line: s.line, col: s.i - s.lineStart + 1, byte: s.i}
}

func (s *plainScanner) fail() bool {
	if s.ok {
		s.ok = false
		s.bad = s.here()
	}
	return false
}

func (s *plainScanner) peek() byte {
	if s.i < len(s.src) {
		return s.src[s.i]
	}
	return 0
}

// skipSpace skips spaces and tabs.
func (s *plainScanner) skipSpace() {
	for s.i < len(s.src) && (s.src[s.i] == ' ' || s.src[s.i] == '\t') {
		s.i++
	}
}

// newline consumes "\n" or "\r\n" and reports whether there was one.
func (s *plainScanner) newline() bool {
	switch {
	case s.i < len(s.src) && s.src[s.i] == '\n':
		s.i++
	case s.i+1 < len(s.src) && s.src[s.i] == '\r' && s.src[s.i+1] == '\n':
		s.i += 2
	default:
		return false
	}
	s.line++
	s.lineStart = s.i
	return true
}

// comment skips a "#" or "//" comment up to its newline (not consumed).
func (s *plainScanner) comment() bool {
	rest := s.src[s.i:]
	if len(rest) == 0 || (rest[0] != '#' && (len(rest) < 2 || rest[0] != '/' || rest[1] != '/')) {
		return false
	}
	for s.i < len(s.src) && s.src[s.i] != '\n' && s.src[s.i] != '\r' {
		s.i++
	}
	return true
}

// skipBlank skips spaces, comments and newlines.
func (s *plainScanner) skipBlank() {
	for {
		s.skipSpace()
		if !s.comment() && !s.newline() {
			return
		}
	}
}

// endOfLine consumes the rest of a line: spaces, an optional comment and
// a newline; at the end of the file only when atEOF allows it.
func (s *plainScanner) endOfLine(atEOF bool) bool {
	s.skipSpace()
	s.comment()
	if s.newline() || (atEOF && s.i == len(s.src)) {
		return true
	}
	return s.fail()
}

// ident scans an identifier and returns its span.
func (s *plainScanner) ident() (plainSpan, bool) {
	start := s.here()
	for s.i < len(s.src) {
		c := s.src[s.i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || (s.i > start.byte && (c >= '0' && c <= '9' || c == '-'))) {
			break
		}
		s.i++
	}
	if s.i == start.byte {
		return plainSpan{}, s.fail()
	}
	return plainSpan{start, s.here()}, true
}

// str scans a quoted string without escapes or template sequences and
// returns its span, quotes included.
func (s *plainScanner) str() (plainSpan, bool) {
	start := s.here()
	if s.peek() != '"' {
		return plainSpan{}, s.fail()
	}
	s.i++
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == '"':
			s.i++
			return plainSpan{start, s.here()}, true
		case c == '\\' || c < ' ' || c > '~':
			return plainSpan{}, s.fail()
		case (c == '$' || c == '%') && s.i+1 < len(s.src) && s.src[s.i+1] == '{':
			return plainSpan{}, s.fail()
		}
		s.i++
	}
	return plainSpan{}, s.fail()
}

// list scans a list of strings and returns its span, brackets included.
func (s *plainScanner) list() (plainSpan, bool) {
	start := s.here()
	s.i++ // [
	for {
		s.skipBlank()
		if s.peek() == ']' {
			break
		}
		if _, ok := s.str(); !ok {
			return plainSpan{}, false
		}
		s.skipBlank()
		if s.peek() == ',' {
			s.i++
			continue
		}
		if s.peek() != ']' {
			return plainSpan{}, s.fail()
		}
		break
	}
	s.i++ // ]
	return plainSpan{start, s.here()}, true
}

// block scans the next provider block; it returns false at the end of the
// file or outside the plain syntax (then s.ok is false).
func (s *plainScanner) block(b *plainBlock) bool {
	*b = plainBlock{}
	s.skipBlank()
	if s.i == len(s.src) {
		return false
	}
	var ok bool
	if b.typ, ok = s.ident(); !ok || s.text(b.typ) != "provider" {
		return s.fail()
	}
	s.skipSpace()
	if b.label, ok = s.str(); !ok {
		return false
	}
	s.skipSpace()
	if s.peek() != '{' {
		return s.fail()
	}
	s.i++
	if !s.endOfLine(false) {
		return false
	}
	for {
		s.skipBlank()
		if s.peek() == '}' {
			if !b.version.set {
				// The HCL parser reports the missing argument.
				return s.fail()
			}
			s.i++
			return s.endOfLine(true)
		}
		if !s.attribute(b) || !s.endOfLine(false) {
			return false
		}
	}
}

// attribute scans one argument of a provider block.
func (s *plainScanner) attribute(b *plainBlock) bool {
	name, ok := s.ident()
	if !ok {
		return false
	}
	var attr *plainAttr
	switch s.text(name) {
	case "version":
		attr = &b.version
	case "constraints":
		attr = &b.constraints
	case "hashes":
		attr = &b.hashAttr
	}
	if attr == nil || attr.set {
		s.i = name.start.byte
		return s.fail()
	}
	s.skipSpace()
	if s.peek() != '=' {
		return s.fail()
	}
	s.i++
	s.skipSpace()
	attr.set = true
	// version and constraints are strings, hashes a list: anything else
	// gets the HCL parser's diagnostics.
	if attr == &b.hashAttr {
		if s.peek() != '[' {
			return s.fail()
		}
		attr.expr, ok = s.list()
	} else {
		attr.expr, ok = s.str()
	}
	return ok
}

func (s *plainScanner) text(sp plainSpan) string { return s.src[sp.start.byte:sp.end.byte] }

// unquote returns the content of a scanned string.
func (s *plainScanner) unquote(sp plainSpan) string {
	return s.src[sp.start.byte+1 : sp.end.byte-1]
}

// scanPlain checks that src is in the plain syntax and counts its blocks;
// when it is not, it returns the first position outside it.
func scanPlain(src string) (blocks int, bad plainPos, ok bool) {
	for i := 0; i < len(src); i++ {
		if c := src[i]; c > '~' || (c < ' ' && c != '\t' && c != '\n' && c != '\r') {
			lineStart := strings.LastIndexByte(src[:i], '\n') + 1
			return 0, plainPos{line: strings.Count(src[:i], "\n") + 1, col: i - lineStart + 1, byte: i}, false
		}
	}
	s := newPlainScanner(src)
	var b plainBlock
	for s.block(&b) {
		blocks++
	}
	return blocks, s.bad, s.ok
}

// plainDecoder decodes the blocks of a plain file.
type plainDecoder struct {
	s        *plainScanner
	filename string
	flavour  Flavour
	locks    *Locks
	diags    hcl.Diagnostics
}

func (d *plainDecoder) rng(sp plainSpan) hcl.Range {
	return hcl.Range{Filename: d.filename, Start: sp.start.pos(), End: sp.end.pos()}
}

// readPlain decodes src, known to be plain with n provider blocks.
func readPlain(src, filename string, n int, flavour Flavour) (*Locks, hcl.Diagnostics) {
	d := &plainDecoder{
		s:        newPlainScanner(src),
		filename: filename,
		flavour:  flavour,
		locks:    &Locks{providers: make(map[addrs.Provider]*ProviderLock, n)},
	}
	var b plainBlock
	for d.s.block(&b) {
		if stop, more := errorLimit(d.diags, d.rng(b.typ)); stop {
			d.diags = append(d.diags, more...)
			break
		}
		d.block(&b)
	}
	return d.locks, d.diags
}

// block decodes one provider block as decodeProviderBlock and
// decoder.block do for a parsed one, with the same diagnostics in the same
// order.
func (d *plainDecoder) block(b *plainBlock) {
	addr, diags := providerAddress(d.s.unquote(b.label), d.rng(b.label), d.flavour)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return
	}
	lock := &ProviderLock{addr: addr}
	lock.version, diags = lockedVersion(d.flavour, addr, d.s.unquote(b.version.expr), d.rng(b.version.expr))
	d.diags = append(d.diags, diags...)
	if b.constraints.set {
		lock.constraints, diags = lockedConstraints(d.flavour, addr, d.s.unquote(b.constraints.expr), d.rng(b.constraints.expr))
		d.diags = append(d.diags, diags...)
	}
	if b.hashAttr.set {
		lock.hashes = d.hashes(b.hashAttr, maxDiagnostics-len(d.diags))
	}
	if prev, dup := d.locks.providers[addr]; dup {
		d.diags = append(d.diags, duplicateDiagnostic(addr, d.rng(prev.decl.span()), d.rng(b.typ)))
		return
	}
	lock.decl = newDeclPos(plainSpan{b.typ.start, b.label.end})
	d.locks.providers[addr] = lock
}

// hashes decodes a hashes argument, a list of strings.
func (d *plainDecoder) hashes(attr plainAttr, room int) []hashes.Hash {
	rng := d.rng(attr.expr)
	elems := d.s.listElements(attr.expr)
	if len(elems) == 0 {
		d.diags = append(d.diags, emptyHashesDiagnostic(rng))
		return nil
	}
	out := elems[:0]
	errs := 0
	for _, raw := range elems {
		if errs >= room {
			d.diags = append(d.diags, tooManyErrors(rng))
			return out
		}
		h, diag := lockedHash(string(raw), rng)
		if diag != nil {
			d.diags = append(d.diags, diag)
			errs++
			continue
		}
		out = append(out, h)
	}
	return out
}

// listElements returns the strings of a scanned list, in one slice of the
// exact length.
func (s *plainScanner) listElements(sp plainSpan) []hashes.Hash {
	n := s.eachElement(sp, nil)
	out := make([]hashes.Hash, 0, n)
	s.eachElement(sp, func(raw string) { out = append(out, hashes.Hash(raw)) })
	return out
}

// eachElement calls f (when not nil) with each string of a scanned list
// and returns their number.
func (s *plainScanner) eachElement(sp plainSpan, f func(string)) int {
	inner := &plainScanner{src: s.src[:sp.end.byte-1], i: sp.start.byte + 1, ok: true, line: 1}
	n := 0
	for {
		inner.skipBlank()
		if inner.i >= len(inner.src) {
			return n
		}
		str, _ := inner.str()
		n++
		if f != nil {
			f(inner.unquote(str))
		}
		inner.skipBlank()
		if inner.peek() == ',' {
			inner.i++
		}
	}
}

// notPlainDiagnostic is the error for a file over maxGeneralSyntaxSize that
// is not in the plain syntax, at the first position outside it.
func notPlainDiagnostic(filename string, bad plainPos, f Flavour) *hcl.Diagnostic {
	end := bad
	end.col++
	end.byte++
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unsupported syntax in a large dependency lock file",
		Detail: fmt.Sprintf("The dependency lock file %q is larger than %d KiB and is not written as %s writes lock files "+
			"(provider blocks holding version and constraints strings and a list of hash strings, one argument a line). "+
			"tfdeps reads other syntax only in smaller lock files.", filename, maxGeneralSyntaxSize>>10, f.Product()),
		Subject: &hcl.Range{Filename: filename, Start: bad.pos(), End: end.pos()},
	}
}

// declPos is where a provider block read by the plain reader is declared
// (its type and label, on one line), kept compactly in its ProviderLock for
// the diagnostic of a later duplicate.
type declPos struct{ line, col, byte, len int32 }

func newDeclPos(sp plainSpan) declPos {
	return declPos{int32(sp.start.line), int32(sp.start.col), int32(sp.start.byte), int32(sp.end.byte - sp.start.byte)}
}

func (p declPos) span() plainSpan {
	start := plainPos{line: int(p.line), col: int(p.col), byte: int(p.byte)}
	end := start
	end.col += int(p.len)
	end.byte += int(p.len)
	return plainSpan{start, end}
}
