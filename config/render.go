package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// RenderOptions controls how a Document is rendered.
type RenderOptions struct {
	// Explain adds a comment above every argument and nested block that an
	// override file changed, naming the file and line that won and the one
	// it replaced, and a comment at the top listing the override files
	// applied, in order.
	Explain bool
}

// Render writes the effective configuration as one canonically formatted
// native-syntax document. Loading the result alone, as main.tf in an empty
// directory, gives the same module as the directory d was loaded from.
// Native expressions are reproduced from their source text; values from
// JSON files are written as equivalent native expressions.
func (d *Document) Render(opts RenderOptions) []byte {
	if d == nil {
		return nil
	}
	w := &nativeWriter{doc: d, opts: opts, overrides: map[string]bool{}}
	for _, f := range d.OverrideFiles {
		w.overrides[f] = true
	}
	if opts.Explain {
		w.writeOverrideList()
	}
	first := true
	for _, b := range d.Blocks {
		if b == nil {
			continue
		}
		if !first || opts.Explain {
			w.buf.WriteByte('\n')
		}
		first = false
		w.writeBlock(b, nil, "")
	}
	return hclwrite.Format([]byte(w.buf.String()))
}

// nativeWriter accumulates the unformatted native text of one Document.
type nativeWriter struct {
	doc       *Document
	opts      RenderOptions
	overrides map[string]bool
	buf       strings.Builder
}

func (w *nativeWriter) writeOverrideList() {
	if len(w.doc.OverrideFiles) == 0 {
		w.buf.WriteString("# No override files applied.\n")
		return
	}
	w.buf.WriteString("# Override files applied, in order:\n")
	for i, f := range w.doc.OverrideFiles {
		fmt.Fprintf(&w.buf, "#   %d. %s\n", i+1, f)
	}
}

// writeBlock writes b. path holds the types of the enclosing blocks; origin
// is the override file the enclosing block came from wholesale, if any.
func (w *nativeWriter) writeBlock(b *Block, path []string, origin string) {
	if c := w.blockComment(b, origin); c != "" {
		w.buf.WriteString(c)
	}
	w.buf.WriteString(blockHeader(b))
	if b.Body == nil || len(b.Body.Attributes)+len(b.Body.Blocks) == 0 {
		w.buf.WriteString(" {}\n")
		return
	}
	w.buf.WriteString(" {\n")
	if b.FromOverride != "" {
		origin = b.FromOverride
	}
	w.writeBody(b.Body, append(path[:len(path):len(path)], b.Type), origin)
	w.buf.WriteString("}\n")
}

// blockHeader is the block type followed by its quoted labels.
func blockHeader(b *Block) string {
	var s strings.Builder
	s.WriteString(b.Type)
	for _, l := range b.Labels {
		s.WriteString(" " + quoteLiteral(l))
	}
	return s.String()
}

func (w *nativeWriter) writeBody(body *Body, path []string, origin string) {
	shadowed := shadowedForEach(path, body)
	for _, a := range body.Attributes {
		if a == nil {
			continue
		}
		if a == shadowed {
			w.buf.WriteString("# " + shadowedNote(a) + "\n")
			continue
		}
		w.writeAttribute(a, path, origin)
	}
	for i, b := range body.Blocks {
		if b == nil {
			continue
		}
		if i > 0 || len(body.Attributes) > 0 {
			w.buf.WriteByte('\n')
		}
		w.writeBlock(b, path, origin)
	}
}

func (w *nativeWriter) writeAttribute(a *Attribute, path []string, origin string) {
	if c := w.attributeComment(a, origin); c != "" {
		w.buf.WriteString(c)
	}
	if !hclsyntax.ValidIdentifier(a.Name) {
		fmt.Fprintf(&w.buf, "# argument %s omitted: native syntax cannot name it\n", quoteLiteral(a.Name))
		return
	}
	fmt.Fprintf(&w.buf, "%s = %s\n", a.Name, w.doc.nativeExprText(a.Expr, attributeMode(path, a)))
}

// attributeComment explains where an argument came from when an override
// file changed it; it is empty when the argument is not explained.
func (w *nativeWriter) attributeComment(a *Attribute, origin string) string {
	if !w.opts.Explain {
		return ""
	}
	file := a.Range.Filename
	if a.Replaced == nil && (!w.overrides[file] || file == origin) {
		return ""
	}
	c := fmt.Sprintf("# %s: from %s:%d", a.Name, file, a.Range.Start.Line)
	if a.Replaced != nil {
		c += fmt.Sprintf(", replaces %s:%d", a.Replaced.Filename, a.Replaced.Start.Line)
	}
	return c + "\n"
}

// blockComment explains a block that an override file supplied wholesale,
// unless its enclosing block already came from that file.
func (w *nativeWriter) blockComment(b *Block, origin string) string {
	if !w.opts.Explain || b.FromOverride == "" || b.FromOverride == origin {
		return ""
	}
	from := b.FromOverride
	if b.DefRange.Filename == b.FromOverride {
		from = fmt.Sprintf("%s:%d", from, b.DefRange.Start.Line)
	}
	c := fmt.Sprintf("# %s: from %s", blockHeader(b), from)
	if b.Replaced != nil {
		c += fmt.Sprintf(", replaces %s:%d", b.Replaced.Filename, b.Replaced.Start.Line)
	}
	return c + "\n"
}

// shadowedForEach returns the for_each argument of a resource or module
// call whose merged body also sets count, or nil. An override can leave
// both set (config-loading.md §7.8): OpenTofu then uses count, and no single
// file can declare both, so the renderers leave for_each out with a note.
func shadowedForEach(path []string, body *Body) *Attribute {
	owner := len(path) == 1 && (isResourceKind(path[0]) || path[0] == "module") ||
		len(path) == 2 && path[0] == "check" && path[1] == "data"
	if !owner {
		return nil
	}
	var count, forEach *Attribute
	for _, a := range body.Attributes {
		switch a.Name {
		case "count":
			count = a
		case "for_each":
			forEach = a
		}
	}
	if count == nil {
		return nil
	}
	return forEach
}

func shadowedNote(a *Attribute) string {
	return fmt.Sprintf("for_each (%s:%d) left out: count is also set, and OpenTofu uses count", a.Range.Filename, a.Range.Start.Line)
}
