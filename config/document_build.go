package config

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
)

// buildDocument collects the surviving top-level blocks in the order
// OpenTofu sees them: primary files in load order, blocks in source order,
// then blocks that override files added.
func (m *Module) buildDocument() *Document {
	doc := &Document{Files: m.ParsedFiles(), flavour: m.flavour}
	for _, f := range m.overrides {
		doc.OverrideFiles = append(doc.OverrideFiles, f.Name)
	}
	order := m.fileOrder()
	var blocks []*Block
	add := func(b *Block) {
		if b != nil {
			blocks = append(blocks, b)
		}
	}
	if tf := m.terraformBlock(order); tf != nil {
		add(tf)
	}
	for _, b := range m.Languages {
		add(b)
	}
	for _, v := range m.Variables {
		add(v.Syntax)
	}
	blocks = append(blocks, m.localsBlocks()...)
	for _, o := range m.Outputs {
		add(o.Syntax)
	}
	for _, mc := range m.ModuleCalls {
		add(mc.Syntax)
	}
	for _, p := range m.ProviderConfigs {
		add(p.Syntax)
	}
	for _, r := range m.ManagedResources {
		add(r.Syntax)
	}
	for _, r := range m.DataResources {
		if r.Container == "" {
			add(r.Syntax)
		}
	}
	for _, r := range m.EphemeralResources {
		add(r.Syntax)
	}
	for _, c := range m.Checks {
		add(c.Syntax)
	}
	for _, x := range m.Moved {
		add(x.Syntax)
	}
	for _, x := range m.Imports {
		add(x.Syntax)
	}
	for _, x := range m.Removed {
		add(x.Syntax)
	}
	// The objects come from maps; sort them into source order. Blocks of
	// one JSON array share their declaration range (the property name), so
	// ties are broken by where their content starts.
	sort.SliceStable(blocks, func(i, j int) bool {
		a, b := blocks[i], blocks[j]
		if a.DefRange != b.DefRange {
			return rangeLess(a.DefRange, b.DefRange, order)
		}
		return rangeLess(contentStart(a), contentStart(b), order)
	})
	doc.Blocks = blocks
	return doc
}

// contentStart is the range of the first argument or nested block of b, or
// its declaration range when its body is empty.
func contentStart(b *Block) hcl.Range {
	first := b.DefRange
	found := false
	consider := func(r hcl.Range) {
		if !found || r.Start.Byte < first.Start.Byte {
			first, found = r, true
		}
	}
	if b.Body != nil {
		for _, a := range b.Body.Attributes {
			consider(a.Range)
		}
		for _, nb := range b.Body.Blocks {
			consider(nb.DefRange)
		}
	}
	return first
}

// localsBlocks returns one locals block per primary locals block, holding
// the local values that survived in it.
func (m *Module) localsBlocks() []*Block {
	var out []*Block
	for _, f := range m.primary {
		for _, lb := range f.LocalsBlocks {
			nb := &Block{Type: "locals", DefRange: lb.DefRange, Body: &Body{}}
			for _, a := range lb.Body.Attributes {
				if l, ok := m.Locals[a.Name]; ok && l.block == lb && l.Syntax == a {
					nb.Body.Attributes = append(nb.Body.Attributes, a)
				}
			}
			if len(nb.Body.Attributes) > 0 {
				out = append(out, nb)
			}
		}
	}
	return out
}

// terraformBlock synthesises the single effective terraform block:
// required_providers, backend or cloud, provider_meta and encryption.
func (m *Module) terraformBlock(order map[string]int) *Block {
	var first *Block
	for _, f := range append(append([]*File{}, m.primary...), m.overrides...) {
		for _, tb := range f.TerraformBlocks {
			if first == nil {
				first = tb
			}
		}
	}
	if first == nil {
		return nil
	}
	body := &Body{}
	if rps := m.RequiredProviders; len(rps.Order) > 0 {
		rb := &Block{Type: "required_providers", Body: &Body{}, DefRange: rps.DeclRange}
		for _, name := range rps.Order {
			rb.Body.Attributes = append(rb.Body.Attributes, rps.RequiredProviders[name].Syntax)
		}
		body.Blocks = append(body.Blocks, rb)
	}
	if m.Backend != nil {
		body.Blocks = append(body.Blocks, m.Backend.Syntax)
	}
	if m.Cloud != nil {
		body.Blocks = append(body.Blocks, m.Cloud.Syntax)
	}
	var metas []*Block
	for _, pm := range m.ProviderMetas {
		metas = append(metas, pm.Syntax)
	}
	sort.Slice(metas, func(i, j int) bool { return rangeLess(metas[i].DefRange, metas[j].DefRange, order) })
	body.Blocks = append(body.Blocks, metas...)
	if m.Encryption != nil {
		body.Blocks = append(body.Blocks, m.Encryption.Syntax)
	}
	if len(body.Blocks) == 0 {
		return nil
	}
	return &Block{Type: "terraform", Body: body, DefRange: first.DefRange}
}
