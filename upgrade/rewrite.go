package upgrade

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// constraintEdit is one version string to change in a configuration
// file: a required_providers entry's (by local name) or a module call's
// (by call name), through bump (old string to new).
type constraintEdit struct {
	module bool
	name   string
	bump   func(old string) (string, error)
}

// editResult is what an edit changed: the string before and after, and
// its line.
type editResult struct {
	Line     int
	Old, New string
}

// rewriteConstraint changes the version string e names in the
// native-syntax file src, found through hclwrite, and returns the new
// content. Only the bytes of that string change: comments, spacing, tabs,
// line endings and every other token stay as they were (hclwrite's own
// output would reformat the file). A string that is not found, or is not
// a plain quoted string, is an error, as is one bump refuses.
func rewriteConstraint(src []byte, filename string, e constraintEdit) ([]byte, editResult, error) {
	f, diags := hclwrite.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, editResult{}, fmt.Errorf("%s: %s", filename, diags.Error())
	}
	tok, err := findVersionString(f.Body(), e)
	if err != nil {
		return nil, editResult{}, notRewritable{err.Error()}
	}
	off, line := positionOf(f, tok)
	old := unescapeQuoted(tok.Bytes)
	updated, err := e.bump(old)
	if err != nil {
		return nil, editResult{}, err
	}
	res := editResult{Line: line, Old: old, New: updated}
	if updated == old {
		return src, res, nil
	}
	out := append(append(append([]byte{}, src[:off]...), escapeQuoted(updated)...), src[off+len(tok.Bytes):]...)
	return out, res, nil
}

// findVersionString is the quoted-literal token holding e's constraint.
func findVersionString(body *hclwrite.Body, e constraintEdit) (*hclwrite.Token, error) {
	var found []*hclwrite.Token
	for _, b := range body.Blocks() {
		switch {
		case e.module && b.Type() == "module" && len(b.Labels()) == 1 && b.Labels()[0] == e.name:
			if a := b.Body().GetAttribute("version"); a != nil {
				if tok := plainString(a.Expr().BuildTokens(nil)); tok != nil {
					found = append(found, tok)
				}
			}
		case !e.module && b.Type() == "terraform":
			for _, rp := range b.Body().Blocks() {
				if rp.Type() != "required_providers" {
					continue
				}
				if a := rp.Body().GetAttribute(e.name); a != nil {
					if tok := providerVersionToken(a.Expr().BuildTokens(nil)); tok != nil {
						found = append(found, tok)
					}
				}
			}
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	what := fmt.Sprintf("required_providers entry %q", e.name)
	if e.module {
		what = fmt.Sprintf("module %q", e.name)
	}
	if len(found) > 1 {
		return nil, fmt.Errorf("%s is declared more than once", what)
	}
	return nil, fmt.Errorf("the version of %s is not a plain quoted string", what)
}

// plainString is the literal of an expression that is one quoted string
// without interpolation, else nil.
func plainString(toks hclwrite.Tokens) *hclwrite.Token {
	if len(toks) == 3 && toks[0].Type == hclsyntax.TokenOQuote && toks[1].Type == hclsyntax.TokenQuotedLit && toks[2].Type == hclsyntax.TokenCQuote {
		return toks[1]
	}
	return nil
}

// providerVersionToken finds the version string of a required_providers
// entry: the legacy form `name = "~> 1.0"` or the object's `version`
// attribute (at the object's own level).
func providerVersionToken(toks hclwrite.Tokens) *hclwrite.Token {
	if tok := plainString(toks); tok != nil {
		return tok
	}
	depth := 0
	for i, t := range toks {
		switch t.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen:
			depth++
			continue
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen:
			depth--
			continue
		}
		if depth != 1 {
			continue
		}
		key, next := objectKey(toks, i)
		if key != "version" {
			continue
		}
		if next < len(toks) && (toks[next].Type == hclsyntax.TokenEqual || toks[next].Type == hclsyntax.TokenColon) {
			rest := valueTokens(toks[next+1:])
			if tok := plainString(rest); tok != nil {
				return tok
			}
		}
	}
	return nil
}

// objectKey reads an object key starting at toks[i] (an identifier or a
// quoted string) and returns it with the index after it ("" when there
// is none).
func objectKey(toks hclwrite.Tokens, i int) (string, int) {
	if toks[i].Type == hclsyntax.TokenIdent {
		return string(toks[i].Bytes), i + 1
	}
	if toks[i].Type == hclsyntax.TokenOQuote && i+2 < len(toks) && toks[i+1].Type == hclsyntax.TokenQuotedLit && toks[i+2].Type == hclsyntax.TokenCQuote {
		if i > 0 && toks[i-1].Type != hclsyntax.TokenNewline && toks[i-1].Type != hclsyntax.TokenOBrace && toks[i-1].Type != hclsyntax.TokenComma {
			return "", i
		}
		return unescapeQuoted(toks[i+1].Bytes), i + 3
	}
	return "", i
}

// valueTokens are the tokens of one value: up to the next newline, comma
// or closing brace.
func valueTokens(toks hclwrite.Tokens) hclwrite.Tokens {
	for i, t := range toks {
		switch t.Type {
		case hclsyntax.TokenNewline, hclsyntax.TokenComma, hclsyntax.TokenCBrace, hclsyntax.TokenComment:
			return toks[:i]
		}
	}
	return toks
}

// positionOf is the byte offset and 1-based line of tok in f: a parsed
// token's SpacesBefore counts the bytes of whitespace before it, so the
// tokens' lengths add up to the source's.
func positionOf(f *hclwrite.File, tok *hclwrite.Token) (int, int) {
	off, line := 0, 1
	for _, t := range f.BuildTokens(nil) {
		off += t.SpacesBefore
		if t == tok {
			return off, line
		}
		off += len(t.Bytes)
		line += bytes.Count(t.Bytes, []byte("\n"))
	}
	return -1, 0
}

// escapeQuoted is s as the inside of a quoted HCL string.
func escapeQuoted(s string) string {
	q := strconv.Quote(s)
	q = q[1 : len(q)-1]
	return string(bytes.ReplaceAll([]byte(q), []byte("${"), []byte("$${")))
}

// unescapeQuoted reads the inside of a quoted HCL string without
// templates (the constraints strings are).
func unescapeQuoted(b []byte) string {
	s, err := strconv.Unquote(`"` + string(b) + `"`)
	if err != nil {
		return string(b)
	}
	return s
}
