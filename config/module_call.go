package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfdeps/tfdeps/flavour"
)

var moduleBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "source", Required: true},
		{Name: "version"},
		{Name: "count"},
		{Name: "for_each"},
		{Name: "depends_on"},
		{Name: "providers"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "_"},
		{Type: "lifecycle"},
		{Type: "locals"},
		{Type: "provider", LabelNames: []string{"type"}},
	},
}

var moduleLifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "enabled"}},
}

// decodeModuleBlock decodes a module block. In the Terraform flavour the
// lifecycle block is reserved (Terraform has no "enabled") and the
// ignore_nested_deprecations argument is Terraform's.
func decodeModuleBlock(block *hcl.Block, override bool, f flavour.Flavour) (*ModuleCall, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	mc := &ModuleCall{
		Name:      block.Labels[0],
		DeclRange: block.DefRange,
		Syntax:    newSyntaxBlock(block, moduleShape),
	}
	schema := moduleBlockSchema
	if f == flavour.Terraform {
		schema = terraformModuleBlockSchema
	}
	if override {
		schema = schemaForOverrides(schema)
	}
	content, _, moreDiags := block.Body.PartialContent(schema)
	diags = append(diags, moreDiags...)
	if !hclsyntax.ValidIdentifier(mc.Name) {
		diags = append(diags, errorDiag("Invalid module instance name", badIdentifierDetail, &block.LabelRanges[0]))
	}
	if content == nil {
		return mc, diags
	}
	if attr, ok := content.Attributes["source"]; ok {
		mc.SourceExpr = attr.Expr
		mc.SourceSet = true
		mc.SourceAddrRange = attr.Expr.Range()
	}
	if attr, ok := content.Attributes["version"]; ok {
		mc.VersionExpr = attr.Expr
		mc.HasVersion = true // decoded by static evaluation (static.go)
	}
	var counters []*hcl.Attribute
	if attr, ok := content.Attributes["count"]; ok {
		mc.Count = attr.Expr
		counters = append(counters, attr)
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		mc.ForEach = attr.Expr
		counters = append(counters, attr)
	}
	if f == flavour.Terraform {
		diags = append(diags, terraformCountAndForEach(counters)...)
		counters = nil
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, depsDiags := decodeDependsOnIn(attr, f)
		diags = append(diags, depsDiags...)
		mc.DependsOn = deps
	}
	if attr, ok := content.Attributes["providers"]; ok {
		providers, pDiags := decodePassedProviderConfigs(attr, f)
		diags = append(diags, pDiags...)
		mc.Providers = providers
	}
	if attr, ok := content.Attributes["ignore_nested_deprecations"]; ok {
		diags = append(diags, checkIgnoreNestedDeprecations(attr)...)
	}
	var seenEscape, seenLifecycle *hcl.Block
	for _, b := range content.Blocks {
		switch {
		case b.Type == "lifecycle" && f == flavour.Terraform:
			diags = append(diags, reservedBlockName("module", b, f))
			continue
		}
		switch b.Type {
		case "_":
			if seenEscape != nil {
				diags = append(diags, duplicateEscapingBlock("module input variables", "module", seenEscape, b))
				continue
			}
			seenEscape = b
		case "lifecycle":
			if seenLifecycle != nil {
				diags = append(diags, duplicateLifecycleBlock("resource", seenLifecycle, b))
				continue
			}
			seenLifecycle = b
			lc, lcDiags := bodyContent(b.Body, moduleLifecycleSchema)
			diags = append(diags, lcDiags...)
			if lc != nil {
				if attr, ok := lc.Attributes["enabled"]; ok {
					counters = append(counters, attr)
				}
			}
		default:
			diags = append(diags, reservedBlockName("module", b, f))
		}
	}
	if d := countCombination(counters, "The %s meta-arguments are mutually-exclusive. Only one should be used to be explicit about the number of module instances to be created."); d != nil {
		diags = append(diags, d)
	}
	return mc, diags
}

func decodePassedProviderConfigs(attr *hcl.Attribute, f flavour.Flavour) ([]PassedProviderConfig, hcl.Diagnostics) {
	pairs, diags := hcl.ExprMap(attr.Expr)
	var ret []PassedProviderConfig
	seen := map[string]hcl.Range{}
	for _, pair := range pairs {
		key, keyDiags := decodeProviderConfigRef(pair.Key, "providers", f)
		diags = append(diags, keyDiags...)
		value, valueDiags := decodeProviderConfigRef(pair.Value, "providers", f)
		diags = append(diags, valueDiags...)
		if keyDiags.HasErrors() || valueDiags.HasErrors() {
			continue
		}
		if prev, ok := seen[key.String()]; ok {
			diags = append(diags, errorDiag("Duplicate provider address", fmt.Sprintf("A provider configuration was already passed to %s at %s. Each child provider configuration can be assigned only once.", key.String(), prev), pair.Value.Range().Ptr()))
			continue
		}
		seen[key.String()] = hcl.RangeBetween(pair.Key.Range(), pair.Value.Range())
		ret = append(ret, PassedProviderConfig{InChild: key, InParent: value})
	}
	return ret, diags
}

var providerBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "alias"},
		{Name: "version"},
		{Name: "for_each"},
		{Name: "count"},
		{Name: "depends_on"},
		{Name: "source"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "_"},
		{Type: "lifecycle"},
		{Type: "locals"},
	},
}

// decodeProviderBlock decodes a provider block. In the Terraform flavour
// for_each is one more reserved argument name (Terraform has no provider
// instances) and the reserved names are checked in Terraform's order.
func decodeProviderBlock(block *hcl.Block, f flavour.Flavour) (*ProviderConfig, hcl.Diagnostics) {
	return decodeProviderBlockIn(block, f, false)
}

// decodeProviderBlockIn is decodeProviderBlock for a configuration file or,
// with inTestFile, a Terraform test file, where Terraform refuses a version
// argument.
func decodeProviderBlockIn(block *hcl.Block, f flavour.Flavour, inTestFile bool) (*ProviderConfig, hcl.Diagnostics) {
	content, _, diags := block.Body.PartialContent(providerBlockSchema)
	nameDiags := checkProviderNameNormalized(block.Labels[0], block.DefRange)
	diags = append(diags, nameDiags...)
	if nameDiags.HasErrors() {
		return nil, diags
	}
	p := &ProviderConfig{
		Name:      block.Labels[0],
		NameRange: block.LabelRanges[0],
		DeclRange: block.DefRange,
		Syntax:    newSyntaxBlock(block, providerShape),
	}
	if content == nil {
		return p, diags
	}
	if attr, ok := content.Attributes["alias"]; ok {
		valDiags := gohcl.DecodeExpression(attr.Expr, nil, &p.Alias)
		diags = append(diags, valDiags...)
		r := attr.Expr.Range()
		p.AliasRange = &r
		if !hclsyntax.ValidIdentifier(p.Alias) {
			// OpenTofu gives this error no source range.
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider configuration alias", Detail: "An alias must be a valid name. " + badIdentifierDetail})
		}
	}
	if attr, ok := content.Attributes["version"]; ok && inTestFile && f == flavour.Terraform {
		diags = append(diags, errorDiag("Version constraints are not allowed in test files", "Version constraints inside provider configuration blocks are not allowed in test files. To silence this error, move the provider version constraint into the required_providers block of the configuration that uses this provider.", attr.Expr.Range().Ptr()))
	} else if ok {
		diags = append(diags, warningDiag("Version constraints inside provider configuration blocks are deprecated", fmt.Sprintf("%[1]s 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of %[1]s. To silence this warning, move the provider version constraint into the required_providers block.", f.Product()), attr.Expr.Range().Ptr()))
		vc, _, vDiags := decodeVersionConstraint(attr, attr.Name)
		diags = append(diags, vDiags...)
		p.Version, p.VersionSet, p.VersionRange = vc.Required, vc.Set, attr.Range
	}
	reserved := []string{"count", "depends_on", "source"}
	if f == flavour.Terraform {
		reserved = []string{"count", "depends_on", "for_each", "source"}
	} else if attr, ok := content.Attributes["for_each"]; ok {
		p.ForEach = attr.Expr
	}
	if p.Alias == "" && p.ForEach != nil {
		diags = append(diags, errorDiag(`Alias required when using "for_each"`, `The for_each argument is allowed only for provider configurations with an alias.`, p.ForEach.Range().Ptr()))
	}
	for _, name := range reserved {
		if attr, ok := content.Attributes[name]; ok {
			diags = append(diags, errorDiag("Reserved argument name in provider block", fmt.Sprintf("The provider argument name %q is reserved for use by %s in a future version.", name, f.Product()), &attr.NameRange))
		}
	}
	var seenEscape *hcl.Block
	for _, b := range content.Blocks {
		if b.Type == "_" {
			if seenEscape != nil {
				diags = append(diags, duplicateEscapingBlock("provider-specific", "provider", seenEscape, b))
				continue
			}
			seenEscape = b
			continue
		}
		diags = append(diags, reservedBlockName("provider", b, f))
	}
	return p, diags
}

func duplicateEscapingBlock(what, kind string, first, second *hcl.Block) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Duplicate escaping block",
		Detail: fmt.Sprintf(
			"The special block type \"_\" can be used to force particular arguments to be interpreted as %s rather than as meta-arguments, but each %s block can have only one such block. The first escaping block was at %s.",
			what, kind, first.DefRange,
		),
		Subject: &second.DefRange,
	}
}

func duplicateLifecycleBlock(what string, first, second *hcl.Block) *hcl.Diagnostic {
	return errorDiag("Duplicate lifecycle block", fmt.Sprintf("This %s already has a lifecycle block at %s.", what, first.DefRange), &second.DefRange)
}

func reservedBlockName(kind string, b *hcl.Block, f flavour.Flavour) *hcl.Diagnostic {
	return errorDiag(fmt.Sprintf("Reserved block type name in %s block", kind), fmt.Sprintf("The block type name %q is reserved for use by %s in a future version.", b.Type, f.Product()), &b.TypeRange)
}

// countCombination is error C14 when more than one of count, enabled and
// for_each is present. The attributes are given in that order of name.
func countCombination(attrs []*hcl.Attribute, detail string) *hcl.Diagnostic {
	if len(attrs) < 2 {
		return nil
	}
	names := map[string]bool{}
	first, last := attrs[0], attrs[0]
	for _, a := range attrs {
		names[a.Name] = true
		if a.NameRange.Start.Byte < first.NameRange.Start.Byte {
			first = a
		}
		if a.NameRange.End.Byte > last.NameRange.End.Byte {
			last = a
		}
	}
	var list []string
	for _, n := range []string{"count", "enabled", "for_each"} {
		if names[n] {
			list = append(list, fmt.Sprintf("%q", n))
		}
	}
	var joined string
	switch len(list) {
	case 2:
		joined = list[0] + " and " + list[1]
	default:
		joined = list[0] + ", " + list[1] + ", and " + list[2]
	}
	rng := hcl.RangeBetween(first.NameRange, last.NameRange)
	return errorDiag("Invalid combination of "+joined, fmt.Sprintf(detail, joined), &rng)
}
