package nesting

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestTokensLikeLexer: without operators (which count twice) the scan
// counts the tokens HCL's lexer makes, but for its end-of-file token,
// give or take one a heredoc line after an interpolation (the lexer makes
// two tokens of it) and one a line comment (the scan counts its newline
// apart).
func TestTokensLikeLexer(t *testing.T) {
	tests := map[string]string{
		"blocks":    "locals {}\nvariable \"v\" {\n  type = list(string)\n  default = [\"a\", \"b\"]\n}\n",
		"brackets":  "locals {\n  a = " + strings.Repeat("[", 50) + strings.Repeat("]", 50) + "\n}\n",
		"object":    "locals {\n  a = {b = 1, c = \"d\"}\n  e = {\n    f = true\n  }\n}\n",
		"templates": "locals {\n  a = \"x${b}y${c.d[0]}%{if e}f%{endif}\"\n}\n",
		"heredoc":   "locals {\n  a = <<EOT\nline ${b}\nline two\nEOT\n}\n",
		"comments":  "# one\n// two\n/* three */\nlocals {} # four\n",
		"resource":  "resource \"aws_instance\" \"w\" {\n  ami = \"${data.aws_ami.u.id}\"\n  tags = {\n    \"Name\" = \"w\"\n  }\n  depends_on = [aws_subnet.s]\n}\n",
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			toks, _ := hclsyntax.LexConfig([]byte(src), "", hcl.InitialPos)
			slack := strings.Count(src, "#") + strings.Count(src, "//") + strings.Count(src, "*/")
			got, want := Tokens([]byte(src), HCL), len(toks)-1
			if got < want-strings.Count(src, "<<") || got > want+slack {
				t.Errorf("Tokens = %d, want %d (the lexer's, without EOF)", got, want)
			}
		})
	}
	if got := Tokens([]byte("a = 1 + 2 * -3\n"), HCL); got != 9+3 {
		t.Errorf("operators: Tokens = %d, want 12 (three operators twice)", got)
	}
}

func TestCheckLimitsTokens(t *testing.T) {
	src := []byte("a = [1, 2]\nb = 3\n") // a = [ 1 , 2 ] \n b = 3 \n: 12 tokens
	if err := CheckLimits(src, HCL, Limits{Depth: MaxDepth, Tokens: 12}); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	err := CheckLimits(src, HCL, Limits{Depth: MaxDepth, Tokens: 11})
	want := &TooManyTokensError{Max: 11, Pos: hcl.Pos{Line: 2, Column: 6, Byte: 16}}
	if e, ok := err.(*TooManyTokensError); !ok || *e != *want {
		t.Errorf("past the limit: %#v, want %#v", err, want)
	}
	if got := Tokens([]byte(`{"a": [1, true, "${b}"]}`), HCLJSON); got != 13 {
		t.Errorf("JSON: Tokens = %d, want 13", got)
	}
}
