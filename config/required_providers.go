package config

import (
	"fmt"

	goversion "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
)

// requiredProvidersBlock is one decoded required_providers block.
type requiredProvidersBlock struct {
	Entries   []*RequiredProvider
	DeclRange hcl.Range
	Syntax    *Block
}

// decodeRequiredProvidersBlock reads the entries of one required_providers
// block in source order (providers.md §4.2). In the Terraform flavour a
// block whose body is not only attributes (a block inside, or a syntax
// error that left one there) is dropped with that error: Terraform neither
// decodes its entries nor counts it as the module's required_providers
// block (so no "Duplicate required providers configuration" either).
func decodeRequiredProvidersBlock(block *hcl.Block, f flavour.Flavour) (*requiredProvidersBlock, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	if f == flavour.Terraform && diags.HasErrors() {
		return nil, diags
	}
	ret := &requiredProvidersBlock{DeclRange: block.DefRange, Syntax: newSyntaxBlock(block, requiredProvidersShape)}
	ordered := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		ordered = append(ordered, a)
	}
	sortHCLAttributes(ordered)
	for _, attr := range ordered {
		rp, rpDiags := decodeRequiredProvider(attr, diags.HasErrors(), f)
		diags = append(diags, rpDiags...)
		if rp != nil {
			rp.Syntax = ret.Syntax.Body.Attribute(attr.Name)
			if rp.Syntax == nil {
				rp.Syntax = newAttribute(attr, emptyShape)
			}
			ret.Entries = append(ret.Entries, rp)
		}
	}
	return ret, diags
}

// decodeRequiredProvider decodes one NAME = VALUE entry. hadErrors tells
// whether the block already produced errors (step 5 of the algorithm).
func decodeRequiredProvider(attr *hcl.Attribute, hadErrors bool, f flavour.Flavour) (*RequiredProvider, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	rp := &RequiredProvider{Name: attr.Name, DeclRange: attr.Expr.Range()}
	exprRange := attr.Expr.Range()

	// Legacy string form: a constant primitive is a version constraint.
	if val, valDiags := attr.Expr.Value(nil); !valDiags.HasErrors() && val.Type().IsPrimitiveType() {
		vc, _, vDiags := versionConstraintFromValue(val, exprRange, attr.Range, attr.Name)
		diags = append(diags, vDiags...)
		rp.Requirement = vc
		part, err := parseProviderPart(attr.Name)
		if err != nil {
			return nil, append(diags, invalidProviderName(err, exprRange))
		}
		rp.Type = addrs.ImpliedProviderIn(f, part)
		return rp, diags
	}

	part, err := parseProviderPart(attr.Name)
	if err != nil {
		return nil, append(diags, errorDiag("Invalid provider local name", fmt.Sprintf("%s is an invalid provider local name: %s", attr.Name, err), exprRange.Ptr()))
	}
	if part != attr.Name {
		return nil, append(diags, errorDiag("Invalid provider local name", fmt.Sprintf("Provider names must be normalized. Replace %q with %q to fix this error.", attr.Name, part), exprRange.Ptr()))
	}
	kvs, mapDiags := hcl.ExprMap(attr.Expr)
	if mapDiags.HasErrors() {
		return nil, append(diags, errorDiag("Invalid required_providers object", "required_providers entries must be strings or objects.", exprRange.Ptr()))
	}
	rp.entryRange = attr.Range
	sourceSet := false
	for _, kv := range kvs {
		key, keyDiags := kv.Key.Value(nil)
		if keyDiags.HasErrors() || key.IsNull() || !key.IsKnown() || key.Type() != cty.String {
			diags = append(diags, errorDiag("Invalid Attribute", fmt.Sprintf("Invalid attribute value for provider requirement: %#v", key), kv.Key.Range().Ptr()))
			continue
		}
		switch key.AsString() {
		case "version":
			diags = append(diags, rp.decodeVersion(kv.Value)...)
		case "source":
			sourceSet = true
			diags = append(diags, rp.decodeSource(kv.Value, f)...)
		case "configuration_aliases":
			diags = append(diags, rp.decodeAliases(kv.Value)...)
		default:
			diags = append(diags, errorDiag("Invalid required_providers object", `required_providers objects can only contain "version", "source" and "configuration_aliases" attributes. To configure a provider, use a "provider" block.`, kv.Key.Range().Ptr()))
		}
		if key.AsString() != "version" && key.AsString() != "source" && key.AsString() != "configuration_aliases" {
			break
		}
	}
	if hadErrors || diags.HasErrors() {
		return nil, diags
	}
	if !sourceSet {
		rp.Type = addrs.ImpliedProviderIn(f, part)
	}
	return rp, diags
}

func invalidProviderName(err error, rng hcl.Range) *hcl.Diagnostic {
	return errorDiag("Invalid provider name", err.Error(), rng.Ptr())
}

func (rp *RequiredProvider) decodeVersion(expr hcl.Expression) hcl.Diagnostics {
	val, diags := expr.Value(nil)
	if diags.HasErrors() {
		return diags
	}
	if !val.IsKnown() || val.IsNull() || val.Type() != cty.String {
		return append(diags, errorDiag("Invalid version constraint", "Version must be specified as a string.", expr.Range().Ptr()))
	}
	s := val.AsString()
	rp.Requirement = VersionConstraint{Required: s, Set: true, DeclRange: rp.entryRange}
	if _, err := goversion.NewConstraint(s); err != nil {
		diags = append(diags, errorDiag("Invalid version constraint", "This string does not use correct version constraint syntax.", expr.Range().Ptr()))
	}
	return diags
}

func (rp *RequiredProvider) decodeSource(expr hcl.Expression, f flavour.Flavour) hcl.Diagnostics {
	val, diags := expr.Value(nil)
	if diags.HasErrors() {
		return diags
	}
	if !val.IsKnown() || val.IsNull() || val.Type() != cty.String {
		return append(diags, errorDiag("Invalid source", "Source must be specified as a string.", expr.Range().Ptr()))
	}
	rp.Source = val.AsString()
	p, pDiags := parseProviderSource(f, rp.Source, expr.Range())
	diags = append(diags, pDiags...)
	if !pDiags.HasErrors() {
		rp.Type = p
	}
	return diags
}

func (rp *RequiredProvider) decodeAliases(expr hcl.Expression) hcl.Diagnostics {
	exprs, diags := hcl.ExprList(expr)
	if diags.HasErrors() {
		return diags
	}
	const invalidAlias = "Configuration aliases can only contain references to local provider configuration names in the format of provider.alias"
	for _, e := range exprs {
		tr, trDiags := hcl.AbsTraversalForExpr(e)
		if trDiags.HasErrors() {
			diags = append(diags, trDiags...)
			continue
		}
		ref := ProviderConfigRef{Name: tr.RootName(), NameRange: tr[0].SourceRange()}
		if len(tr) > 1 {
			// As in OpenTofu, steps after NAME.ALIAS are ignored.
			alias, ok := tr[1].(hcl.TraverseAttr)
			if !ok {
				diags = append(diags, errorDiag("Invalid configuration_aliases value", invalidAlias, expr.Range().Ptr()))
				continue
			}
			ar := alias.SrcRange
			ref.Alias, ref.AliasRange = alias.Name, &ar
		}
		if ref.Name != rp.Name {
			diags = append(diags, errorDiag("Invalid configuration_aliases value", fmt.Sprintf("Configuration aliases must be prefixed with the provider name. Expected %q, but found %q.", rp.Name, ref.Name), expr.Range().Ptr()))
			continue
		}
		rp.ConfigurationAliases = append(rp.ConfigurationAliases, ref)
	}
	return diags
}
