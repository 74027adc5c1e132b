package config

import (
	"slices"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// shape tells how to read a body without a full schema: which nested block
// types exist (needed for JSON, where a property cannot otherwise be told
// from an argument) and which arguments are keywords or references rather
// than values.
type shape struct {
	blocks   map[string]blockShape
	keywords map[string]bool
}

type blockShape struct {
	labels int
	body   *shape
}

var emptyShape = &shape{}

func (s *shape) block(typ string) (blockShape, bool) {
	if s == nil || s.blocks == nil {
		return blockShape{}, false
	}
	b, ok := s.blocks[typ]
	return b, ok
}

func (s *shape) schema() *hcl.BodySchema {
	sc := &hcl.BodySchema{}
	if s == nil {
		return sc
	}
	types := make([]string, 0, len(s.blocks))
	for t := range s.blocks {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		names := make([]string, s.blocks[t].labels)
		for i := range names {
			names[i] = "label"
		}
		sc.Blocks = append(sc.Blocks, hcl.BlockHeaderSchema{Type: t, LabelNames: names})
	}
	return sc
}

// Shapes of the block types the loader knows.
var (
	conditionShape  = &shape{}
	checkRuleBlocks = map[string]blockShape{
		"precondition":  {body: conditionShape},
		"postcondition": {body: conditionShape},
	}
	lifecycleShape = &shape{
		blocks:   checkRuleBlocks,
		keywords: map[string]bool{"ignore_changes": true, "replace_triggered_by": true},
	}
	connectionShape  = &shape{}
	provisionerShape = &shape{
		blocks:   map[string]blockShape{"connection": {body: connectionShape}, "_": {body: emptyShape}},
		keywords: map[string]bool{"when": true, "on_failure": true},
	}
	resourceShape = &shape{
		blocks: map[string]blockShape{
			"lifecycle":   {body: lifecycleShape},
			"connection":  {body: connectionShape},
			"provisioner": {labels: 1, body: provisionerShape},
			"_":           {body: emptyShape},
		},
		keywords: map[string]bool{"provider": true, "depends_on": true},
	}
	dataShape = &shape{
		blocks: map[string]blockShape{
			"lifecycle": {body: lifecycleShape},
			"_":         {body: emptyShape},
		},
		keywords: map[string]bool{"provider": true, "depends_on": true},
	}
	variableShape = &shape{
		blocks:   map[string]blockShape{"validation": {body: conditionShape}},
		keywords: map[string]bool{"type": true},
	}
	outputShape = &shape{
		blocks:   map[string]blockShape{"precondition": {body: conditionShape}},
		keywords: map[string]bool{"depends_on": true},
	}
	moduleShape = &shape{
		blocks: map[string]blockShape{
			"lifecycle": {body: emptyShape},
			"_":         {body: emptyShape},
		},
		keywords: map[string]bool{"depends_on": true, "providers": true},
	}
	providerShape = &shape{
		blocks: map[string]blockShape{"_": {body: emptyShape}},
	}
	importShape  = &shape{keywords: map[string]bool{"to": true, "provider": true}}
	movedShape   = &shape{keywords: map[string]bool{"from": true, "to": true}}
	removedShape = &shape{
		blocks: map[string]blockShape{
			"lifecycle":   {body: emptyShape},
			"provisioner": {labels: 1, body: provisionerShape},
		},
		keywords: map[string]bool{"from": true},
	}
	checkShape = &shape{
		blocks: map[string]blockShape{
			"data":   {labels: 2, body: dataShape},
			"assert": {body: conditionShape},
		},
	}
	requiredProvidersShape = &shape{}
	encryptionShape        = &shape{
		blocks: map[string]blockShape{
			"key_provider":              {labels: 2, body: emptyShape},
			"method":                    {labels: 2, body: emptyShape},
			"state":                     {body: emptyShape},
			"plan":                      {body: emptyShape},
			"remote_state_data_sources": {body: &shape{blocks: map[string]blockShape{"default": {body: emptyShape}, "remote_state_data_source": {labels: 1, body: emptyShape}}}},
		},
		keywords: map[string]bool{"method": true, "fallback": true},
	}
	terraformShape = &shape{
		blocks: map[string]blockShape{
			"backend":            {labels: 1, body: emptyShape},
			"cloud":              {body: emptyShape},
			"required_providers": {body: requiredProvidersShape},
			"provider_meta":      {labels: 1, body: emptyShape},
			"encryption":         {body: encryptionShape},
		},
	}
	languageShape = &shape{
		blocks:   map[string]blockShape{"compatible_with": {body: emptyShape}},
		keywords: map[string]bool{"edition": true},
	}
)

// topLevelShapes gives the shape of each top-level block type.
var topLevelShapes = map[string]*shape{
	"terraform": terraformShape,
	"variable":  variableShape,
	"locals":    emptyShape,
	"output":    outputShape,
	"module":    moduleShape,
	"provider":  providerShape,
	"resource":  resourceShape,
	"data":      dataShape,
	"ephemeral": dataShape,
	"check":     checkShape,
	"moved":     movedShape,
	"import":    importShape,
	"removed":   removedShape,
	"language":  languageShape,
}

// newSyntaxBlock converts a decoded block (native or JSON) into a Document
// block, reading its body with the given shape.
func newSyntaxBlock(b *hcl.Block, s *shape) *Block {
	return &Block{
		Type:     b.Type,
		Labels:   append([]string(nil), b.Labels...),
		Body:     newSyntaxBody(b.Body, s),
		DefRange: b.DefRange,
	}
}

// newSyntaxBody reads every argument and nested block of body. It never
// reports diagnostics: decoding reports problems separately.
func newSyntaxBody(body hcl.Body, s *shape) *Body {
	if s == nil {
		s = emptyShape
	}
	if nb, ok := body.(*hclsyntax.Body); ok {
		return nativeBody(nb, s)
	}
	return jsonBody(body, s)
}

func nativeBody(nb *hclsyntax.Body, s *shape) *Body {
	out := &Body{}
	for _, a := range nb.Attributes {
		out.Attributes = append(out.Attributes, &Attribute{
			Name:      a.Name,
			Expr:      a.Expr,
			Range:     a.SrcRange,
			NameRange: a.NameRange,
			Keyword:   s.keywords[a.Name],
		})
	}
	sortAttributes(out.Attributes)
	for _, b := range nb.Blocks {
		bs, ok := s.block(b.Type)
		child := bs.body
		if !ok {
			child = genericShape(b.Type)
		}
		out.Blocks = append(out.Blocks, &Block{
			Type:     b.Type,
			Labels:   append([]string(nil), b.Labels...),
			Body:     nativeBody(b.Body, child),
			DefRange: b.DefRange(),
		})
	}
	return out
}

// genericShape is the shape of a nested block the loader has no schema for
// (provider-defined blocks): dynamic blocks have content blocks and a
// keyword iterator.
func genericShape(typ string) *shape {
	if typ == "dynamic" {
		return dynamicShape
	}
	return emptyShape
}

var dynamicShape = &shape{
	blocks:   map[string]blockShape{"content": {body: emptyShape}},
	keywords: map[string]bool{"iterator": true},
}

func jsonBody(body hcl.Body, s *shape) *Body {
	out := &Body{}
	content, remain, _ := body.PartialContent(s.schema())
	if content != nil {
		for _, a := range content.Attributes {
			out.Attributes = append(out.Attributes, newAttribute(a, s))
		}
		for _, b := range content.Blocks {
			bs, _ := s.block(b.Type)
			out.Blocks = append(out.Blocks, newSyntaxBlock(b, bs.body))
		}
	}
	if remain != nil {
		attrs, _ := remain.JustAttributes()
		for _, a := range attrs {
			out.Attributes = append(out.Attributes, newAttribute(a, s))
		}
	}
	sortAttributes(out.Attributes)
	sort.SliceStable(out.Blocks, func(i, j int) bool {
		return out.Blocks[i].DefRange.Start.Byte < out.Blocks[j].DefRange.Start.Byte
	})
	return out
}

func newAttribute(a *hcl.Attribute, s *shape) *Attribute {
	return &Attribute{
		Name:      a.Name,
		Expr:      a.Expr,
		Range:     a.Range,
		NameRange: a.NameRange,
		Keyword:   s.keywords[a.Name],
	}
}

func sortAttributes(attrs []*Attribute) {
	sort.SliceStable(attrs, func(i, j int) bool {
		return attrs[i].Range.Start.Byte < attrs[j].Range.Start.Byte
	})
}

// Attribute returns the argument named name, or nil.
func (b *Body) Attribute(name string) *Attribute {
	if b == nil {
		return nil
	}
	for _, a := range b.Attributes {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// BlocksOfType returns the nested blocks of one type, in merged order.
func (b *Body) BlocksOfType(typ string) []*Block {
	if b == nil {
		return nil
	}
	var out []*Block
	for _, blk := range b.Blocks {
		if blk.Type == typ {
			out = append(out, blk)
		}
	}
	return out
}

// without returns a shallow copy of b without the named arguments and
// nested block types; b itself is unchanged.
func (b *Body) without(attrs []string, blocks []string) *Body {
	if b == nil {
		return &Body{}
	}
	skip := func(list []string, n string) bool {
		for _, s := range list {
			if s == n {
				return true
			}
		}
		return false
	}
	out := &Body{}
	for _, a := range b.Attributes {
		if !skip(attrs, a.Name) {
			out.Attributes = append(out.Attributes, a)
		}
	}
	for _, blk := range b.Blocks {
		if !skip(blocks, blk.Type) {
			out.Blocks = append(out.Blocks, blk)
		}
	}
	return out
}

// keepOnly drops, in place, every argument and nested block of b not named
// in attrs or blocks.
func (b *Body) keepOnly(attrs []string, blocks []string) {
	var keptAttrs []*Attribute
	for _, a := range b.Attributes {
		if slices.Contains(attrs, a.Name) {
			keptAttrs = append(keptAttrs, a)
		}
	}
	var keptBlocks []*Block
	for _, blk := range b.Blocks {
		if slices.Contains(blocks, blk.Type) {
			keptBlocks = append(keptBlocks, blk)
		}
	}
	b.Attributes, b.Blocks = keptAttrs, keptBlocks
}

// mergeKey is the block type a nested block counts as when merging:
// `dynamic "T"` counts as T.
func mergeKey(b *Block) string {
	if b.Type == "dynamic" && len(b.Labels) > 0 {
		return b.Labels[0]
	}
	return b.Type
}

// mergeBody merges an override body into base in place (config-loading.md
// §7.9): each override argument replaces the base argument of that name;
// any override block of type T (static or dynamic) drops every base block of
// type T; surviving base blocks come first, then the override's blocks.
func mergeBody(base, over *Body, file string) {
	if over == nil {
		return
	}
	overTypes := map[string]bool{}
	for _, b := range over.Blocks {
		overTypes[mergeKey(b)] = true
	}
	overAttrs := map[string]bool{}
	for _, a := range over.Attributes {
		overAttrs[a.Name] = true
	}
	// Replace or add arguments; an argument also displaces base blocks of
	// the same name (a JSON property standing for nested blocks).
	for _, oa := range over.Attributes {
		na := *oa
		if i := base.attrIndex(oa.Name); i >= 0 {
			r := base.Attributes[i].Range
			na.Replaced = &r
			base.Attributes[i] = &na
		} else {
			if displaced := firstOfType(base.Blocks, oa.Name); displaced != nil {
				r := displaced.DefRange
				na.Replaced = &r
			}
			base.Attributes = append(base.Attributes, &na)
		}
	}
	displaced := map[string]*hcl.Range{}
	var kept []*Block
	for _, b := range base.Blocks {
		k := mergeKey(b)
		if overTypes[k] || overAttrs[k] {
			if _, ok := displaced[k]; !ok {
				r := b.DefRange
				displaced[k] = &r
			}
			continue
		}
		kept = append(kept, b)
	}
	// A native block displaces a base argument of the same name.
	var attrs []*Attribute
	for _, a := range base.Attributes {
		if overTypes[a.Name] && !overAttrs[a.Name] {
			if _, ok := displaced[a.Name]; !ok {
				r := a.Range
				displaced[a.Name] = &r
			}
			continue
		}
		attrs = append(attrs, a)
	}
	base.Attributes = attrs
	seen := map[string]bool{}
	for _, ob := range over.Blocks {
		nb := *ob
		nb.FromOverride = file
		nb.Replaced = nil
		if k := mergeKey(ob); !seen[k] {
			seen[k] = true
			nb.Replaced = displaced[k]
		}
		kept = append(kept, &nb)
	}
	base.Blocks = kept
}

func (b *Body) attrIndex(name string) int {
	for i, a := range b.Attributes {
		if a.Name == name {
			return i
		}
	}
	return -1
}

func firstOfType(blocks []*Block, typ string) *Block {
	for _, b := range blocks {
		if mergeKey(b) == typ {
			return b
		}
	}
	return nil
}

// setAttribute replaces or appends one argument, recording what it replaced.
func (b *Body) setAttribute(a *Attribute) {
	na := *a
	if i := b.attrIndex(a.Name); i >= 0 {
		r := b.Attributes[i].Range
		na.Replaced = &r
		b.Attributes[i] = &na
		return
	}
	b.Attributes = append(b.Attributes, &na)
}

// removeAttribute drops the named argument if present.
func (b *Body) removeAttribute(name string) {
	if i := b.attrIndex(name); i >= 0 {
		b.Attributes = append(b.Attributes[:i:i], b.Attributes[i+1:]...)
	}
}
