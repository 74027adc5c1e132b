package config

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// This file is the contract between the loader (which builds a Document while
// it merges override files) and the renderer (which prints a Document as the
// effective configuration). Both sides may add fields; neither removes one.

// Document is the effective root module as a syntax tree: every top-level
// block that survives loading, with override files merged in, in the order
// OpenTofu would see them (primary files in load order, blocks in source
// order; an override block that adds a new object comes after the primaries).
type Document struct {
	// Blocks are the top-level blocks: terraform, variable, locals, output,
	// module, provider, resource, data, ephemeral, check, moved, import,
	// removed, encryption-related terraform content, and so on. A "locals"
	// block holds one attribute per local value.
	Blocks []*Block
	// OverrideFiles are the override files applied, in the order applied.
	OverrideFiles []string
	// Files maps each file name (as in ranges) to its parsed form, for
	// reading source bytes of expressions.
	Files map[string]*hcl.File
	// flavour words CheckJSON's diagnostics.
	flavour flavour.Flavour
}

// Body is a merged block body: arguments and nested blocks in merged order.
type Body struct {
	// Attributes in merged order: base arguments in base source order (an
	// overridden one keeps its base position), then arguments an override adds.
	Attributes []*Attribute
	// Blocks in merged order: surviving base blocks first, then the
	// override's blocks, per the rules of config-loading.md §7.9.
	Blocks []*Block
}

// Attribute is one argument that survived merging.
type Attribute struct {
	Name string
	// Expr is the winning expression, from a native (hclsyntax) or JSON file.
	Expr hcl.Expression
	// Range covers the whole argument (name = expr) in the winning file;
	// NameRange covers the name alone.
	Range, NameRange hcl.Range
	// Keyword is true when the argument is read as a bare keyword or static
	// traversal rather than a value (variable "type", "provider",
	// "depends_on", lifecycle "ignore_changes", "replace_triggered_by", ...):
	// from JSON, its string must be rendered as an expression, not a string.
	Keyword bool
	// Replaced, when an override changed this argument, is the range of the
	// argument it replaced (the previous winner); nil otherwise.
	Replaced *hcl.Range
}

// Block is a block that survived merging, with its merged body.
type Block struct {
	Type   string
	Labels []string
	Body   *Body
	// DefRange is the declaration range (type and labels) of the block as kept
	// by the merge: the base block's, except where OpenTofu keeps the override's.
	DefRange hcl.Range
	// FromOverride is the override file that supplied this block wholesale
	// (a nested block that replaced the base's blocks of its type, or a
	// top-level object an override added); "" when it comes from a primary file.
	FromOverride string
	// Replaced, for a block from an override, is the range of the first base
	// block of the same type it displaced; nil when it displaced nothing.
	Replaced *hcl.Range
}
