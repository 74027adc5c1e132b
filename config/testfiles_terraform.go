package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfdeps/tfdeps/flavour"
)

// The test language as Terraform v1.15 (a release build: experiments off)
// decodes it while loading a module with its tests
// (internal/configs/test_file.go, mock_provider.go): a file-level "test"
// block, variable blocks, run blocks with state_key, parallel,
// skip_cleanup and backend, mock providers with source and
// override_during, and override blocks whose values are not evaluated at
// load time. The parts shared with OpenTofu live in testfiles_decode.go.

// terraformTestFileSchema is the test file body once its "test" block has
// been read.
var terraformTestFileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "run", LabelNames: []string{"name"}},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "mock_provider", LabelNames: []string{"name"}},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "variables"},
		{Type: "override_resource"},
		{Type: "override_data"},
		{Type: "override_module"},
	},
}

var (
	terraformTestConfigSchema      = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "test"}}}
	terraformTestConfigBlockSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "parallel"}, {Name: "skip_cleanup"}}}
	terraformRunBlockSchema        = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{
			{Name: "command"}, {Name: "providers"}, {Name: "expect_failures"},
			{Name: "state_key"}, {Name: "parallel"}, {Name: "skip_cleanup"},
		},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "plan_options"}, {Type: "assert"}, {Type: "variables"}, {Type: "module"},
			{Type: "override_resource"}, {Type: "override_data"}, {Type: "override_module"},
			{Type: "backend", LabelNames: []string{"name"}},
		},
	}
	terraformMockProviderSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "source"}, {Name: "override_during"}}}
	terraformMockDataSchema     = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "mock_resource", LabelNames: []string{"type"}}, {Type: "mock_data", LabelNames: []string{"type"}},
		{Type: "override_resource"}, {Type: "override_data"},
	}}
	terraformMockResourceSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "defaults"}, {Name: "override_during"}}}
)

// terraformRun is what Terraform's file-level checks need of a run block.
type terraformRun struct {
	stateKey         string
	plan             bool
	backend          *hcl.Range
	skipCleanup      bool
	skipCleanupRange *hcl.Range
	nameRange        hcl.Range
}

// decodeTerraform reads a test file's body as Terraform does. It returns
// false when Terraform drops the whole file (its "test" block is invalid).
func (tf *TestFile) decodeTerraform(body hcl.Body) (bool, hcl.Diagnostics) {
	cfg, remain, diags := body.PartialContent(terraformTestConfigSchema)
	diags = append(diags, decodeTerraformTestConfig(cfg)...)
	if diags.HasErrors() {
		return false, diags
	}
	content, d := bodyContent(remain, terraformTestFileSchema)
	diags = append(diags, d...)
	if content == nil {
		return true, diags
	}
	f := &terraformFileState{
		runNames: map[string]hcl.Range{}, skipCleanups: map[string]string{}, backends: map[string]*TestRun{},
		providers: map[string]hcl.Range{}, varDefs: map[string]hcl.Range{}, overrides: overrideSet{},
	}
	for _, b := range content.Blocks {
		diags = append(diags, tf.decodeTerraformBlock(f, b)...)
	}
	return true, diags
}

// terraformFileState is what the decoder remembers between a file's blocks.
type terraformFileState struct {
	runs         []*TestRun
	runNames     map[string]hcl.Range
	skipCleanups map[string]string
	backends     map[string]*TestRun
	providers    map[string]hcl.Range
	varDefs      map[string]hcl.Range
	variables    map[string]*hcl.Attribute
	varsRange    *hcl.Range
	overrides    overrideSet
}

func (tf *TestFile) decodeTerraformBlock(f *terraformFileState, b *hcl.Block) hcl.Diagnostics {
	switch b.Type {
	case "run":
		run, diags := decodeTestRun(b, flavour.Terraform)
		if !diags.HasErrors() {
			tf.Runs = append(tf.Runs, run)
		}
		return append(diags, f.checkRun(run)...)
	case "variable":
		return f.variable(b)
	case "variables":
		return f.variablesBlock(b)
	case "provider":
		p, diags := decodeProviderBlockIn(b, flavour.Terraform, true)
		if p == nil {
			return diags
		}
		if d := f.provider(p.Key(), p.DeclRange, p.NameRange); d != nil {
			return append(diags, d)
		}
		tf.Providers = append(tf.Providers, p)
		return diags
	case "mock_provider":
		key, nameRange, source, diags := decodeTerraformMockProvider(b)
		if key == "" {
			return diags
		}
		if d := f.provider(key, b.DefRange, nameRange); d != nil {
			return append(diags, d)
		}
		if source != "" {
			tf.mockSources = append(tf.mockSources, mockSource{dir: source, decl: b.DefRange})
		}
		return diags
	default: // override_resource, override_data, override_module
		return f.overrides.add(decodeTerraformOverride(b))
	}
}

// provider records a provider or mock_provider block under key.
func (f *terraformFileState) provider(key string, decl, nameRange hcl.Range) *hcl.Diagnostic {
	if prev, ok := f.providers[key]; ok {
		return errorDiag("Duplicate provider block", fmt.Sprintf("A provider for %s is already defined at %s.", key, prev), decl.Ptr())
	}
	f.providers[key] = nameRange
	return nil
}

func (f *terraformFileState) variable(b *hcl.Block) hcl.Diagnostics {
	v, diags := decodeVariableBlock(b, false, flavour.Terraform)
	if diags.HasErrors() {
		return diags
	}
	if prev, ok := f.varDefs[v.Name]; ok {
		return append(diags, errorDiag(`Duplicate "variable" block names`, fmt.Sprintf("This test file already has a variable named %s defined at %s.", v.Name, prev), v.DeclRange.Ptr()))
	}
	f.varDefs[v.Name] = v.DeclRange
	if attr, ok := f.variables[v.Name]; ok {
		diags = append(diags, errorDiag(`Duplicate "variable" block names`, fmt.Sprintf("This test file already has a variable named %s defined at %s.", v.Name, attr.Expr.Range()), v.DeclRange.Ptr()))
	}
	return diags
}

func (f *terraformFileState) variablesBlock(b *hcl.Block) hcl.Diagnostics {
	if f.varsRange != nil {
		return hcl.Diagnostics{errorDiag(`Multiple "variables" blocks`, fmt.Sprintf("This test file already has a variables block defined at %s.", *f.varsRange), b.DefRange.Ptr())}
	}
	f.varsRange = b.DefRange.Ptr()
	f.variables = map[string]*hcl.Attribute{}
	attrs, diags := b.Body.JustAttributes()
	for _, attr := range sortedAttributes(attrs) {
		f.variables[attr.Name] = attr
		if prev, ok := f.varDefs[attr.Name]; ok {
			diags = append(diags, errorDiag(`Duplicate "variable" block names`, fmt.Sprintf("This test file already has a variable named %s defined at %s.", attr.Name, attr.Range), prev.Ptr()))
		}
	}
	return diags
}

// checkRun is Terraform's file-level checks of a run block: unique names,
// skip_cleanup shadowed by a later run, and backend blocks.
func (f *terraformFileState) checkRun(run *TestRun) hcl.Diagnostics {
	var diags hcl.Diagnostics
	earlier := f.runs
	f.runs = append(f.runs, run)
	if _, ok := f.runNames[run.Name]; ok {
		diags = append(diags, errorDiag(`Duplicate "run" block names`, fmt.Sprintf("This test file already has a run named %s block defined at %s.", run.Name, f.runNames[run.Name]), run.tf.nameRange.Ptr()))
	} else {
		f.runNames[run.Name] = run.DeclRange
	}
	t := run.tf
	if t.skipCleanup && t.skipCleanupRange != nil {
		if b, ok := f.backends[t.stateKey]; ok {
			diags = append(diags, warningDiag(`Duplicate "skip_cleanup" block`, fmt.Sprintf("The run %q has a skip_cleanup attribute set, but shares state with an earlier run %q that has a backend defined. The later run takes precedence, but the backend will still be used to manage this state.", run.Name, b.Name), t.skipCleanupRange))
		} else {
			if prev, ok := f.skipCleanups[t.stateKey]; ok {
				diags = append(diags, warningDiag(`Duplicate "skip_cleanup" block`, fmt.Sprintf("The run %q has a skip_cleanup attribute set, but shares state with an earlier run %q that also has skip_cleanup set. The later run takes precedence, and this attribute is ignored for the earlier run.", run.Name, prev), t.skipCleanupRange))
			}
			f.skipCleanups[t.stateKey] = run.Name
		}
	}
	if t.backend == nil {
		return diags
	}
	if b, ok := f.backends[t.stateKey]; ok {
		return append(diags, errorDiag("Duplicate backend blocks", fmt.Sprintf("The run %q already uses an internal state file that's loaded by a backend in the run %q. Please ensure that a backend block is only in the first apply run block for a given internal state file.", run.Name, b.Name), t.backend))
	}
	f.backends[t.stateKey] = run
	for _, prev := range earlier {
		if prev.tf.stateKey == t.stateKey && !prev.tf.plan {
			diags = append(diags, errorDiag("Invalid backend block", fmt.Sprintf("The run %q cannot load in state using a backend block, because internal state has already been created by an apply command in run %q. Backend blocks can only be present in the first apply command for a given internal state.", run.Name, prev.Name), t.backend))
			break
		}
	}
	return diags
}

// decodeTerraformTestConfig reads the file's "test" blocks.
func decodeTerraformTestConfig(content *hcl.BodyContent) hcl.Diagnostics {
	if content == nil || len(content.Blocks) == 0 {
		return nil
	}
	block := content.Blocks[0]
	var diags hcl.Diagnostics
	for _, other := range content.Blocks[1:] {
		diags = append(diags, errorDiag(`Multiple "test" blocks`, fmt.Sprintf(`This test file already has a "test" block defined at %s.`, block.DefRange), other.DefRange.Ptr()))
	}
	if diags.HasErrors() {
		return diags
	}
	c, d := bodyContent(block.Body, terraformTestConfigBlockSchema)
	diags = append(diags, d...)
	if c == nil {
		return diags
	}
	if attr, ok := c.Attributes["parallel"]; ok {
		var parallel bool
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &parallel)...)
	}
	if attr, ok := c.Attributes["skip_cleanup"]; ok {
		diags = append(diags, skipCleanupExperimental(attr))
		var skip bool
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &skip)...)
	}
	return diags
}

func skipCleanupExperimental(attr *hcl.Attribute) *hcl.Diagnostic {
	return errorDiag("Invalid attribute", "The skip_cleanup attribute is only available in experimental builds of Terraform.", attr.NameRange.Ptr())
}

// decodeTerraformRunBlock handles the run block contents only Terraform
// has: override blocks with duplicates checked, and backend blocks.
func (run *TestRun) decodeTerraformRunBlock(b *hcl.Block, overrides overrideSet) hcl.Diagnostics {
	if b.Type != "backend" {
		return overrides.add(decodeTerraformOverride(b))
	}
	diags := hcl.Diagnostics{errorDiag("Invalid block", "The backend block is only available within run blocks in experimental builds of Terraform.", b.DefRange.Ptr())}
	if b.Labels[0] == "remote" {
		return append(diags, errorDiag("Invalid backend block", fmt.Sprintf("The \"remote\" backend type cannot be used in the backend block in run %q at %s. Only state storage backends can be used in a test run.", run.Name, b.DefRange), b.DefRange.Ptr()))
	}
	if run.tf.backend != nil {
		return append(diags, errorDiag("Duplicate backend blocks", fmt.Sprintf("A backend block has already been defined inside the run %q at %s.", run.Name, *run.tf.backend), b.DefRange.Ptr()))
	}
	run.tf.backend = b.DefRange.Ptr()
	run.tf.skipCleanup = true
	return diags
}

// decodeTerraformRunAttributes reads the run arguments only Terraform has,
// after command, providers and expect_failures, in Terraform's order.
func (run *TestRun) decodeTerraformRunAttributes(content *hcl.BodyContent) hcl.Diagnostics {
	var diags hcl.Diagnostics
	t := run.tf
	if attr, ok := content.Attributes["state_key"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &t.stateKey)...)
	} else if run.moduleSourceAddr != "" {
		t.stateKey = run.moduleSourceAddr
	}
	if attr, ok := content.Attributes["parallel"]; ok {
		var parallel bool
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &parallel)...)
	}
	if t.plan && t.backend != nil {
		diags = append(diags, errorDiag("Invalid backend block", "A backend block can only be used in the first apply run block for a given internal state file. It cannot be included in a block to run a plan command.", t.backend))
	}
	if attr, ok := content.Attributes["skip_cleanup"]; ok {
		diags = append(diags, skipCleanupExperimental(attr))
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &t.skipCleanup)...)
		t.skipCleanupRange = attr.NameRange.Ptr()
	}
	if t.skipCleanupRange != nil && !t.skipCleanup && t.backend != nil {
		diags = append(diags, errorDiag("Cannot use `skip_cleanup=false` in a run block that contains a backend block", "Backend blocks are used in tests to allow reuse of long-lived resources. Due to this, cleanup behavior is implicitly skipped and backend blocks are incompatible with setting `skip_cleanup=false`", t.skipCleanupRange))
	}
	return diags
}

// decodeTerraformMockProvider reads a mock_provider block; it returns its
// key (NAME or NAME.ALIAS; "" when the name is not normalised) and the
// range of its name label.
func decodeTerraformMockProvider(block *hcl.Block) (string, hcl.Range, string, hcl.Diagnostics) {
	content, rest, diags := block.Body.PartialContent(terraformMockProviderSchema)
	name := block.Labels[0]
	nameDiags := checkProviderNameNormalized(name, block.DefRange)
	diags = append(diags, nameDiags...)
	if nameDiags.HasErrors() {
		return "", hcl.Range{}, "", diags
	}
	key := name
	if attr, ok := content.Attributes["alias"]; ok {
		var alias string
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &alias)...)
		if !hclsyntax.ValidIdentifier(alias) {
			// Terraform gives this error no source range.
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider configuration alias", Detail: "An alias must be a valid name. " + badIdentifierDetail})
		}
		if alias != "" {
			key += "." + alias
		}
	}
	diags = append(diags, checkOverrideDuring(content)...)
	_, d := decodeTerraformMockData(rest)
	diags = append(diags, d...)
	var source string
	if attr, ok := content.Attributes["source"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &source)...)
	}
	return key, block.LabelRanges[0], source, diags
}

// checkOverrideDuring checks an override_during argument: plan or apply.
func checkOverrideDuring(content *hcl.BodyContent) hcl.Diagnostics {
	attr, ok := content.Attributes["override_during"]
	if !ok {
		return nil
	}
	if kw := hcl.ExprAsKeyword(attr.Expr); kw == "plan" || kw == "apply" {
		return nil
	}
	return hcl.Diagnostics{errorDiag("Invalid override_during value", "The override_during attribute must be a value of plan or apply.", attr.Range.Ptr())}
}
