package config

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// jsonValueExpr converts a native value expression. In template mode JSON
// strings are templates, so literal text is escaped and other expressions
// become interpolations; in literal mode strings are taken as they are.
func (d *Document) jsonValueExpr(e hclsyntax.Expression, mode exprMode) *jsonValue {
	escape := mode != modeLiteral
	switch t := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		return jsonFromCty(t.Val, escape)
	case *hclsyntax.TupleConsExpr:
		arr := &jsonValue{kind: jsonArray}
		for _, elem := range t.Exprs {
			arr.elems = append(arr.elems, d.jsonValueExpr(elem, mode))
		}
		return arr
	case *hclsyntax.ObjectConsExpr:
		obj := jsonObj()
		for _, item := range t.Items {
			obj.add(d.jsonObjectKey(item.KeyExpr, mode), d.jsonValueExpr(item.ValueExpr, mode))
		}
		return obj
	case *hclsyntax.TemplateExpr:
		if t.IsStringLiteral() {
			if v, diags := t.Value(nil); !diags.HasErrors() && v.IsKnown() && !v.IsNull() {
				return jsonFromCty(v, escape)
			}
		}
	}
	if !escape {
		if v, diags := e.Value(nil); !diags.HasErrors() && v.IsWhollyKnown() {
			return jsonFromCty(v, false)
		}
	}
	return jsonStr(d.jsonTemplateSource(e))
}

// jsonTemplateSource is the JSON template text that evaluates like the
// native expression e: the inside of a quoted template, or "${SOURCE}".
func (d *Document) jsonTemplateSource(e hclsyntax.Expression) string {
	src := d.src(e)
	switch e.(type) {
	case *hclsyntax.TemplateExpr, *hclsyntax.TemplateWrapExpr:
		if strings.HasPrefix(src, `"`) {
			if tmpl, ok := templateFromQuoted(src); ok {
				return tmpl
			}
		}
		if tmpl, ok := templateFromHeredoc(src); ok {
			return tmpl
		}
	}
	if endsWithHeredoc(src) {
		src += "\n"
	}
	return "${" + src + "}"
}

// jsonObjectKey converts an object key: a bare name or literal string is
// the property name itself (escaped in template mode, where JSON property
// names are templates); any other key expression is interpolated.
func (d *Document) jsonObjectKey(k hclsyntax.Expression, mode exprMode) string {
	escape := mode != modeLiteral
	if key, ok := k.(*hclsyntax.ObjectConsKeyExpr); ok {
		if !key.ForceNonLiteral {
			if name := hcl.ExprAsKeyword(key.Wrapped); name != "" {
				return name
			}
		}
		k = key.Wrapped
	}
	if v, diags := k.Value(nil); !diags.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
		if escape {
			return escapeTemplateIntro(v.AsString())
		}
		return v.AsString()
	}
	return d.jsonTemplateSource(k)
}

// templateFromQuoted turns a native quoted template (with its quotes) into
// template source for a JSON string: backslash escapes of the literal parts
// are decoded, interpolation and directive sequences are kept as written.
func templateFromQuoted(src string) (string, bool) {
	toks, diags := hclsyntax.LexExpression([]byte(src), "", hcl.InitialPos)
	if diags.HasErrors() {
		return "", false
	}
	var b strings.Builder
	var stack []hclsyntax.TokenType
	prev := 0
	for _, t := range toks {
		if t.Type == hclsyntax.TokenEOF {
			break
		}
		if len(stack) > 0 {
			b.WriteString(src[prev:t.Range.Start.Byte])
		}
		prev = t.Range.End.Byte
		outerLiteral := len(stack) == 1 && t.Type == hclsyntax.TokenQuotedLit
		stack = nestTemplateTokens(stack, t.Type)
		switch {
		case outerLiteral:
			lit, ok := decodeQuotedEscapes(string(t.Bytes))
			if !ok {
				return "", false
			}
			b.WriteString(lit)
		case len(stack) == 0 && t.Type == hclsyntax.TokenCQuote:
			// the closing quote of the whole template
		case len(stack) > 1 || t.Type != hclsyntax.TokenOQuote:
			b.Write(t.Bytes)
		}
	}
	return b.String(), len(stack) == 0
}

// templateFromHeredoc returns the template source of a plain (not
// indented) heredoc: its lines between the opening and closing markers,
// which a heredoc reads exactly as a JSON string reads its template.
func templateFromHeredoc(src string) (string, bool) {
	if !strings.HasPrefix(src, "<<") || strings.HasPrefix(src, "<<-") {
		return "", false
	}
	first := strings.IndexByte(src, '\n')
	last := strings.LastIndexByte(src, '\n')
	if first < 0 || last < first {
		return "", false
	}
	return src[first+1 : last+1], true
}

// nestTemplateTokens tracks the nesting of strings, heredocs and template
// sequences while walking the tokens of an expression.
func nestTemplateTokens(stack []hclsyntax.TokenType, tt hclsyntax.TokenType) []hclsyntax.TokenType {
	switch tt {
	case hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
		return append(stack, tt)
	case hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc, hclsyntax.TokenTemplateSeqEnd:
		if len(stack) > 0 {
			return stack[:len(stack)-1]
		}
	}
	return stack
}

// decodeQuotedEscapes decodes the backslash escapes of a native quoted
// string literal, leaving "$${" and "%%{" as they are.
func decodeQuotedEscapes(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) {
			return "", false
		}
		i++
		switch c := s[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '"', '\\':
			b.WriteByte(c)
		case 'u', 'U':
			n := 4
			if c == 'U' {
				n = 8
			}
			if i+1+n > len(s) {
				return "", false
			}
			r, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil {
				return "", false
			}
			b.WriteRune(rune(r))
			i += n
		default:
			return "", false
		}
	}
	return b.String(), true
}

// endsWithHeredoc reports whether an expression's source ends with the
// closing marker of a heredoc, which must be followed by a newline. (The
// marker is only recognised with its newline, which the source range of the
// expression leaves out.)
func endsWithHeredoc(src string) bool {
	toks, _ := hclsyntax.LexExpression([]byte(src+"\n"), "", hcl.InitialPos)
	for i := len(toks) - 1; i >= 0; i-- {
		switch toks[i].Type {
		case hclsyntax.TokenEOF, hclsyntax.TokenNewline:
			continue
		case hclsyntax.TokenCHeredoc:
			return true
		}
		return false
	}
	return false
}

// jsonFromCty converts a known value. With escape, strings are written as
// JSON templates that evaluate to them.
func jsonFromCty(v cty.Value, escape bool) *jsonValue {
	if v.IsNull() || !v.IsKnown() {
		return &jsonValue{kind: jsonNull}
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		if escape {
			return jsonStr(escapeTemplateIntro(v.AsString()))
		}
		return jsonStr(v.AsString())
	case ty == cty.Number:
		return &jsonValue{kind: jsonNumber, str: v.AsBigFloat().Text('f', -1)}
	case ty == cty.Bool:
		return &jsonValue{kind: jsonBool, b: v.True()}
	case ty.IsObjectType() || ty.IsMapType():
		obj := jsonObj()
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			key := k.AsString()
			if escape {
				key = escapeTemplateIntro(key)
			}
			obj.add(key, jsonFromCty(ev, escape))
		}
		return obj
	case v.CanIterateElements():
		arr := &jsonValue{kind: jsonArray}
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			arr.elems = append(arr.elems, jsonFromCty(ev, escape))
		}
		return arr
	}
	return &jsonValue{kind: jsonNull}
}
