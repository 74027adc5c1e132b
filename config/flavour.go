package config

import (
	"fmt"
	"strings"

	goversion "github.com/hashicorp/go-version"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// What the flavour (WithFlavour) changes in this package, for Terraform:
//
//   - only .tf and .tf.json files are configuration and only .tftest.hcl and
//     .tftest.json are test files; .tofu, .tofu.json and .tofutest.* files
//     are ignored (so they never shadow a .tf file);
//   - a "language" block is an unsupported block type;
//   - required_version is read from the terraform blocks of every file, an
//     override file's value replaces the others, and loading does not check
//     it: init and get do, with Module.CheckTerraformCore;
//   - a provider source address of one or two parts, and the provider a
//     local name implies, are on registry.terraform.io;
//   - the language is Terraform v1.15's where it differs from OpenTofu's,
//     with Terraform's texts: backend and cloud block duplicates and
//     conflicts (state_storage.go; a state_store block is unsupported),
//     provider blocks (for_each is reserved), a required_providers block
//     that is not only attributes (dropped), import blocks (duplicates,
//     id/identity, managed targets only), resource lifecycle blocks (no
//     enabled or destroy; action_trigger), module blocks (lifecycle
//     reserved; ignore_nested_deprecations), removed blocks, override
//     files (their removed blocks and ephemeral resources are ignored),
//     action blocks and actions in depends_on (action_terraform.go),
//     output type constraints, const variables that may be neither
//     sensitive nor ephemeral, and JSON references that are not strings;
//   - with WithRootVariableValues, the root module's variable values are
//     read as terraform reads them before it builds the tree
//     (variable_values_terraform.go);
//   - test files are read with Terraform v1.15's schema and texts
//     (testfiles_terraform*.go): a "test" block, variable blocks, run
//     blocks with state_key, parallel, skip_cleanup and backend (errors of
//     a release build), mock providers with source directories, and
//     override targets as Terraform parses them; a file with an invalid
//     "test" block is dropped, as Terraform drops it;
//   - texts name the flavour's product and command (Terraform, "terraform
//     init") where OpenTofu's name OpenTofu and "tofu init"; the texts of
//     the language block, which only OpenTofu reads, stay OpenTofu's. A
//     text is never reworded after it is made: what it quotes from the
//     configuration is printed as written.

// WithFlavour loads the directory as flavour f does (default OpenTofu).
func WithFlavour(f flavour.Flavour) Option { return func(o *options) { o.flavour = f } }

// FlavourOf is the flavour opts load as (the last WithFlavour; OpenTofu
// when there is none), for callers that word their own texts alike.
func FlavourOf(opts ...Option) flavour.Flavour { return newOptions(opts).flavour }

// coreVersion is the emulated product and version a file is decoded for.
type coreVersion struct {
	version string
	flavour flavour.Flavour
}

func (o options) core() coreVersion { return coreVersion{version: o.tofuVersion, flavour: o.flavour} }

// flavourExt is fileExt for flavour f: Terraform does not recognise the
// .tofu family.
func flavourExt(f flavour.Flavour, name string) (string, fileKind) {
	ext, kind := fileExt(name)
	if f == flavour.Terraform && strings.Contains(ext, "tofu") {
		return "", kindNone
	}
	return ext, kind
}

// terraformFileSchema is configFileSchema without the language block,
// which Terraform does not know, and with Terraform's action blocks
// (action_terraform.go).
var terraformFileSchema = func() *hcl.BodySchema {
	s := &hcl.BodySchema{}
	for _, b := range configFileSchema.Blocks {
		if b.Type != "language" {
			s.Blocks = append(s.Blocks, b)
		}
	}
	s.Blocks = append(s.Blocks, hcl.BlockHeaderSchema{Type: "action", LabelNames: []string{"type", "name"}})
	return s
}()

func fileSchemaFor(f flavour.Flavour) *hcl.BodySchema {
	if f == flavour.Terraform {
		return terraformFileSchema
	}
	return configFileSchema
}

// unsupportedCoreSummary is Terraform's error for a required_version the
// emulated version does not meet.
const unsupportedCoreSummary = "Unsupported Terraform Core version"

// terraformCoreConstraints reads the required_version arguments of a file's
// terraform blocks, as Terraform does for every configuration file.
func terraformCoreConstraints(body hcl.Body) ([]*hcl.Attribute, hcl.Diagnostics) {
	root, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "terraform"}}})
	if root == nil {
		return nil, nil
	}
	var attrs []*hcl.Attribute
	var diags hcl.Diagnostics
	for _, block := range root.Blocks {
		c, _, _ := block.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "required_version"}}})
		if c == nil {
			continue
		}
		if attr, ok := c.Attributes["required_version"]; ok {
			_, _, d := decodeVersionConstraint(attr, attr.Name)
			diags = append(diags, d...)
			if !d.HasErrors() {
				attrs = append(attrs, attr)
			}
		}
	}
	return attrs, diags
}

// terraformModuleConstraints are a module's required_version arguments as
// Terraform merges them: those of every primary file, replaced by those of
// each override file that has any.
func terraformModuleConstraints(files []*File, numPrimary int) []*hcl.Attribute {
	var attrs []*hcl.Attribute
	for i, f := range files {
		a := f.coreConstraints
		if i >= numPrimary && len(a) > 0 {
			attrs = nil
		}
		attrs = append(attrs, a...)
	}
	return attrs
}

// CheckTerraformCore checks the module's required_version constraints
// against the emulated Terraform version as "terraform init" and
// "terraform get" do (other commands do not). path and source name a child
// module in the message (both "" for the root module: "This
// configuration"). It returns nothing for a module not loaded with the
// Terraform flavour.
func (m *Module) CheckTerraformCore(version, path, source string) hcl.Diagnostics {
	attrs := m.coreConstraints
	current, err := goversion.NewVersion(version)
	if err != nil {
		current = goversion.Must(goversion.NewVersion(flavour.DefaultTerraformVersion))
	}
	var diags hcl.Diagnostics
	for _, attr := range attrs {
		_, constraints, _ := decodeVersionConstraint(attr, attr.Name)
		var pre hcl.Diagnostics
		for _, c := range constraints {
			if v := constraintVersion(c); v != nil && v.Prerelease() != "" {
				pre = append(pre, errorDiag("Invalid required_version constraint", fmt.Sprintf("Prerelease version constraints are not supported: %s. Remove the prerelease information from the constraint. Prerelease versions of terraform will match constraints using their version core only.", c), attr.Range.Ptr()))
			}
		}
		if len(pre) > 0 {
			diags = append(diags, pre...)
			continue
		}
		if !constraints.Check(current) {
			subject := "This configuration"
			if path != "" {
				subject = fmt.Sprintf("Module %s (from %s)", path, source)
			}
			diags = append(diags, errorDiag(unsupportedCoreSummary, fmt.Sprintf("%s does not support Terraform version %s. To proceed, either choose another supported Terraform version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.", subject, current), attr.Range.Ptr()))
		}
	}
	return diags
}

// terraformBlockSchemaFor is the schema of a terraform block: Terraform has
// state_store where OpenTofu has encryption.
func terraformBlockSchemaFor(f flavour.Flavour) *hcl.BodySchema {
	if f != flavour.Terraform {
		return terraformBlockSchema
	}
	return terraformTerraformBlockSchema
}

var terraformTerraformBlockSchema = func() *hcl.BodySchema {
	s := &hcl.BodySchema{Attributes: terraformBlockSchema.Attributes}
	for _, b := range terraformBlockSchema.Blocks {
		if b.Type != "encryption" {
			s.Blocks = append(s.Blocks, b)
		}
	}
	s.Blocks = append(s.Blocks, hcl.BlockHeaderSchema{Type: "state_store", LabelNames: []string{"type"}})
	return s
}()

// terraformLanguageSettings checks the language and experiments arguments
// of a file's terraform blocks as a Terraform release does: the only
// language edition is TF2021, and experiments are for alpha releases only.
// version is the emulated Terraform version.
func terraformLanguageSettings(body hcl.Body, version string) hcl.Diagnostics {
	root, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "terraform"}}})
	if root == nil {
		return nil
	}
	const edition = "TF2021"
	var diags hcl.Diagnostics
	for _, block := range root.Blocks {
		c, _, d := block.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "language"}, {Name: "experiments"}}})
		diags = append(diags, d...)
		if c == nil {
			continue
		}
		if attr, ok := c.Attributes["language"]; ok {
			switch kw := hcl.ExprAsKeyword(attr.Expr); {
			case kw == "":
				diags = append(diags, errorDiag("Invalid language edition", fmt.Sprintf("The language argument expects a bare language edition keyword. Terraform %s supports only language edition %s, which is the default.", version, edition), attr.Expr.Range().Ptr()))
			case kw != edition:
				rel := "different"
				if kw > edition {
					rel = "newer"
				}
				diags = append(diags, errorDiag("Unsupported language edition", fmt.Sprintf("Terraform v%s only supports language edition %s. This module requires a %s version of Terraform CLI.", version, edition, rel), attr.Expr.Range().Ptr()))
			}
		}
		if attr, ok := c.Attributes["experiments"]; ok {
			diags = append(diags, errorDiag("Module uses experimental features", "Experimental features are intended only for gathering early feedback on new language designs, and so are available only in alpha releases of Terraform.", attr.NameRange.Ptr()))
		}
	}
	return diags
}
