package config

import (
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
)

// parseTestDocument builds a Document from files without merging anything,
// so that renderer tests do not depend on the loader: every top-level block
// of every file, in the order the names are given, bodies as written. JSON
// bodies know the nested block types in jsonTestBlocks; every other JSON
// property is an argument.
func parseTestDocument(t *testing.T, names []string, files map[string]string) *Document {
	t.Helper()
	doc := &Document{Files: map[string]*hcl.File{}}
	for _, name := range names {
		var f *hcl.File
		var diags hcl.Diagnostics
		if strings.HasSuffix(name, ".json") {
			f, diags = json.Parse([]byte(files[name]), name)
		} else {
			f, diags = hclsyntax.ParseConfig([]byte(files[name]), name, hcl.InitialPos)
		}
		if diags.HasErrors() {
			t.Fatalf("parsing %s: %s", name, diags)
		}
		doc.Files[name] = f
		doc.Blocks = append(doc.Blocks, testBlocks(t, f.Body, topLevelTestSchema)...)
	}
	return doc
}

var topLevelTestSchema = map[string]int{
	"terraform": 0, "variable": 1, "locals": 0, "output": 1, "module": 1,
	"provider": 1, "resource": 2, "data": 2, "ephemeral": 2, "check": 1,
	"moved": 0, "import": 0, "removed": 0,
}

// jsonTestBlocks are the nested block types a JSON body holds, with their
// label counts.
var jsonTestBlocks = map[string]int{
	"lifecycle": 0, "connection": 0, "provisioner": 1, "required_providers": 0,
	"backend": 1, "cloud": 0, "validation": 0, "dynamic": 1, "content": 0,
}

func testBlocks(t *testing.T, body hcl.Body, schema map[string]int) []*Block {
	t.Helper()
	if sb, ok := body.(*hclsyntax.Body); ok {
		var out []*Block
		for _, b := range sb.Blocks {
			out = append(out, &Block{Type: b.Type, Labels: b.Labels, Body: testBody(t, b.Body), DefRange: b.DefRange()})
		}
		return out
	}
	var hs hcl.BodySchema
	for typ, n := range schema {
		hs.Blocks = append(hs.Blocks, hcl.BlockHeaderSchema{Type: typ, LabelNames: make([]string, n)})
	}
	for i := range hs.Blocks {
		for j := range hs.Blocks[i].LabelNames {
			hs.Blocks[i].LabelNames[j] = "l"
		}
	}
	content, _, diags := body.PartialContent(&hs)
	if diags.HasErrors() {
		t.Fatalf("decoding JSON blocks: %s", diags)
	}
	var out []*Block
	for _, b := range content.Blocks {
		out = append(out, &Block{Type: b.Type, Labels: b.Labels, Body: testBody(t, b.Body), DefRange: b.DefRange})
	}
	return out
}

func testBody(t *testing.T, body hcl.Body) *Body {
	t.Helper()
	if sb, ok := body.(*hclsyntax.Body); ok {
		out := &Body{}
		for _, a := range sb.Attributes {
			out.Attributes = append(out.Attributes, &Attribute{Name: a.Name, Expr: a.Expr, Range: a.SrcRange, NameRange: a.NameRange})
		}
		sortTestAttributes(out.Attributes)
		out.Blocks = testBlocks(t, sb, nil)
		return out
	}
	out := &Body{Blocks: testBlocks(t, body, jsonTestBlocks)}
	var hs hcl.BodySchema
	for typ := range jsonTestBlocks {
		hs.Blocks = append(hs.Blocks, hcl.BlockHeaderSchema{Type: typ})
	}
	_, rest, _ := body.PartialContent(&hs)
	attrs, diags := rest.JustAttributes()
	if diags.HasErrors() {
		t.Fatalf("decoding JSON attributes: %s", diags)
	}
	for _, a := range attrs {
		out.Attributes = append(out.Attributes, &Attribute{Name: a.Name, Expr: a.Expr, Range: a.Range, NameRange: a.NameRange})
	}
	sortTestAttributes(out.Attributes)
	return out
}

func sortTestAttributes(attrs []*Attribute) {
	sort.Slice(attrs, func(i, j int) bool { return attrs[i].Range.Start.Byte < attrs[j].Range.Start.Byte })
}
