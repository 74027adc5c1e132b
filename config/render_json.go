package config

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// RenderJSON writes the effective configuration in OpenTofu's JSON
// configuration syntax: a .tf.json document with the same meaning as
// Render's native document. Values from JSON files are copied; native
// expressions are converted (constants to JSON values, templates to JSON
// strings, anything else to a "${...}" interpolation of its source text).
//
// Without provider schemas, JSON cannot tell a nested block from an
// argument holding an object; OpenTofu resolves that with the schema, so
// nested blocks are written as JSON objects (arrays of objects when a type
// repeats) as its JSON syntax expects.
func (d *Document) RenderJSON() []byte {
	if d == nil {
		return nil
	}
	root := jsonObj()
	d.addJSONBlocks(root, d.Blocks, nil)
	var b strings.Builder
	writeJSON(&b, root, "")
	b.WriteByte('\n')
	return []byte(b.String())
}

func (d *Document) jsonBody(body *Body, path []string) *jsonValue {
	obj := jsonObj()
	if body == nil {
		return obj
	}
	shadowed := shadowedForEach(path, body)
	for _, a := range body.Attributes {
		if a == nil {
			continue
		}
		if a == shadowed {
			obj.add("//", jsonStr(shadowedNote(a)))
			continue
		}
		obj.add(a.Name, d.jsonExpr(a.Expr, attributeMode(path, a)))
	}
	d.addJSONBlocks(obj, body.Blocks, path)
	return obj
}

// addJSONBlocks adds blocks to obj, one property per block type in order of
// first appearance. Blocks of one type with distinct labels share nested
// label objects; otherwise each block is one element of an array.
func (d *Document) addJSONBlocks(obj *jsonValue, blocks []*Block, path []string) {
	var order []string
	byType := map[string][]*Block{}
	for _, b := range blocks {
		if b == nil {
			continue
		}
		if _, seen := byType[b.Type]; !seen {
			order = append(order, b.Type)
		}
		byType[b.Type] = append(byType[b.Type], b)
	}
	for _, typ := range order {
		obj.add(typ, d.jsonBlocksOfType(byType[typ], append(path[:len(path):len(path)], typ)))
	}
}

func (d *Document) jsonBlocksOfType(blocks []*Block, path []string) *jsonValue {
	if len(blocks) == 1 {
		return d.jsonLabelled(blocks[0], path)
	}
	if merged := d.jsonLabelTree(blocks, path); merged != nil {
		return merged
	}
	arr := &jsonValue{kind: jsonArray}
	for _, b := range blocks {
		arr.elems = append(arr.elems, d.jsonLabelled(b, path))
	}
	return arr
}

// jsonLabelled nests b's body in one object per label.
func (d *Document) jsonLabelled(b *Block, path []string) *jsonValue {
	v := d.jsonBody(b.Body, path)
	for i := len(b.Labels) - 1; i >= 0; i-- {
		outer := jsonObj()
		outer.add(b.Labels[i], v)
		v = outer
	}
	return v
}

// jsonLabelTree merges blocks that all have the same, non-zero number of
// labels and pairwise distinct label lists into one tree of label objects.
// It returns nil when the blocks do not qualify.
func (d *Document) jsonLabelTree(blocks []*Block, path []string) *jsonValue {
	n := len(blocks[0].Labels)
	seen := map[string]bool{}
	for _, b := range blocks {
		key := strings.Join(b.Labels, "\x00")
		if len(b.Labels) != n || n == 0 || seen[key] {
			return nil
		}
		seen[key] = true
	}
	root := jsonObj()
	for _, b := range blocks {
		level := root
		for _, l := range b.Labels[:n-1] {
			next := level.prop(l)
			if next == nil {
				next = jsonObj()
				level.add(l, next)
			}
			level = next
		}
		level.add(b.Labels[n-1], d.jsonBody(b.Body, path))
	}
	return root
}

// jsonExpr converts an argument's expression to a JSON value with the same
// meaning in the given mode.
func (d *Document) jsonExpr(expr hcl.Expression, mode exprMode) *jsonValue {
	if expr == nil {
		return &jsonValue{kind: jsonNull}
	}
	rng := expr.Range()
	src := d.sourceBytes(rng)
	if src != nil && isJSONSyntax(rng.Filename) {
		if v, err := parseJSONValue(src); err == nil {
			return v
		}
	}
	if e, native := expr.(hclsyntax.Expression); native && src != nil {
		return d.jsonFromNative(e, mode)
	}
	if v, diags := expr.Value(nil); !diags.HasErrors() && v.IsWhollyKnown() {
		return jsonFromCty(v, mode == modeTemplate)
	}
	return &jsonValue{kind: jsonNull}
}

// src returns the source text of a native expression.
func (d *Document) src(e hcl.Expression) string {
	return string(d.sourceBytes(e.Range()))
}

func (d *Document) jsonFromNative(e hclsyntax.Expression, mode exprMode) *jsonValue {
	switch mode {
	case modeKeyword:
		return d.jsonKeyword(e)
	case modeProviderRequirement:
		return d.jsonProviderRequirement(e)
	default:
		return d.jsonValueExpr(e, mode)
	}
}

// jsonKeyword writes a keyword, type or reference expression as the JSON
// string holding its source; lists and objects of them element-wise.
func (d *Document) jsonKeyword(e hclsyntax.Expression) *jsonValue {
	switch t := e.(type) {
	case *hclsyntax.TupleConsExpr:
		arr := &jsonValue{kind: jsonArray}
		for _, elem := range t.Exprs {
			arr.elems = append(arr.elems, d.jsonKeyword(elem))
		}
		return arr
	case *hclsyntax.ObjectConsExpr:
		obj := jsonObj()
		for _, item := range t.Items {
			obj.add(d.jsonObjectKey(item.KeyExpr, modeLiteral), d.jsonKeyword(item.ValueExpr))
		}
		return obj
	}
	return jsonStr(d.src(e))
}

// jsonProviderRequirement converts a required_providers entry: its source
// and version are literal, its configuration_aliases are references.
func (d *Document) jsonProviderRequirement(e hclsyntax.Expression) *jsonValue {
	obj, ok := e.(*hclsyntax.ObjectConsExpr)
	if !ok {
		return d.jsonValueExpr(e, modeLiteral)
	}
	out := jsonObj()
	for _, item := range obj.Items {
		key := d.jsonObjectKey(item.KeyExpr, modeLiteral)
		if key == "configuration_aliases" {
			out.add(key, d.jsonKeyword(item.ValueExpr))
		} else {
			out.add(key, d.jsonValueExpr(item.ValueExpr, modeLiteral))
		}
	}
	return out
}
