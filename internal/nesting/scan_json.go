package nesting

import (
	"bytes"
	"encoding/json"
)

// scanJSON scans JSON: objects and arrays are levels; with templates set,
// every string is also scanned as an HCL template from the depth of the
// value that holds it.
func (s *scanner) scanJSON(templates bool) {
	src := s.src
	for !s.done() {
		switch c := src[s.pos]; c {
		case '{', '[':
			s.token(s.pos)
			s.push(frame{kind: kJSON}, s.pos)
			s.pos++
		case '}', ']':
			s.token(s.pos)
			if len(s.stack) > 0 {
				s.pop()
			}
			s.pos++
		case '"':
			s.token(s.pos)
			end := s.jsonStringEnd(s.pos + 1)
			if templates && end < len(src) {
				s.scanTemplateString(s.pos, src[s.pos:end+1])
			}
			s.pos = end + 1
		case ' ', '\t', '\r', '\n':
			s.pos++
		default:
			// ",", ":" and each literal (a number, true, false, null).
			if c == ',' || c == ':' || s.pos == 0 || !isJSONLiteralByte(src[s.pos-1]) {
				s.token(s.pos)
			}
			s.pos++
		}
	}
}

func isJSONLiteralByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '+' || c == '-'
}

// jsonStringEnd returns the offset of the quote that closes the JSON
// string whose content starts at i, or len(src) if there is none.
func (s *scanner) jsonStringEnd(i int) int {
	for i < len(s.src) {
		switch s.src[i] {
		case '"':
			return i
		case '\\':
			i += 2
		default:
			i++
		}
	}
	return len(s.src)
}

// scanTemplateString scans the JSON string literal quoted (starting at
// offset at, quotes included) as a bare HCL template, at the current depth.
func (s *scanner) scanTemplateString(at int, quoted []byte) {
	content := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(content, '\\') >= 0 {
		var str string
		if json.Unmarshal(quoted, &str) != nil {
			return // the JSON parser rejects it: no template is parsed
		}
		content = []byte(str)
	}
	// A string is a template in most places, but an expression where
	// OpenTofu reads a keyword, type or reference from it ("list(string)"):
	// it counts as the deeper of the two.
	// The template's tokens count once, as the template's.
	s.tokensAt(at, s.scanSub(at, content, kBare))
	s.scanSub(at, content, kTop)
}

// tokensAt counts n tokens at offset at.
func (s *scanner) tokensAt(at, n int) {
	for ; n > 0 && s.tooManyAt < 0; n-- {
		s.token(at)
	}
	s.tokens += max(n, 0)
}

// scanSub scans content, found in the string at offset at, with the HCL
// rules from a frame of the given kind at the current depth. It returns
// the tokens counted in content beyond its first (a string with no
// template sequence is one token).
func (s *scanner) scanSub(at int, content []byte, kind frameKind) (tokens int) {
	if bytes.IndexAny(content, "$%[{(!-?<\"\n") < 0 {
		return 0
	}
	if !validUTF8(content) {
		deepest, exceeded, _ := lexedDepth(content, kind, s.depth, s.max)
		s.deepest = max(s.deepest, deepest)
		if exceeded >= 0 && s.exceeded < 0 {
			s.exceeded = at
		}
		return len(content) // at most a token a byte
	}
	sub := newScanner(content, s.max)
	sub.depth, sub.deepest = s.depth, s.depth
	sub.exceededAt = at
	sub.stack = append(sub.stack, frame{kind: kind})
	sub.scanHCL()
	if kind == kBare {
		// The template's literal parts (lines, escapes) are joined once.
		s.addJoined(at, sub.joined)
	}
	if sub.deepest > s.deepest {
		s.deepest = sub.deepest
	}
	if sub.exceeded >= 0 && s.exceeded < 0 {
		s.exceeded = sub.exceeded
	}
	return max(sub.tokens-1, 0)
}

// addJoined adds n bytes of joining literal parts, from the template of
// the string at offset at.
func (s *scanner) addJoined(at int, n int64) {
	s.joined += n
	if s.maxJoined >= 0 && s.joined > s.maxJoined && s.joinedAt < 0 {
		s.joinedAt = at
	}
}
