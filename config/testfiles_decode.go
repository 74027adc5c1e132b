package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleaddr"
)

// The test language as OpenTofu v1.12.6 decodes it while loading a module
// with its tests (internal/configs/test_file.go): the diagnostics are
// OpenTofu's; only what provider requirements need is kept.

var testFileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "run", LabelNames: []string{"name"}},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "variables"},
		{Type: "override_resource"},
		{Type: "override_data"},
		{Type: "override_module"},
		{Type: "mock_provider", LabelNames: []string{"name"}},
	},
}

var testRunBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "command"}, {Name: "providers"}, {Name: "expect_failures"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "plan_options"}, {Type: "assert"}, {Type: "variables"}, {Type: "module"},
		{Type: "override_resource"}, {Type: "override_data"}, {Type: "override_module"},
	},
}

var (
	testRunOptionsSchema   = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "mode"}, {Name: "refresh"}, {Name: "replace"}, {Name: "target"}}}
	testRunModuleSchema    = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "source"}, {Name: "version"}}}
	overrideResourceSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "target", Required: true}, {Name: "values"}}}
	overrideModuleSchema   = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "target", Required: true}, {Name: "outputs"}}}
	mockProviderSchema     = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "for_each"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "mock_resource", LabelNames: []string{"type"}}, {Type: "mock_data", LabelNames: []string{"type"}},
			{Type: "override_resource"}, {Type: "override_data"},
		},
	}
	mockResourceSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "defaults"}}}
)

// decode reads a test file's body.
func (tf *TestFile) decode(body hcl.Body) hcl.Diagnostics {
	content, diags := bodyContent(body, testFileSchema)
	if content == nil {
		return diags
	}
	var variables *hcl.Block
	mocks := map[string]bool{}
	for _, b := range content.Blocks {
		switch b.Type {
		case "run":
			run, runDiags := decodeTestRun(b, flavour.OpenTofu)
			diags = append(diags, runDiags...)
			if !runDiags.HasErrors() {
				tf.Runs = append(tf.Runs, run)
			}
		case "variables":
			if variables != nil {
				diags = append(diags, errorDiag(`Multiple "variables" blocks`, fmt.Sprintf("This test file already has a variables block defined at %s.", variables.DefRange), b.DefRange.Ptr()))
				continue
			}
			variables = b
			_, varDiags := b.Body.JustAttributes()
			diags = append(diags, varDiags...)
		case "provider":
			p, pDiags := decodeProviderBlock(b, flavour.OpenTofu) // test files are decoded as OpenTofu does in both flavours
			diags = append(diags, pDiags...)
			if p != nil {
				tf.Providers = append(tf.Providers, p)
			}
		case "override_resource", "override_data":
			_, d := decodeOverrideResource(b)
			diags = append(diags, d...)
		case "override_module":
			diags = append(diags, decodeOverrideModule(b)...)
		case "mock_provider":
			key, mockDiags := decodeMockProvider(b)
			diags = append(diags, mockDiags...)
			if mockDiags.HasErrors() {
				continue
			}
			if mocks[key] {
				diags = append(diags, errorDiag("Duplicated `mock_provider` block", fmt.Sprintf("It is not allowed to have multiple `mock_provider` blocks with the same address: `%v`.", key), b.DefRange.Ptr()))
				continue
			}
			mocks[key] = true
		}
	}
	return diags
}

// decodeTestRun reads a run block as flavour f does. Terraform's run
// blocks have more arguments and blocks (testfiles_terraform.go).
func decodeTestRun(block *hcl.Block, f flavour.Flavour) (*TestRun, hcl.Diagnostics) {
	schema, overrides := testRunBlockSchema, overrideSet(nil)
	run := &TestRun{Name: block.Labels[0], DeclRange: block.DefRange}
	if f == flavour.Terraform {
		schema, overrides = terraformRunBlockSchema, overrideSet{}
		run.tf = &terraformRun{nameRange: block.LabelRanges[0]}
	}
	content, diags := bodyContent(block.Body, schema)
	if !hclsyntax.ValidIdentifier(run.Name) {
		diags = append(diags, errorDiag("Invalid run block name", badIdentifierDetail, &block.LabelRanges[0]))
	}
	if content == nil {
		return run, diags
	}
	var options, variables, module *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "assert":
			_, d := decodeCheckRuleBlock(b, false)
			diags = append(diags, d...)
		case "plan_options":
			if options != nil {
				diags = append(diags, errorDiag(`Multiple "plan_options" blocks`, fmt.Sprintf("This run block already has a plan_options block defined at %s.", options.DefRange), b.DefRange.Ptr()))
				continue
			}
			d := decodeTestRunOptions(b, f)
			diags = append(diags, d...)
			if !d.HasErrors() {
				options = b
			}
		case "variables":
			if variables != nil {
				diags = append(diags, errorDiag(`Multiple "variables" blocks`, fmt.Sprintf("This run block already has a variables block defined at %s.", variables.DefRange), b.DefRange.Ptr()))
				continue
			}
			variables = b
			_, d := b.Body.JustAttributes()
			diags = append(diags, d...)
		case "module":
			if module != nil {
				diags = append(diags, errorDiag(`Multiple "module" blocks`, fmt.Sprintf("This run block already has a module block defined at %s.", module.DefRange), b.DefRange.Ptr()))
			}
			m, d := decodeTestRunModule(b, f)
			diags = append(diags, d...)
			if !d.HasErrors() {
				module = b
				run.ModuleSource, run.ModuleSourceRange = m.source, m.sourceRange
				run.moduleSourceAddr = m.addr
				run.ModuleRange = b.DefRange
				run.ModuleHasVersion, run.ModuleVersion = m.version.Set, m.version.Required
			}
		case "override_resource", "override_data", "override_module", "backend":
			if f == flavour.Terraform {
				diags = append(diags, run.decodeTerraformRunBlock(b, overrides)...)
				continue
			}
			if b.Type == "override_module" {
				diags = append(diags, decodeOverrideModule(b)...)
				continue
			}
			_, d := decodeOverrideResource(b)
			diags = append(diags, d...)
		}
	}
	if attr, ok := content.Attributes["command"]; ok {
		kw := hcl.ExprAsKeyword(attr.Expr)
		if kw != "apply" && kw != "plan" {
			diags = append(diags, errorDiag(`Invalid "command" keyword`, `The "command" argument requires one of the following keywords without quotes: apply or plan.`, attr.Expr.Range().Ptr()))
		}
		if run.tf != nil {
			run.tf.plan = kw == "plan"
		}
	}
	if attr, ok := content.Attributes["providers"]; ok {
		providers, d := decodePassedProviderConfigs(attr, f)
		diags = append(diags, d...)
		run.Providers = providers
	}
	if attr, ok := content.Attributes["expect_failures"]; ok {
		_, d := decodeDependsOn(attr, f)
		diags = append(diags, d...)
	}
	if f == flavour.Terraform {
		diags = append(diags, run.decodeTerraformRunAttributes(content)...)
	}
	return run, diags
}

// testRunModule is a run block's module block.
type testRunModule struct {
	source      string
	sourceRange hcl.Range
	version     VersionConstraint // Set when the argument is there
	addr        string            // the canonical source address
}

// decodeTestRunModule reads a run block's module block: its source, which
// must parse as a module source address (a registry address when a version
// is set), and its version. Terraform accepts only local and registry
// sources here.
func decodeTestRunModule(block *hcl.Block, f flavour.Flavour) (testRunModule, hcl.Diagnostics) {
	var m testRunModule
	content, diags := bodyContent(block.Body, testRunModuleSchema)
	if content == nil {
		return m, diags
	}
	if attr, ok := content.Attributes["version"]; ok {
		vc, _, d := decodeVersionConstraint(attr, attr.Name)
		diags = append(diags, d...)
		m.version = VersionConstraint{Set: true, Required: vc.Required}
	}
	attr, ok := content.Attributes["source"]
	if !ok {
		return m, append(diags, errorDiag(`Missing "source" attribute for module block`, "You must specify a source attribute when executing alternate modules during test executions.", block.DefRange.Ptr()))
	}
	m.sourceRange = attr.Range
	d := gohcl.DecodeExpression(attr.Expr, nil, &m.source)
	diags = append(diags, d...)
	if d.HasErrors() {
		return m, diags
	}
	src, err := parseCallSource(m.source, m.version.Set, f)
	if err != nil {
		return m, append(diags, sourceDiagnostic(err, m.version.Set, attr.Range.Ptr(), f))
	}
	if _, remote := src.(moduleaddr.Remote); remote && f == flavour.Terraform {
		diags = append(diags, errorDiag("Invalid module source address", "Only local or registry module sources are currently supported from within test run blocks.", attr.Range.Ptr()))
	}
	m.addr = src.String()
	return m, diags
}

func decodeTestRunOptions(block *hcl.Block, f flavour.Flavour) hcl.Diagnostics {
	content, diags := bodyContent(block.Body, testRunOptionsSchema)
	if content == nil {
		return diags
	}
	refreshOnly := false
	if attr, ok := content.Attributes["mode"]; ok {
		switch hcl.ExprAsKeyword(attr.Expr) {
		case "refresh-only":
			refreshOnly = true
		case "normal":
		default:
			diags = append(diags, errorDiag(`Invalid "mode" keyword`, `The "mode" argument requires one of the following keywords without quotes: normal or refresh-only`, attr.Expr.Range().Ptr()))
		}
	}
	refresh := true
	if attr, ok := content.Attributes["refresh"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &refresh)...)
	}
	for _, name := range []string{"replace", "target"} {
		if attr, ok := content.Attributes[name]; ok {
			_, d := decodeDependsOn(attr, f)
			diags = append(diags, d...)
		}
	}
	if !refresh && refreshOnly {
		diags = append(diags, errorDiag("Incompatible plan options", `The "refresh" option cannot be set to false when running a test in "refresh-only" mode.`, content.Attributes["refresh"].Range.Ptr()))
	}
	return diags
}

// decodeOverrideResource reads override_resource and override_data blocks;
// it returns the target address as text ("" when invalid).
func decodeOverrideResource(block *hcl.Block) (string, hcl.Diagnostics) {
	content, diags := bodyContent(block.Body, overrideResourceSchema)
	var target string
	if attr, ok := content.Attributes["target"]; ok {
		tr, trDiags := hcl.AbsTraversalForExpr(attr.Expr)
		diags = append(diags, trDiags...)
		if !trDiags.HasErrors() {
			addr, d := parseConfigResource(tr)
			diags = append(diags, d...)
			if !d.HasErrors() {
				target = addr
			}
		}
	}
	if attr, ok := content.Attributes["values"]; ok {
		diags = append(diags, objectWithoutVariables(attr)...)
	}
	return target, diags
}

func decodeOverrideModule(block *hcl.Block) hcl.Diagnostics {
	content, diags := bodyContent(block.Body, overrideModuleSchema)
	if attr, ok := content.Attributes["target"]; ok {
		tr, trDiags := hcl.AbsTraversalForExpr(attr.Expr)
		diags = append(diags, trDiags...)
		if !trDiags.HasErrors() {
			_, d := parseModuleAddr(tr)
			diags = append(diags, d...)
		}
	}
	if attr, ok := content.Attributes["outputs"]; ok {
		diags = append(diags, objectWithoutVariables(attr)...)
	}
	return diags
}

// decodeMockProvider reads a mock_provider block; it returns its key (NAME
// or NAME.ALIAS).
func decodeMockProvider(block *hcl.Block) (string, hcl.Diagnostics) {
	content, diags := bodyContent(block.Body, mockProviderSchema)
	name := block.Labels[0]
	nameDiags := checkProviderNameNormalized(name, block.DefRange)
	diags = append(diags, nameDiags...)
	if nameDiags.HasErrors() {
		return "", diags
	}
	key := name
	var alias string
	if attr, ok := content.Attributes["alias"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &alias)...)
		if !hclsyntax.ValidIdentifier(alias) {
			diags = append(diags, errorDiag("Invalid mock provider configuration alias", "An alias must be a valid name. "+badIdentifierDetail, attr.Expr.Range().Ptr()))
		}
		if alias != "" {
			key += "." + alias
		}
	}
	if attr, ok := content.Attributes["for_each"]; ok && alias == "" {
		diags = append(diags, errorDiag(`Alias required when using "for_each"`, `The for_each argument is allowed only for provider configurations with an alias.`, attr.Expr.Range().Ptr()))
	}
	mocked := map[string]bool{}
	overridden := map[string]bool{}
	// Duplicate mocks are reported first, then duplicate overrides.
	var dupMocks, dupOverrides hcl.Diagnostics
	for _, b := range content.Blocks {
		switch b.Type {
		case "mock_resource", "mock_data":
			mc, d := bodyContent(b.Body, mockResourceSchema)
			diags = append(diags, d...)
			if attr, ok := mc.Attributes["defaults"]; ok {
				objDiags := objectWithoutVariables(attr)
				d = append(d, objDiags...)
				diags = append(diags, objDiags...)
			}
			if d.HasErrors() {
				continue
			}
			if k := b.Type + "." + b.Labels[0]; mocked[k] {
				dupMocks = append(dupMocks, errorDiag(fmt.Sprintf("Duplicated `%v` block", b.Type), fmt.Sprintf("`%v.%v` is already defined in `mock_provider` block.", b.Type, b.Labels[0]), block.DefRange.Ptr()))
			} else {
				mocked[k] = true
			}
		case "override_resource", "override_data":
			target, d := decodeOverrideResource(b)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			if overridden[target] {
				dupOverrides = append(dupOverrides, errorDiag(fmt.Sprintf("Duplicated `%v` block", b.Type), fmt.Sprintf("`%v` with target `%v` is already defined in `mock_provider` block.", b.Type, target), block.DefRange.Ptr()))
			} else {
				overridden[target] = true
			}
		}
	}
	return key, append(append(diags, dupMocks...), dupOverrides...)
}

// objectWithoutVariables requires attr to be a constant object.
func objectWithoutVariables(attr *hcl.Attribute) hcl.Diagnostics {
	val, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return diags
	}
	if !val.Type().IsObjectType() {
		return append(diags, errorDiag("Object expected", fmt.Sprintf("The attribute `%v` must be an object.", attr.Name), attr.Range.Ptr()))
	}
	return diags
}
