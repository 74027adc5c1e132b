package config

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// exprMode is how OpenTofu reads an argument's expression, which decides how
// a value from a JSON file must be written in native syntax:
//
//   - modeTemplate: full expression mode; a JSON string is a template.
//   - modeLiteral: the expression is evaluated without an evaluation context,
//     so a JSON string is taken literally ("${" is not an interpolation).
//   - modeKeyword: a JSON string holds a native expression read statically
//     (a keyword, type constraint or reference), written bare.
//   - modeProviderRequirement: a required_providers entry: source and version
//     are literal, configuration_aliases are references.
type exprMode int

const (
	modeTemplate exprMode = iota
	modeLiteral
	modeKeyword
	modeProviderRequirement
)

// sourceBytes returns the bytes rng covers in its file, or nil when the file
// or the range is not available.
func (d *Document) sourceBytes(rng hcl.Range) []byte {
	f := d.Files[rng.Filename]
	if f == nil || rng.Start.Byte < 0 || rng.End.Byte > len(f.Bytes) || rng.Start.Byte > rng.End.Byte {
		return nil
	}
	return f.Bytes[rng.Start.Byte:rng.End.Byte]
}

// isJSONSyntax reports whether a file name is read as HCL JSON.
func isJSONSyntax(filename string) bool { return strings.HasSuffix(filename, ".json") }

// nativeExprText returns expr in native syntax: the source text of a native
// expression verbatim, or the native equivalent of a JSON value.
func (d *Document) nativeExprText(expr hcl.Expression, mode exprMode) string {
	if expr == nil {
		return "null"
	}
	rng := expr.Range()
	src := d.sourceBytes(rng)
	if _, native := expr.(hclsyntax.Expression); native && src != nil {
		return string(src)
	}
	if src != nil && isJSONSyntax(rng.Filename) {
		if v, err := parseJSONValue(src); err == nil {
			return nativeFromJSON(v, mode)
		}
	}
	return nativeFromValue(expr)
}

// nativeFromValue renders an expression whose source is unavailable from its
// constant value or static traversal.
func nativeFromValue(expr hcl.Expression) string {
	if v, diags := expr.Value(nil); !diags.HasErrors() && v.IsWhollyKnown() {
		return string(hclwrite.TokensForValue(v).Bytes())
	}
	if trav, diags := hcl.AbsTraversalForExpr(expr); !diags.HasErrors() {
		return string(hclwrite.TokensForTraversal(trav).Bytes())
	}
	return "null"
}

// nativeFromJSON renders a JSON value as the native expression OpenTofu
// would read the same way in the given mode.
func nativeFromJSON(v *jsonValue, mode exprMode) string {
	var b strings.Builder
	writeNativeFromJSON(&b, v, mode, 0)
	return b.String()
}

// writeNativeFromJSON writes nativeFromJSON's text for v, which is nested
// level arrays and objects deep, to b. Every value is written once, into
// the one builder, so the cost is linear in the output; levels from
// prettyDepth on are written on one line, so the output is linear in the
// input.
func writeNativeFromJSON(b *strings.Builder, v *jsonValue, mode exprMode, level int) {
	switch v.kind {
	case jsonArray:
		writeNativeFromJSONArray(b, v, mode, level)
	case jsonObject:
		writeNativeFromJSONObject(b, v, mode, level)
	default:
		b.WriteString(nativeFromJSONScalar(v, mode))
	}
}

func nativeFromJSONScalar(v *jsonValue, mode exprMode) string {
	switch v.kind {
	case jsonNull:
		return "null"
	case jsonBool:
		return fmt.Sprint(v.b)
	case jsonNumber:
		return v.str
	default:
		return nativeFromJSONString(v.str, mode)
	}
}

func nativeFromJSONString(s string, mode exprMode) string {
	switch mode {
	case modeKeyword:
		return nativeKeyword(s)
	case modeLiteral, modeProviderRequirement:
		return quoteLiteral(s)
	default:
		return nativeTemplate(s)
	}
}

func writeNativeFromJSONArray(b *strings.Builder, v *jsonValue, mode exprMode, level int) {
	if mode == modeProviderRequirement {
		mode = modeLiteral
	}
	if level >= prettyDepth {
		b.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeNativeFromJSON(b, e, mode, level+1)
		}
		b.WriteByte(']')
		return
	}
	// A list of scalars that fits is written on one line.
	short := true
	for _, e := range v.elems {
		if e.kind == jsonArray || e.kind == jsonObject {
			short = false
			break
		}
	}
	if short {
		elems := make([]string, len(v.elems))
		for i, e := range v.elems {
			elems[i] = nativeFromJSONScalar(e, mode)
			if strings.Contains(elems[i], "\n") {
				short = false
			}
		}
		if joined := strings.Join(elems, ", "); short && len(joined) <= 60 {
			b.WriteString("[" + joined + "]")
			return
		}
	}
	b.WriteString("[\n")
	for _, e := range v.elems {
		writeNativeFromJSON(b, e, mode, level+1)
		b.WriteString(",\n")
	}
	b.WriteString("]")
}

func writeNativeFromJSONObject(b *strings.Builder, v *jsonValue, mode exprMode, level int) {
	if len(v.props) == 0 {
		b.WriteString("{}")
		return
	}
	compact := level >= prettyDepth
	if compact {
		b.WriteByte('{')
	} else {
		b.WriteString("{\n")
	}
	for i, p := range v.props {
		valMode := mode
		if mode == modeProviderRequirement {
			valMode = modeLiteral
			if p.key == "configuration_aliases" {
				valMode = modeKeyword
			}
		}
		if compact && i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(nativeObjectKey(p.key, mode))
		b.WriteString(" = ")
		writeNativeFromJSON(b, p.val, valMode, level+1)
		if !compact {
			b.WriteByte('\n')
		}
	}
	b.WriteString("}")
}

// nativeObjectKey writes an object key: bare when it is an identifier that
// native syntax reads as a plain name, quoted otherwise. In template mode a
// JSON property name is itself a template.
func nativeObjectKey(key string, mode exprMode) string {
	if hclsyntax.ValidIdentifier(key) && !reservedObjectKey(key) {
		return key
	}
	if mode == modeTemplate {
		if _, diags := hclsyntax.ParseTemplate([]byte(key), "", hcl.InitialPos); !diags.HasErrors() {
			return quotedTemplate(key)
		}
	}
	return quoteLiteral(key)
}

// reservedObjectKey lists identifiers that native syntax would not read as a
// plain object key (a literal value, or the start of a for expression).
func reservedObjectKey(s string) bool {
	switch s {
	case "true", "false", "null", "for":
		return true
	}
	return false
}

// nativeKeyword writes a JSON string that OpenTofu reads as a native
// expression (a keyword, type or reference) as that expression. A string
// that is not an expression is written as a literal string.
func nativeKeyword(s string) string {
	text := strings.TrimSpace(s)
	if text == "" {
		return quoteLiteral(s)
	}
	if _, diags := hclsyntax.ParseExpression([]byte(text), "", hcl.InitialPos); diags.HasErrors() {
		return quoteLiteral(s)
	}
	return text
}

// nativeTemplate writes the template source s (a JSON string in full
// expression mode) as a native expression with the same meaning: a lone
// interpolation as its expression, anything else as a quoted template whose
// literal parts are escaped for a quoted string and whose interpolation and
// directive sequences are kept as they are. A string that is not a valid
// template is written as a literal string.
func nativeTemplate(s string) string {
	tmpl, diags := hclsyntax.ParseTemplate([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return quoteLiteral(s)
	}
	if wrap, ok := tmpl.(*hclsyntax.TemplateWrapExpr); ok {
		return unwrappedInterpolation(s, wrap)
	}
	return quotedTemplate(s)
}

// quotedTemplate writes the valid template source s as a native quoted
// template.
func quotedTemplate(s string) string {
	toks, diags := hclsyntax.LexTemplate([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return quoteLiteral(s)
	}
	var b strings.Builder
	b.WriteByte('"')
	heredocs, prev := 0, 0
	for _, t := range toks {
		if t.Type == hclsyntax.TokenEOF {
			break
		}
		b.WriteString(s[prev:t.Range.Start.Byte])
		switch t.Type {
		case hclsyntax.TokenOHeredoc:
			heredocs++
		case hclsyntax.TokenCHeredoc:
			heredocs--
		}
		if t.Type == hclsyntax.TokenStringLit && heredocs == 0 {
			b.WriteString(escapeQuoted(string(t.Bytes)))
		} else {
			b.Write(t.Bytes)
		}
		prev = t.Range.End.Byte
	}
	b.WriteString(s[prev:])
	b.WriteByte('"')
	return b.String()
}

// unwrappedInterpolation writes a template that is one interpolation and
// nothing else ("${EXPR}") as EXPR alone: such a template evaluates to the
// value of EXPR unchanged. A multi-line EXPR is parenthesised, where
// newlines are insignificant.
func unwrappedInterpolation(s string, wrap *hclsyntax.TemplateWrapExpr) string {
	r := wrap.Wrapped.Range()
	inner := strings.TrimSpace(s[r.Start.Byte:r.End.Byte])
	if strings.Contains(inner, "\n") {
		return "(\n" + inner + "\n)"
	}
	return inner
}

// quoteLiteral writes s as a native quoted string whose value is exactly s:
// template introductions are escaped ("$${", "%%{") as well as quotes,
// backslashes and control characters.
func quoteLiteral(s string) string {
	return `"` + escapeQuoted(escapeTemplateIntro(s)) + `"`
}

// escapeTemplateIntro doubles the "$" of every "${" and the "%" of every "%{".
func escapeTemplateIntro(s string) string {
	s = strings.ReplaceAll(s, "${", "$${")
	return strings.ReplaceAll(s, "%{", "%%{")
}

// escapeQuoted escapes the characters a native quoted string cannot hold
// literally. Template sequences are left alone.
func escapeQuoted(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
