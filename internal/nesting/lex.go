package nesting

import (
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// lexedDepth returns the deepest nesting of src, lexed from a frame of the
// given kind (kTop: a configuration file, kBare: a template, otherwise an
// expression), starting at base, and the byte offset where it first goes
// beyond max (-1 if it does not, or max < 0).
//
// It also returns the offset of the invalid token beyond MaxInvalid, or -1.
func lexedDepth(src []byte, kind frameKind, base, max int) (deepest, exceeded, invalid int) {
	var tokens hclsyntax.Tokens
	switch kind {
	case kTop:
		tokens, _ = hclsyntax.LexConfig(src, "", hcl.InitialPos)
	case kBare:
		tokens, _ = hclsyntax.LexTemplate(src, "", hcl.InitialPos)
	default:
		tokens, _ = hclsyntax.LexExpression(src, "", hcl.InitialPos)
	}
	deepest, exceeded = lexDepth(tokens, base, max)
	return deepest, exceeded, invalidToken(tokens)
}

// invalidToken returns the offset of the token beyond MaxInvalid of those
// the parser reports as invalid characters, or -1.
func invalidToken(tokens hclsyntax.Tokens) int {
	n := 0
	for _, tok := range tokens {
		switch tok.Type {
		case hclsyntax.TokenInvalid, hclsyntax.TokenBadUTF8, hclsyntax.TokenNil,
			hclsyntax.TokenApostrophe, hclsyntax.TokenBacktick, hclsyntax.TokenSemicolon,
			hclsyntax.TokenBitwiseAnd, hclsyntax.TokenBitwiseOr, hclsyntax.TokenBitwiseNot,
			hclsyntax.TokenBitwiseXor, hclsyntax.TokenQuotedNewline:
			if n++; n > MaxInvalid {
				return tok.Range.Start.Byte
			}
		}
	}
	return -1
}

// validUTF8 reports whether the scan's own lexing applies to src.
func validUTF8(src []byte) bool { return utf8.Valid(src) }

// lexDepth is the nesting of tokens from HCL's own lexer, counted by the
// rules of the scan (template blocks aside). Check uses it for input that
// is not valid UTF-8, where the lexer's handling of broken sequences (it
// may take the byte after a broken lead byte, a quote say, into an
// identifier) is not worth imitating; it costs the lexer's memory, about
// a hundred bytes a token.
func lexDepth(tokens hclsyntax.Tokens, base, limit int) (deepest, exceeded int) {
	type level struct {
		open  hclsyntax.TokenType
		extra int
		// directive: +1 if this "%{" opens a template block, -1 if it
		// closes one.
		directive int
	}
	stack := []level{{open: hclsyntax.TokenEOF}}
	depth, exceeded := base, -1
	deepest = base
	at := 0
	grow := func(n int) {
		depth += n
		deepest = max(deepest, depth)
		if limit >= 0 && depth > limit && exceeded < 0 {
			exceeded = at
		}
	}
	// popTo pops down to and including the innermost level opened by one
	// of the given types, unless a level of another kind in stops comes
	// first.
	popTo := func(opens []hclsyntax.TokenType, stops []hclsyntax.TokenType) {
		for i := len(stack) - 1; i > 0; i-- {
			for _, o := range opens {
				if stack[i].open == o {
					for len(stack) > i {
						depth -= 1 + stack[len(stack)-1].extra
						stack = stack[:len(stack)-1]
					}
					return
				}
			}
			for _, s := range stops {
				if stack[i].open == s {
					return
				}
			}
		}
	}
	templates := []hclsyntax.TokenType{hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc}
	for i, tok := range tokens {
		top := &stack[len(stack)-1]
		at = tok.Range.Start.Byte
		if i > 0 && tokens[i-1].Type == hclsyntax.TokenTemplateControl && tok.Type == hclsyntax.TokenIdent {
			switch string(tok.Bytes) {
			case "if", "for":
				top.directive = 1
			case "endif", "endfor":
				top.directive = -1
			}
		}
		switch tok.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen,
			hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc,
			hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			stack = append(stack, level{open: tok.Type})
			grow(1)
		case hclsyntax.TokenCBrace:
			popTo([]hclsyntax.TokenType{hclsyntax.TokenOBrace}, append(templates, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl))
		case hclsyntax.TokenTemplateSeqEnd:
			directive := top.directive
			if top.open != hclsyntax.TokenTemplateControl {
				directive = 0
			}
			popTo([]hclsyntax.TokenType{hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl, hclsyntax.TokenOBrace}, templates)
			// A template block counts as a level of the template.
			if t := &stack[len(stack)-1]; directive > 0 {
				t.extra++
				grow(1)
			} else if directive < 0 && t.extra > 0 {
				t.extra--
				depth--
			}
		case hclsyntax.TokenCBrack, hclsyntax.TokenCParen:
			if top.open == hclsyntax.TokenOBrack || top.open == hclsyntax.TokenOParen {
				popTo([]hclsyntax.TokenType{top.open}, nil)
			}
		case hclsyntax.TokenCQuote:
			popTo([]hclsyntax.TokenType{hclsyntax.TokenOQuote}, nil)
		case hclsyntax.TokenCHeredoc:
			popTo([]hclsyntax.TokenType{hclsyntax.TokenOHeredoc}, nil)
		case hclsyntax.TokenBang, hclsyntax.TokenMinus, hclsyntax.TokenQuestion:
			top.extra++
			grow(1)
		case hclsyntax.TokenComma:
			depth -= top.extra
			top.extra = 0
		case hclsyntax.TokenNewline:
			if top.open == hclsyntax.TokenEOF || top.open == hclsyntax.TokenOBrace {
				depth -= top.extra
				top.extra = 0
			}
		}
	}
	return deepest, exceeded
}
