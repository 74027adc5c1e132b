package nesting

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// tokenDepth is the nesting of src as HCL's own lexer sees it, counted by
// the rules of the scan: the reference the scan must never fall below.
func tokenDepth(src []byte) int {
	tokens, _ := hclsyntax.LexConfig(src, "f.tf", hcl.InitialPos)
	d, _ := lexDepth(tokens, 0, -1)
	return d
}

// jsonDepth is the nesting of valid JSON as encoding/json sees it.
func jsonDepth(src []byte) (int, bool) {
	if !json.Valid(src) {
		return 0, false
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	depth, deepest := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return deepest, true
		}
		if err != nil {
			return 0, false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			deepest = max(deepest, depth)
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}

// FuzzDepth checks that the scan never counts fewer levels than HCL's
// lexer and encoding/json see, so that input it accepts cannot nest deeper
// in the parsers.
func FuzzDepth(f *testing.F) {
	for _, s := range []string{
		"a = [[1]]", `a = "${[1]}"`, "a = <<EOT\n[[ ${[1]}\nEOT\nb = [1]\n", "a = <<-EOT\n  x\n  EOT\n",
		`a = "$${[[[[}"`, `a = "\"[[" + [1]`, "a = !!-x ? y : z\n", "# [[\n/* (( */ a = {b = [1]}",
		`a = "%{if a}%{for x in y}${x}%{endfor}%{endif}"`, `{"a": [["${[1]}"]]}`, "a = \"x\n[[[\"\n",
		"a = <<EOT\n\xffEOT\n[[\nEOT\n", "a = \"${ [ }\" + [1]", deep("[", "1", "]", 300),
		deep(`"${`, "1", `}"`, 100), deep("b {\n", "", "}\n", 100), strings.Repeat("!", 200) + "x",
		"a = <<EOT\r\n[[\r\nEOT\r\n", "a = <<EOT\n  EOT  \n[[1]]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, ref := Depth(src, HCL), tokenDepth(src); got < ref {
			t.Fatalf("Depth(HCL) = %d, but the lexer's tokens nest %d deep", got, ref)
		}
		if ref, ok := jsonDepth(src); ok {
			if got := Depth(src, JSON); got < ref {
				t.Fatalf("Depth(JSON) = %d, but encoding/json nests %d deep", got, ref)
			}
			if got := Depth(src, HCLJSON); got < ref {
				t.Fatalf("Depth(HCLJSON) = %d, but encoding/json nests %d deep", got, ref)
			}
		}
		// Check agrees with Depth.
		d := Depth(src, HCL)
		var tooDeep *TooDeepError
		if err := Check(src, HCL, d); errors.As(err, &tooDeep) {
			t.Fatalf("Check at the depth %d: %v", d, err)
		}
		if d > 0 && Check(src, HCL, d-1) == nil {
			t.Fatalf("Check below the depth %d passed", d)
		}
	})
}
