package nesting

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
)

func TestDepth(t *testing.T) {
	tests := []struct {
		name   string
		syntax Syntax
		src    string
		want   int
	}{
		{"empty", HCL, "", 0},
		{"attribute", HCL, "a = 1\n", 0},
		{"brackets", HCL, "a = [[1], [2]]\n", 2},
		{"block and object", HCL, "b {\n  a = { x = (1) }\n}\n", 3},
		{"string", HCL, `a = "x"`, 1},
		{"brackets in a string", HCL, `a = "[[[[{{{("`, 1},
		{"escaped quote", HCL, `a = "\"[[[[" + [1]`, 1},
		{"interpolation", HCL, `a = "${[1]}"`, 3},
		{"escaped interpolation", HCL, `a = "$${[[[[}"`, 1},
		{"dollar then interpolation", HCL, `a = "$$${[[[[}"`, 1},
		{"single dollar", HCL, `a = "$ ${[1]}"`, 3},
		{"backslash dollar is an escape", HCL, `a = "\${[1]}"`, 1},
		{"string in interpolation", HCL, `a = "${"${[1]}"}"`, 5},
		{"template if", HCL, `a = "%{if a}%{if b}x%{endif}%{endif}"`, 4},
		{"template for closed", HCL, `a = "%{for x in y}%{endfor}%{for x in y}%{endfor}"`, 3},
		{"line comment", HCL, "# [[[[\na = 1 // ((((\n", 0},
		{"block comment", HCL, "/* [[[[\n{{{ */ a = [1]", 1},
		{"unterminated block comment is no comment", HCL, "/* [[[[", 4},
		{"heredoc", HCL, "a = <<EOT\n[[[[ ${[1]}\nEOT\nb = [1]\n", 3},
		{"heredoc indented marker", HCL, "a = <<-EOT\n  [[[[\n  EOT\nb = [[1]]\n", 2},
		{"heredoc marker after interpolation is text", HCL, "a = <<EOT\n${1}EOT\n[[\nEOT\n", 2},
		{"heredoc marker with dollar is text", HCL, "a = <<EOT\n$EOT\n[[\nEOT\n", 1},
		{"not a heredoc", HCL, "a = b << [1]\n", 1},
		{"unary operators", HCL, "a = !!!!x\n", 4},
		{"not equal is not unary", HCL, "a = x != y != z\n", 0},
		{"minus in identifiers and numbers", HCL, "a = foo-bar + 1e-5\n", 0},
		{"conditionals", HCL, "a = x ? y : z ? w : v\n", 2},
		{"newline ends operators", HCL, "a = -1\nb = -2\nc = -3\n", 1},
		{"comma ends operators", HCL, "a = [-1, -2, -3]\n", 2},
		{"newline in brackets keeps operators", HCL, "a = [\n!\n!\nx]\n", 3},
		{"stray closers", HCL, "] ) } a = [1]", 1},
		{"brace closes interpolation", HCL, `a = "${ [ }" + [1]`, 3},
		{"broken UTF-8 swallows a quote as the lexer does", HCL, "a = 0\xca\"!!", 2},
		{"broken UTF-8 template blocks", HCL, "a = \"\xff%{if a}%{if b}x%{endif}%{endif}\"", 4},
		{"json", JSON, `{"a": [[1], {"b": 2}]}`, 3},
		{"json string brackets", JSON, `{"a": "[[[[${[[[1]]]}"}`, 1},
		{"hcl json template", HCLJSON, `{"a": "${[[1]]}"}`, 4},
		{"hcl json escaped template", HCLJSON, `{"a": "\u0024{[[1]]}"}`, 4},
		{"hcl json key template", HCLJSON, `{"${[1]}": 1}`, 3},
		{"hcl json escaped quote", HCLJSON, `{"a": "\"${[1]}"}`, 4},
		{"hcl json expression string", HCLJSON, `{"type": "list(list(string))"}`, 3},
		{"plain json expression string", JSON, `{"type": "list(list(string))"}`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Depth([]byte(tt.src), tt.syntax); got != tt.want {
				t.Errorf("Depth(%q) = %d, want %d", tt.src, got, tt.want)
			}
		})
	}
}

// deep returns open repeated n times, then middle, then close repeated n
// times.
func deep(open, middle, close string, n int) string {
	return strings.Repeat(open, n) + middle + strings.Repeat(close, n)
}

// deepInputs are the shapes of issue #14 and the other recursive
// constructs, each nested about n levels.
func deepInputs(n int) map[string]struct {
	syntax Syntax
	src    string
} {
	type in = struct {
		syntax Syntax
		src    string
	}
	return map[string]in{
		"tuple":          {HCL, "locals {\n  x = " + deep("[", "1", "]", n) + "\n}\n"},
		"object":         {HCL, "locals {\n  x = " + deep("{a=", "1", "}", n) + "\n}\n"},
		"parentheses":    {HCL, "locals {\n  x = " + deep("(", "1", ")", n) + "\n}\n"},
		"blocks":         {HCL, deep("b {\n", "", "}\n", n)},
		"interpolations": {HCL, "locals {\n  x = " + deep(`"${`, "1", `}"`, n/2) + "\n}\n"},
		"unary":          {HCL, "locals {\n  x = " + strings.Repeat("!", n) + "true\n}\n"},
		"conditionals":   {HCL, "locals {\n  x = " + strings.Repeat("a ? b : ", n) + "c\n}\n"},
		"template ifs":   {HCL, "locals {\n  x = \"" + deep("%{if a}", "x", "%{endif}", n) + "\"\n}\n"},
		"json arrays":    {HCLJSON, `{"locals": {"x": ` + deep("[", "1", "]", n) + "}}"},
		"json template":  {HCLJSON, `{"locals": {"x": "${` + deep("[", "1", "]", n) + `}"}}`},
		"json type":      {HCLJSON, `{"variable": {"v": {"type": "` + deep("list(", "string", ")", n) + `"}}}`},
	}
}

func TestCheckRefusesDeepInput(t *testing.T) {
	for name, in := range deepInputs(80000) {
		t.Run(name, func(t *testing.T) {
			err := Check([]byte(in.src), in.syntax, MaxDepth)
			var tde *TooDeepError
			if !errors.As(err, &tde) {
				t.Fatalf("Check = %v, want a *TooDeepError", err)
			}
			if tde.Max != MaxDepth || tde.Pos.Line < 1 || tde.Pos.Byte >= len(in.src) {
				t.Errorf("error %+v", tde)
			}
		})
	}
}

// TestParsersSurviveTheLimit parses inputs just inside the limit with the
// real parsers: the limit must leave them far from the stack's end.
func TestParsersSurviveTheLimit(t *testing.T) {
	for name, in := range deepInputs(MaxDepth - 10) {
		t.Run(name, func(t *testing.T) {
			if err := Check([]byte(in.src), in.syntax, MaxDepth); err != nil {
				t.Fatalf("Check: %v", err)
			}
			if in.syntax == HCLJSON {
				hcljson.Parse([]byte(in.src), "x.tf.json")
			} else {
				hclsyntax.ParseConfig([]byte(in.src), "x.tf", hcl.InitialPos)
			}
		})
	}
}

func TestCheckPosition(t *testing.T) {
	tests := []struct {
		name   string
		syntax Syntax
		src    string
		max    int
		want   hcl.Pos
	}{
		{"third bracket", HCL, "a = 1\nb = [[[1]]]\n", 2, hcl.Pos{Line: 2, Column: 7, Byte: 12}},
		{"column in characters", HCL, "a = \"é\" + [[1]]\n", 1, hcl.Pos{Line: 1, Column: 12, Byte: 12}},
		{"json", JSON, "{\n \"a\": [[1]]}", 2, hcl.Pos{Line: 2, Column: 8, Byte: 9}},
		{"json template reports the string", HCLJSON, "{\n \"a\": \"${[1]}\"}", 2, hcl.Pos{Line: 2, Column: 7, Byte: 8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check([]byte(tt.src), tt.syntax, tt.max)
			var tde *TooDeepError
			if !errors.As(err, &tde) {
				t.Fatalf("Check = %v, want a *TooDeepError", err)
			}
			if diff := cmp.Diff(tt.want, tde.Pos); diff != "" {
				t.Errorf("position (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDiagnostic(t *testing.T) {
	diags := CheckDiagnostics("main.tf", []byte("a = [[[1]]]\n"), HCL, 2)
	want := hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Nesting too deep",
		Detail:   "This file nests brackets, braces, parentheses, strings, templates or operators more than 2 levels deep (line 1, column 7). tfdeps refuses such a file before parsing it, because parsing it could exhaust the stack.",
		Subject: &hcl.Range{Filename: "main.tf",
			Start: hcl.Pos{Line: 1, Column: 7, Byte: 6}, End: hcl.Pos{Line: 1, Column: 8, Byte: 7}},
	}}
	if diff := cmp.Diff(want, diags); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := CheckDiagnostics("main.tf", []byte("a = [[1]]\n"), HCL, 2); got != nil {
		t.Errorf("within the limit: %v", got)
	}
}

func BenchmarkCheck(b *testing.B) {
	src := []byte(strings.Repeat("resource \"a\" \"b\" {\n  x = [\"${var.y}\", -1, { z = a ? b : c }]\n}\n", 1<<16))
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		if err := Check(src, HCL, MaxDepth); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCheckInvalid(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want *hcl.Pos // nil: accepted
	}{
		{"at the limit", "a = 1\n" + strings.Repeat("@", MaxInvalid), nil},
		{"beyond", "a = 1\n" + strings.Repeat("@", MaxInvalid+5), &hcl.Pos{Line: 2, Column: MaxInvalid + 1, Byte: 6 + MaxInvalid}},
		{"NUL bytes", strings.Repeat("\x00", 10<<20), &hcl.Pos{Line: 1, Column: MaxInvalid + 1, Byte: MaxInvalid}},
		{"binary", "a = 1\n" + strings.Repeat("\xff", 5000), &hcl.Pos{Line: 2, Column: MaxInvalid + 1, Byte: 6 + MaxInvalid}},
		{"some broken UTF-8, then ASCII garbage", "\xff" + strings.Repeat(";", 2000), &hcl.Pos{Line: 1, Column: MaxInvalid + 1, Byte: MaxInvalid}},
		{"strings and comments do not count", `a = "` + strings.Repeat("@", 5000) + `" # ` + strings.Repeat("@", 5000), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check([]byte(tt.src), HCL, MaxDepth)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Check = %v, want nil", err)
				}
				return
			}
			var ie *InvalidError
			if !errors.As(err, &ie) {
				t.Fatalf("Check = %v, want an *InvalidError", err)
			}
			if diff := cmp.Diff(*tt.want, ie.Pos); diff != "" {
				t.Errorf("position (-want +got):\n%s", diff)
			}
		})
	}
	// JSON is not counted: its parser stops at the first bad byte.
	if err := Check([]byte(strings.Repeat("@", 5000)), HCLJSON, MaxDepth); err != nil {
		t.Errorf("HCL JSON: %v", err)
	}
}
