package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// documentFacts lists a Document's blocks and arguments, one line each, with
// every argument's expression reduced to what it means rather than how it
// is written, so that a native and a JSON spelling of one configuration
// give the same facts:
//
//   - a constant (evaluated as OpenTofu reads the argument) is its value;
//   - a keyword or reference argument is its static structure;
//   - anything else is the set of references it makes.
//
// Facts are sorted: objects are identified by path, so order is not a fact.
func documentFacts(doc *Document, lenient bool) []string {
	var facts []string
	seen := map[string]int{}
	for _, b := range doc.Blocks {
		facts = blockFacts(facts, seen, "", nil, b, lenient)
	}
	sort.Strings(facts)
	return facts
}

// jsonAmbiguousMeta are the nested block types a JSON file can express
// unambiguously to the loader; in lenient mode (a JSON round trip) other
// nested blocks and object-valued arguments are left out, because JSON
// without a provider schema cannot tell them apart.
var jsonAmbiguousMeta = map[string]bool{
	"lifecycle": true, "connection": true, "provisioner": true, "validation": true,
	"precondition": true, "postcondition": true, "required_providers": true,
	"backend": true, "cloud": true, "provider_meta": true, "encryption": true,
	"assert": true, "data": true,
}

func blockFacts(facts []string, seen map[string]int, parent string, path []string, b *Block, lenient bool) []string {
	if lenient && len(path) > 0 && !jsonAmbiguousMeta[b.Type] {
		return facts
	}
	base := parent + "/" + b.Type
	for _, l := range b.Labels {
		base += fmt.Sprintf(" %q", l)
	}
	id := fmt.Sprintf("%s#%d", base, seen[base])
	seen[base]++
	facts = append(facts, "block "+id)
	path = append(path[:len(path):len(path)], b.Type)
	if b.Body == nil {
		return facts
	}
	shadowed := shadowedForEach(path, b.Body)
	for _, a := range b.Body.Attributes {
		if a == shadowed {
			continue // OpenTofu uses count; the renderers leave for_each out
		}
		mode := attributeMode(path, a)
		if lenient && mode == modeTemplate && len(path) > 0 && objectValued(a.Expr) {
			continue
		}
		facts = append(facts, fmt.Sprintf("attr %s.%s = %s", id, a.Name, exprFact(a.Expr, mode)))
	}
	for _, nb := range b.Body.Blocks {
		facts = blockFacts(facts, seen, id, path, nb, lenient)
	}
	return facts
}

func objectValued(expr hcl.Expression) bool {
	if _, diags := hcl.ExprMap(expr); !diags.HasErrors() {
		return true
	}
	elems, diags := hcl.ExprList(expr)
	if diags.HasErrors() || len(elems) == 0 {
		return false
	}
	for _, e := range elems {
		if !objectValued(e) {
			return false
		}
	}
	return true
}

func exprFact(expr hcl.Expression, mode exprMode) string {
	switch mode {
	case modeKeyword:
		return staticFact(expr)
	case modeProviderRequirement:
		pairs, diags := hcl.ExprMap(expr)
		if diags.HasErrors() {
			return valueFact(expr, nil)
		}
		var parts []string
		for _, p := range pairs {
			key := staticFact(p.Key)
			if hcl.ExprAsKeyword(p.Key) == "configuration_aliases" {
				parts = append(parts, key+": "+staticFact(p.Value))
			} else {
				parts = append(parts, key+": "+valueFact(p.Value, nil))
			}
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case modeLiteral:
		return valueFact(expr, nil)
	default:
		return valueFact(expr, &hcl.EvalContext{})
	}
}

// valueFact is the value of a constant expression, or the references of
// any other.
func valueFact(expr hcl.Expression, ctx *hcl.EvalContext) string {
	if v, diags := expr.Value(ctx); !diags.HasErrors() && v.IsWhollyKnown() {
		return "value " + v.GoString()
	}
	var refs []string
	for _, tr := range expr.Variables() {
		refs = append(refs, traversalText(tr))
	}
	sort.Strings(refs)
	return "refs " + strings.Join(refs, " ")
}

// staticFact describes an expression by static analysis alone: keyword,
// traversal, call, list or map, recursively.
func staticFact(expr hcl.Expression) string {
	if kw := hcl.ExprAsKeyword(expr); kw != "" {
		return "kw " + kw
	}
	if tr, diags := hcl.AbsTraversalForExpr(expr); !diags.HasErrors() {
		return "ref " + traversalText(tr)
	}
	if call, diags := hcl.ExprCall(expr); !diags.HasErrors() {
		var args []string
		for _, a := range call.Arguments {
			args = append(args, staticFact(a))
		}
		return call.Name + "(" + strings.Join(args, ", ") + ")"
	}
	if elems, diags := hcl.ExprList(expr); !diags.HasErrors() {
		var parts []string
		for _, e := range elems {
			parts = append(parts, staticFact(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	if pairs, diags := hcl.ExprMap(expr); !diags.HasErrors() {
		var parts []string
		for _, p := range pairs {
			parts = append(parts, staticFact(p.Key)+": "+staticFact(p.Value))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return valueFact(expr, nil)
}

func traversalText(tr hcl.Traversal) string {
	var b strings.Builder
	for _, step := range tr {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			b.WriteString("[" + s.Key.GoString() + "]")
		default:
			b.WriteString("[*]")
		}
	}
	return b.String()
}
