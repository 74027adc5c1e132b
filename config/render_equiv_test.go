package config

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// equivContext is the evaluation context under which a rendered expression
// must evaluate exactly as its source.
func equivContext() *hcl.EvalContext {
	return &hcl.EvalContext{
		Variables: map[string]cty.Value{
			"var": cty.ObjectVal(map[string]cty.Value{
				"x":    cty.StringVal("X"),
				"k":    cty.StringVal("K"),
				"n":    cty.NumberIntVal(2),
				"on":   cty.True,
				"list": cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
			}),
		},
		Functions: map[string]function.Function{"upper": stdlib.UpperFunc, "length": stdlib.LengthFunc},
	}
}

// TestJSONToNativeEquivalence evaluates JSON expressions and their native
// renderings side by side: in template mode with variables and functions,
// in literal mode without an evaluation context.
func TestJSONToNativeEquivalence(t *testing.T) {
	tests := []string{
		`"plain"`, `""`, `"${var.x}"`, `"${var.n + 1}"`, `"a ${var.x} b"`,
		`"quote \" backslash \\ tab \t nl \n cr \r"`, `"\u00e9\u0001 \ud83d\ude00"`,
		`"$${var.x} and %%{ if } and $$${var.x}"`, `"100% {x} $ {y} $"`,
		`"${upper(\"a\\\"b\")}"`, `"${upper(\"a${var.x}\")}-${length(var.list)}"`,
		`"%{ if var.on }yes%{ else }no%{ endif }"`, `"%{ for s in var.list }[${s}]%{ endfor }"`,
		`"${\n  var.n # comment\n  * 3\n}"`, `"${ {a = var.x} }"`,
		`"${\"\\\\\"}"`, `"\\${var.x}"`, `"C:\\path\\${var.x}"`,
		`-12.5e2`, `0`, `true`, `null`, `[]`, `{}`,
		`[1, "${var.x}", [true, null]]`,
		`{"a": 1, "${var.k}": "v", "for": 2, "x y": 3, "$${lit}": 4, "true": 5}`,
		`{"nested": {"deep": ["${var.x}", {"q": "\""}]}}`,
	}
	ctx := equivContext()
	for _, src := range tests {
		for _, mode := range []exprMode{modeTemplate, modeLiteral} {
			t.Run(modeName(mode)+"/"+src, func(t *testing.T) {
				evalCtx := ctx
				if mode == modeLiteral {
					evalCtx = nil
				}
				jexpr, diags := json.ParseExpression([]byte(src), "x.tf.json")
				if diags.HasErrors() {
					t.Fatalf("bad test JSON: %s", diags)
				}
				want, wantDiags := jexpr.Value(evalCtx)
				jv, err := parseJSONValue([]byte(src))
				if err != nil {
					t.Fatal(err)
				}
				native := nativeFromJSON(jv, mode)
				got := evalNative(t, native, evalCtx)
				if wantDiags.HasErrors() {
					t.Skipf("source does not evaluate: %s", wantDiags)
				}
				if !got.RawEquals(want) {
					t.Errorf("native %s\n got %#v\nwant %#v", native, got, want)
				}
			})
		}
	}
}

// TestNativeToJSONEquivalence evaluates native expressions and their JSON
// renderings side by side.
func TestNativeToJSONEquivalence(t *testing.T) {
	tests := []string{
		`"plain"`, `"a ${var.x} b"`, `"${var.n}"`, `"q\"\\\n\t\u00e9 $${x} %%{y}"`,
		`"${upper("in\"ner")}"`, `"%{if var.on}yes%{endif}"`, `var.list`, `-1`, `1.5e3`,
		`<<EOT
heredoc ${var.x}
EOT
`, `<<-EOT
    indented $${x}
    EOT
`, `upper(<<EOT
inner
EOT
)`, `[1, "two", var.x, [null, true]]`, `{ a = 1, "b c" = var.x, (var.k) = 2, "${var.x}y" = 3, "$${z}" = 4 }`,
		`var.on ? "y" : "n"`, `[for s in var.list : upper(s)]`, `(var.n + 1) * 2`,
		`{
  # comment inside
  a = var.x // another
}`,
	}
	ctx := equivContext()
	for _, src := range tests {
		for _, mode := range []exprMode{modeTemplate, modeLiteral} {
			t.Run(modeName(mode)+"/"+src, func(t *testing.T) {
				evalCtx := ctx
				if mode == modeLiteral {
					evalCtx = nil
				}
				doc, expr := nativeTestExpr(t, src)
				want, wantDiags := expr.Value(evalCtx)
				if wantDiags.HasErrors() {
					t.Skipf("source does not evaluate in this mode: %s", wantDiags)
				}
				var b strings.Builder
				writeJSON(&b, doc.jsonFromNative(expr, mode), "")
				jexpr, diags := json.ParseExpression([]byte(b.String()), "x.tf.json")
				if diags.HasErrors() {
					t.Fatalf("rendered JSON %s does not parse: %s", b.String(), diags)
				}
				got, diags := jexpr.Value(evalCtx)
				if diags.HasErrors() {
					t.Fatalf("rendered JSON %s does not evaluate: %s", b.String(), diags)
				}
				if !got.RawEquals(want) {
					t.Errorf("JSON %s\n got %#v\nwant %#v", b.String(), got, want)
				}
			})
		}
	}
}

func modeName(m exprMode) string {
	if m == modeLiteral {
		return "literal"
	}
	return "template"
}

func evalNative(t *testing.T, src string, ctx *hcl.EvalContext) cty.Value {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "x.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("rendered native %s does not parse: %s", src, diags)
	}
	v, diags := expr.Value(ctx)
	if diags.HasErrors() {
		t.Fatalf("rendered native %s does not evaluate: %s", src, diags)
	}
	return v
}

// nativeTestExpr parses src as the value of an argument in a one-file Document.
func nativeTestExpr(t *testing.T, src string) (*Document, hclsyntax.Expression) {
	t.Helper()
	text := "a = " + src + "\n"
	f, diags := hclsyntax.ParseConfig([]byte(text), "x.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("bad test expression: %s", diags)
	}
	doc := &Document{Files: map[string]*hcl.File{"x.tf": f}}
	return doc, f.Body.(*hclsyntax.Body).Attributes["a"].Expr
}
