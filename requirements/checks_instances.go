package requirements

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
)

// checkProviderInstances checks the references to provider configurations
// that use for_each (OpenTofu 1.9) in module t, as OpenTofu does while it
// builds the module tree: the configurations its module calls pass and the
// provider arguments of its resources must carry an instance key exactly
// when the configuration they name uses for_each, a module call may not
// key the child's side, and a call or managed resource whose for_each is
// the provider configuration's own gets the warning "Provider
// configuration for_each matches …" (removing an element would remove the
// provider instance together with the object it must destroy).
func checkProviderInstances(t *config.Tree, mp moduleProviders) hcl.Diagnostics {
	instanced := map[string]hcl.Expression{}
	for _, pc := range t.Module.ProviderConfigs {
		if pc.ForEach != nil {
			instanced[pc.Key()] = pc.ForEach
		}
	}
	var diags hcl.Diagnostics
	for _, callName := range sortedKeys(t.Module.ModuleCalls) {
		mc := t.Module.ModuleCalls[callName]
		for _, passed := range mc.Providers {
			if passed.InChild.KeyExpression != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid module provider configuration",
					Detail:   "Instance keys are not allowed on the left side of a provider configuration assignment.",
					Subject:  passed.InChild.KeyExpression.Range().Ptr(),
				})
			}
			name := passed.InParent.String()
			_, hasConfig := mp.configured[name]
			forEach := instanced[name]
			diags = append(diags, instanceValidation(passed.InParent, "module", forEach != nil, hasConfig)...)
			if passed.InParent.KeyExpression != nil {
				diags = append(diags, forEachMatchesWarning("module", "-target="+absAddress(t.PathString(), "module."+callName), mc.ForEach, forEach, t.Module.Flavour())...)
			}
		}
	}
	for _, r := range moduleResources(t.Module) {
		ref := r.ProviderConfigRef
		if ref == nil {
			continue
		}
		name := ref.String()
		_, hasConfig := mp.configured[name]
		forEach := instanced[name]
		diags = append(diags, instanceValidation(ref, resourceBlockType, forEach != nil, hasConfig)...)
		if ref.KeyExpression != nil && r.Mode == config.ManagedResourceMode {
			diags = append(diags, forEachMatchesWarning(resourceBlockType, "-target="+absAddress(t.PathString(), r.Type+"."+r.Name), r.ForEach, forEach, t.Module.Flavour())...)
		}
	}
	return diags
}

// resourceBlockType is how OpenTofu names every resource kind (managed,
// data, ephemeral) in these diagnostics.
const resourceBlockType = "resource"

// instanceValidation checks that ref carries an instance key exactly when
// the configuration it names uses for_each; blockType ("module" or
// "resource") names the referring block in the summary.
func instanceValidation(ref *config.ProviderConfigRef, blockType string, instanced, hasConfig bool) hcl.Diagnostics {
	diag := func(detail string, subject hcl.Range) hcl.Diagnostics {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Invalid %s provider configuration", blockType),
			Detail:   detail,
			Subject:  subject.Ptr(),
		}}
	}
	switch {
	case ref.KeyExpression != nil && ref.Alias == "":
		return diag("An instance key can be specified only for a provider configuration which has an alias and uses for_each.", ref.KeyExpression.Range())
	case ref.KeyExpression != nil && !instanced && !hasConfig:
		return diag(fmt.Sprintf("This module doesn't declare a provider %q block with alias = %q, which is required for use with for_each.", ref.Name, ref.Alias), ref.NameRange)
	case ref.KeyExpression != nil && !instanced:
		return diag("An instance key can be specified only for a provider configuration that uses for_each.", ref.KeyExpression.Range())
	case ref.KeyExpression == nil && instanced:
		return diag("A reference to a provider configuration which uses for_each requires an instance key. Passing a collection of provider instances into a child module is not allowed.", ref.NameRange)
	}
	return nil
}

// forEachMatchesWarning warns when the for_each of a block (blockType
// "resource" or "module", target its -target option) is the same
// expression as the for_each of the provider configuration it uses. Like
// OpenTofu it compares syntax, best effort, and only expressions that
// refer to something: constant collections never warn.
func forEachMatchesWarning(blockType, target string, blockForEach, providerForEach hcl.Expression, f flavour.Flavour) hcl.Diagnostics {
	if blockForEach == nil || providerForEach == nil {
		return nil
	}
	if len(blockForEach.Variables()) == 0 || len(providerForEach.Variables()) == 0 {
		return nil
	}
	if !sameForEach(blockForEach, providerForEach) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "Provider configuration for_each matches " + blockType,
		Detail: fmt.Sprintf("This provider configuration uses the same for_each expression as a %s, which means that subsequent removal of elements from this collection would cause a planning error.\n\n%[3]s relies on a provider instance to destroy resource instances that are associated with it, and so the provider instance must outlive all of its resource instances by at least one plan/apply round. For removal of instances to succeed in future you must structure the configuration so that the provider block's for_each expression can produce a superset of the instances of the resources associated with the provider configuration. Refer to the %[3]s documentation for specific suggestions.\n\nTo destroy this object before removing the provider configuration, consider first performing a targeted destroy:\n    %[4]s apply -destroy %[2]s",
			blockType, target, f.Product(), f.Command()),
		Subject: blockForEach.Range().Ptr(),
	}}
}

// sameForEach reports whether two native-syntax expressions are the same
// up to parentheses and layout: the same operators, function calls,
// constructors, for expressions, templates, literals and references.
// Expressions of other kinds (JSON syntax, splats, ...) never match, as in
// OpenTofu's comparison.
func sameForEach(a, b hcl.Expression) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if p, ok := a.(*hclsyntax.ParenthesesExpr); ok {
		return sameForEach(p.Expression, b)
	}
	if p, ok := b.(*hclsyntax.ParenthesesExpr); ok {
		return sameForEach(a, p.Expression)
	}
	if k, ok := a.(*hclsyntax.ObjectConsKeyExpr); ok {
		return sameForEach(k.Wrapped, b)
	}
	if k, ok := b.(*hclsyntax.ObjectConsKeyExpr); ok {
		return sameForEach(a, k.Wrapped)
	}
	switch x := a.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		y, ok := b.(*hclsyntax.ScopeTraversalExpr)
		return ok && sameTraversal(x.Traversal, y.Traversal)
	case *hclsyntax.LiteralValueExpr:
		y, ok := b.(*hclsyntax.LiteralValueExpr)
		return ok && sameValue(x.Val, y.Val)
	case *hclsyntax.RelativeTraversalExpr:
		y, ok := b.(*hclsyntax.RelativeTraversalExpr)
		return ok && sameTraversal(x.Traversal, y.Traversal) && sameForEach(x.Source, y.Source)
	case *hclsyntax.FunctionCallExpr:
		y, ok := b.(*hclsyntax.FunctionCallExpr)
		if !ok || x.Name != y.Name || len(x.Args) != len(y.Args) {
			return false
		}
		for i := range x.Args {
			if !sameForEach(x.Args[i], y.Args[i]) {
				return false
			}
		}
		return true
	case *hclsyntax.ConditionalExpr:
		y, ok := b.(*hclsyntax.ConditionalExpr)
		return ok && sameForEach(x.Condition, y.Condition) && sameForEach(x.TrueResult, y.TrueResult) && sameForEach(x.FalseResult, y.FalseResult)
	case *hclsyntax.IndexExpr:
		y, ok := b.(*hclsyntax.IndexExpr)
		return ok && sameForEach(x.Collection, y.Collection) && sameForEach(x.Key, y.Key)
	case *hclsyntax.TupleConsExpr:
		y, ok := b.(*hclsyntax.TupleConsExpr)
		if !ok || len(x.Exprs) != len(y.Exprs) {
			return false
		}
		for i := range x.Exprs {
			if !sameForEach(x.Exprs[i], y.Exprs[i]) {
				return false
			}
		}
		return true
	case *hclsyntax.ObjectConsExpr:
		y, ok := b.(*hclsyntax.ObjectConsExpr)
		if !ok || len(x.Items) != len(y.Items) {
			return false
		}
		for i := range x.Items {
			if !sameForEach(x.Items[i].KeyExpr, y.Items[i].KeyExpr) || !sameForEach(x.Items[i].ValueExpr, y.Items[i].ValueExpr) {
				return false
			}
		}
		return true
	case *hclsyntax.ForExpr:
		y, ok := b.(*hclsyntax.ForExpr)
		return ok && x.KeyVar == y.KeyVar && x.ValVar == y.ValVar &&
			sameOptional(x.CollExpr, y.CollExpr) && sameOptional(x.KeyExpr, y.KeyExpr) &&
			sameOptional(x.ValExpr, y.ValExpr) && sameOptional(x.CondExpr, y.CondExpr) &&
			x.Group == y.Group
	case *hclsyntax.BinaryOpExpr:
		y, ok := b.(*hclsyntax.BinaryOpExpr)
		return ok && sameForEach(x.LHS, y.LHS) && x.Op == y.Op && sameForEach(x.RHS, y.RHS)
	case *hclsyntax.UnaryOpExpr:
		y, ok := b.(*hclsyntax.UnaryOpExpr)
		return ok && x.Op == y.Op && sameForEach(x.Val, y.Val)
	case *hclsyntax.TemplateExpr:
		y, ok := b.(*hclsyntax.TemplateExpr)
		if !ok || len(x.Parts) != len(y.Parts) {
			return false
		}
		for i := range x.Parts {
			if !sameForEach(x.Parts[i], y.Parts[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// sameOptional compares the optional parts of a for expression (key,
// condition), which are nil interfaces of the hclsyntax type when absent.
func sameOptional(a, b hclsyntax.Expression) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return sameForEach(a, b)
}

// sameTraversal compares two traversals step by step: the same names and
// equal index keys.
func sameTraversal(a, b hcl.Traversal) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		switch x := a[i].(type) {
		case hcl.TraverseRoot:
			y, ok := b[i].(hcl.TraverseRoot)
			if !ok || x.Name != y.Name {
				return false
			}
		case hcl.TraverseAttr:
			y, ok := b[i].(hcl.TraverseAttr)
			if !ok || x.Name != y.Name {
				return false
			}
		case hcl.TraverseIndex:
			y, ok := b[i].(hcl.TraverseIndex)
			if !ok || !sameValue(x.Key, y.Key) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// sameValue is cty equality that is false, not a panic, for unknown
// values or values of different types.
func sameValue(a, b cty.Value) bool {
	if !a.IsWhollyKnown() || !b.IsWhollyKnown() {
		return false
	}
	eq := a.Equals(b)
	return eq.IsKnown() && eq.True()
}
