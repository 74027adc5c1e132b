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
			s.push(frame{kind: kJSON}, s.pos)
			s.pos++
		case '}', ']':
			if len(s.stack) > 0 {
				s.pop()
			}
			s.pos++
		case '"':
			end := s.jsonStringEnd(s.pos + 1)
			if templates && end < len(src) {
				s.scanTemplateString(s.pos, src[s.pos:end+1])
			}
			s.pos = end + 1
		default:
			s.pos++
		}
	}
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
	s.scanSub(at, content, kBare)
	s.scanSub(at, content, kTop)
}

// scanSub scans content, found in the string at offset at, with the HCL
// rules from a frame of the given kind at the current depth.
func (s *scanner) scanSub(at int, content []byte, kind frameKind) {
	if bytes.IndexAny(content, "$%[{(!-?<\"") < 0 {
		return
	}
	if !validUTF8(content) {
		deepest, exceeded, _ := lexedDepth(content, kind, s.depth, s.max)
		s.deepest = max(s.deepest, deepest)
		if exceeded >= 0 && s.exceeded < 0 {
			s.exceeded = at
		}
		return
	}
	sub := newScanner(content, s.max)
	sub.depth, sub.deepest = s.depth, s.depth
	sub.exceededAt = at
	sub.stack = append(sub.stack, frame{kind: kind})
	sub.scanHCL()
	if sub.deepest > s.deepest {
		s.deepest = sub.deepest
	}
	if sub.exceeded >= 0 && s.exceeded < 0 {
		s.exceeded = sub.exceeded
	}
}
