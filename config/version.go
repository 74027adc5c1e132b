package config

import (
	"fmt"
	"strings"

	goversion "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tfdeps/tfdeps/flavour"
)

// DefaultTofuVersion is the OpenTofu version the loader emulates by default.
const DefaultTofuVersion = flavour.DefaultOpenTofuVersion

const incompatibleModuleSummary = "Incompatible module"

// decodeVersionConstraint reads a version constraint argument (C16/C17).
// name is the text used in C16 (the argument or local name).
func decodeVersionConstraint(attr *hcl.Attribute, name string) (VersionConstraint, goversion.Constraints, hcl.Diagnostics) {
	ret := VersionConstraint{DeclRange: attr.Range}
	val, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return ret, nil, diags
	}
	return versionConstraintFromValue(val, attr.Expr.Range(), attr.Range, name)
}

func versionConstraintFromValue(val cty.Value, exprRange, declRange hcl.Range, name string) (VersionConstraint, goversion.Constraints, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	ret := VersionConstraint{DeclRange: declRange}
	val, err := convert.Convert(val, cty.String)
	if err != nil {
		return ret, nil, append(diags, errorDiag("Invalid version constraint", fmt.Sprintf("A string value is required for %s.", name), exprRange.Ptr()))
	}
	if val.IsNull() || !val.IsWhollyKnown() {
		return ret, nil, diags
	}
	ret.Required = val.AsString()
	ret.Set = true
	constraints, err := goversion.NewConstraint(ret.Required)
	if err != nil {
		return ret, nil, append(diags, errorDiag("Invalid version constraint", "This string does not use correct version constraint syntax.", exprRange.Ptr()))
	}
	return ret, constraints, diags
}

// sniffCoreVersion checks the OpenTofu version constraints of one file
// (config-loading.md §4): language { compatible_with { opentofu } } in any
// file, terraform { required_version } in .tofu and .tofu.json files only.
// For Terraform it only reports constraints that do not decode; they are
// checked for the whole module (checkTerraformCore).
func sniffCoreVersion(body hcl.Body, name string, core coreVersion) hcl.Diagnostics {
	if core.flavour == flavour.Terraform {
		_, diags := terraformCoreConstraints(body)
		return append(diags, terraformLanguageSettings(body, core.version)...)
	}
	current, err := goversion.NewVersion(core.version)
	if err != nil {
		current = goversion.Must(goversion.NewVersion(DefaultTofuVersion))
	}
	var diags hcl.Diagnostics
	root, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "terraform"}, {Type: "language"},
	}})
	if root == nil {
		return nil
	}
	tofuFile := strings.HasSuffix(name, ".tofu") || strings.HasSuffix(name, ".tofu.json")
	for _, block := range root.Blocks {
		switch block.Type {
		case "terraform":
			if !tofuFile {
				continue
			}
			c, _, _ := block.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "required_version"}}})
			if c == nil {
				continue
			}
			if attr, ok := c.Attributes["required_version"]; ok {
				diags = append(diags, checkCoreConstraint(attr, current, core.flavour)...)
			}
		case "language":
			c, _, _ := block.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "compatible_with"}}})
			if c == nil {
				continue
			}
			for _, cw := range c.Blocks {
				cc, _, _ := cw.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "opentofu"}}})
				if cc == nil {
					continue
				}
				if attr, ok := cc.Attributes["opentofu"]; ok {
					diags = append(diags, checkCoreConstraint(attr, current, core.flavour)...)
				}
			}
		}
	}
	return diags
}

func checkCoreConstraint(attr *hcl.Attribute, current *goversion.Version, f flavour.Flavour) hcl.Diagnostics {
	_, constraints, diags := decodeVersionConstraint(attr, attr.Name)
	if diags.HasErrors() || constraints == nil {
		return diags
	}
	for _, c := range constraints {
		if v := constraintVersion(c); v != nil && v.Prerelease() != "" {
			return append(diags, errorDiag("Invalid required_version constraint", fmt.Sprintf("Prerelease version constraints are not supported: %s. Remove the prerelease information from the constraint. Prerelease versions of %s will match constraints using their version core only.", v.Original(), f.Product()), attr.Range.Ptr()))
		}
	}
	core := goversion.Must(goversion.NewVersion(current.Core().String()))
	if !constraints.Check(core) {
		diags = append(diags, errorDiag(incompatibleModuleSummary, fmt.Sprintf("This module is not compatible with %[1]s v%[2]s.\n\nTo proceed, either choose another supported %[1]s version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.", f.Product(), current.String()), attr.Range.Ptr()))
	}
	return diags
}

// constraintVersion extracts the version operand of one constraint.
func constraintVersion(c *goversion.Constraint) *goversion.Version {
	s := strings.TrimSpace(c.String())
	s = strings.TrimLeft(s, "=!<>~ ")
	v, err := goversion.NewVersion(s)
	if err != nil {
		return nil
	}
	return v
}

var languageBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "edition"}, {Name: "experiments"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "compatible_with"}},
}

// decodeLanguageBlock validates a primary file's language block (C22-C25).
func decodeLanguageBlock(block *hcl.Block) hcl.Diagnostics {
	version := DefaultTofuVersion
	content, diags := bodyContent(block.Body, languageBlockSchema)
	if content == nil {
		return diags
	}
	if attr, ok := content.Attributes["edition"]; ok {
		kw := hcl.ExprAsKeyword(attr.Expr)
		switch {
		case kw == "":
			diags = append(diags, errorDiag("Invalid language edition", fmt.Sprintf(`The "edition" argument expects a bare language edition keyword. OpenTofu %s supports only language edition tofu2024, which is the default.`, version), attr.Expr.Range().Ptr()))
		case kw == "tofu2024":
		case strings.HasPrefix(kw, "TF"):
			diags = append(diags, errorDiag("Unsupported language edition", fmt.Sprintf(`OpenTofu v%s does not support language edition "tofu2024". This module may be intended for use with other software.`, version), attr.Expr.Range().Ptr()))
		default:
			rel := "different"
			if kw > "tofu2024" {
				rel = "newer"
			}
			diags = append(diags, errorDiag("Unsupported language edition", fmt.Sprintf("OpenTofu v%s only supports language edition tofu2024. This module requires a %s version of OpenTofu CLI.", version, rel), attr.Expr.Range().Ptr()))
		}
	}
	if attr, ok := content.Attributes["experiments"]; ok {
		diags = append(diags, decodeExperiments(attr)...)
	}
	var seen *hcl.Attribute
	for _, cw := range content.Blocks {
		attrs, _ := cw.Body.JustAttributes()
		attr, ok := attrs["opentofu"]
		if !ok {
			continue
		}
		if seen != nil {
			diags = append(diags, errorDiag("Duplicate compatible_with block", fmt.Sprintf("Each language block may have at most one compatible_with block referring to OpenTofu. The OpenTofu version constraint was already declared at %s.", seen.Range), block.DefRange.Ptr()))
			continue
		}
		seen = attr
		_, constraints, _ := decodeVersionConstraint(attr, attr.Name)
		if constraints != nil && constraints.Check(goversion.Must(goversion.NewVersion("1.11.0"))) {
			diags = append(diags, warningDiag("Ineffective version constraint", "The compatible_with block was added in OpenTofu v1.12.0, so any constraint specified this way should exclude earlier versions of OpenTofu, such as by including \">= 0.12.0\".\n\nIf your module must be compatible with earlier versions of OpenTofu, use the required_version argument in a \"terraform\" block in a file named with the .tofu suffix, which is an older way to specify OpenTofu version constraints.", attr.Range.Ptr()))
		}
	}
	return diags
}
