package config

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfdeps/tfdeps/flavour"
)

// File is one decoded configuration file: its declarations as written,
// before duplicates are checked or overrides merged.
type File struct {
	Name     string
	Override bool
	HCL      *hcl.File
	// Index is the file's position in load order (primaries, then overrides).
	Index int

	Backends          []*Backend
	Clouds            []*Cloud
	ProviderConfigs   []*ProviderConfig
	ProviderMetas     []*ProviderMeta
	RequiredProviders []*requiredProvidersBlock
	Encryptions       []*Encryption

	Variables []*Variable
	Locals    []*Local
	Outputs   []*Output

	ModuleCalls        []*ModuleCall
	ManagedResources   []*Resource
	DataResources      []*Resource
	EphemeralResources []*Resource
	Moved              []*Moved
	Imports            []*Import
	Removed            []*Removed
	Checks             []*Check
	// Actions are the file's action blocks (Terraform flavour only).
	Actions []*Action

	// LocalsBlocks and TerraformBlocks are the Document blocks of the file's
	// locals and terraform blocks; Languages its language blocks.
	LocalsBlocks    []*Block
	TerraformBlocks []*Block
	// coreConstraints are the file's required_version arguments, read in
	// the Terraform flavour only (terraformModuleConstraints).
	coreConstraints []*hcl.Attribute
	Languages       []*Block

	// Diagnostics are this file's parse, core-version (config-loading.md
	// §4) and decode diagnostics, in that order.
	Diagnostics hcl.Diagnostics

	flavour flavour.Flavour
}

var configFileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "language"},
		{Type: "terraform"},
		{Type: "required_providers"},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "output", LabelNames: []string{"name"}},
		{Type: "module", LabelNames: []string{"name"}},
		{Type: "resource", LabelNames: []string{"type", "name"}},
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "ephemeral", LabelNames: []string{"type", "name"}},
		{Type: "moved"},
		{Type: "import"},
		{Type: "check", LabelNames: []string{"name"}},
		{Type: "removed"},
	},
}

const badIdentifierDetail = "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes."

// parseFile parses src as native HCL or, for a name ending in .json, HCL JSON.
// Input nested deeper than nesting.MaxDepth is refused before parsing (the
// parsers would exhaust the stack), as an empty file with that error.
func parseFile(name string, src []byte) (*hcl.File, hcl.Diagnostics) {
	if diags := checkNesting(name, src); diags != nil {
		return &hcl.File{Body: hcl.EmptyBody(), Bytes: src}, diags
	}
	if strings.HasSuffix(name, ".json") {
		return parseJSON(src, name)
	}
	return hclsyntax.ParseConfig(src, name, hcl.InitialPos)
}

// decodeFile decodes the top level of a parsed file (config-loading.md §2-3).
func decodeFile(f *hcl.File, name string, override bool, core coreVersion) *File {
	file := &File{Name: name, Override: override, HCL: f, flavour: core.flavour}
	if f == nil || f.Body == nil {
		return file
	}
	file.Diagnostics = append(file.Diagnostics, sniffCoreVersion(f.Body, name, core)...)
	content, diags := bodyContent(f.Body, fileSchemaFor(core.flavour))
	file.Diagnostics = append(file.Diagnostics, diags...)
	if content == nil {
		return file
	}
	for _, block := range content.Blocks {
		file.Diagnostics = append(file.Diagnostics, file.decodeBlock(block)...)
	}
	return file
}

func (file *File) decodeBlock(block *hcl.Block) hcl.Diagnostics {
	override := file.Override
	var diags hcl.Diagnostics
	switch block.Type {
	case "terraform":
		diags = file.decodeTerraformBlock(block)
	case "language":
		if override {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Language selections in override file",
				Detail:   `Language-related settings in "language" blocks are not allowed in override files. Place these settings in a normal configuration file.`,
				Subject:  block.DefRange.Ptr(),
			}}
		}
		file.Languages = append(file.Languages, newSyntaxBlock(block, languageShape))
		diags = decodeLanguageBlock(block)
	case "required_providers":
		diags = hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid required_providers block",
			Detail:   `A "required_providers" block must be nested inside a "terraform" block.`,
			Subject:  block.TypeRange.Ptr(),
		}}
	case "provider":
		p, d := decodeProviderBlock(block, file.flavour)
		diags = d
		if p != nil {
			file.ProviderConfigs = append(file.ProviderConfigs, p)
		}
	case "variable":
		v, d := decodeVariableBlock(block, override, file.flavour)
		diags = d
		if v != nil {
			file.Variables = append(file.Variables, v)
		}
	case "locals":
		syn := newSyntaxBlock(block, emptyShape)
		file.LocalsBlocks = append(file.LocalsBlocks, syn)
		locals, d := decodeLocalsBlock(block, syn)
		diags = d
		file.Locals = append(file.Locals, locals...)
	case "output":
		o, d := decodeOutputBlock(block, override, file.flavour)
		diags = d
		if o != nil {
			file.Outputs = append(file.Outputs, o)
		}
	case "module":
		mc, d := decodeModuleBlock(block, override, file.flavour)
		diags = d
		if mc != nil {
			file.ModuleCalls = append(file.ModuleCalls, mc)
		}
	case "resource":
		r, d := decodeResourceBlock(block, ManagedResourceMode, override, file.flavour)
		diags = d
		if r != nil {
			file.ManagedResources = append(file.ManagedResources, r)
		}
	case "data":
		r, d := decodeResourceBlock(block, DataResourceMode, override, file.flavour)
		diags = d
		if r != nil {
			file.DataResources = append(file.DataResources, r)
		}
	case "ephemeral":
		r, d := decodeResourceBlock(block, EphemeralResourceMode, override, file.flavour)
		diags = d
		if r != nil {
			file.EphemeralResources = append(file.EphemeralResources, r)
		}
	case "moved":
		m, d := decodeMovedBlock(block, file.flavour)
		diags = d
		if m != nil {
			file.Moved = append(file.Moved, m)
		}
	case "import":
		i, d := decodeImportBlock(block, file.flavour)
		diags = d
		if i != nil {
			file.Imports = append(file.Imports, i)
		}
	case "removed":
		r, d := decodeRemovedBlock(block, file.flavour)
		diags = d
		if r != nil {
			file.Removed = append(file.Removed, r)
		}
	case "action":
		a, d := decodeActionBlock(block)
		diags = d
		if a != nil {
			file.Actions = append(file.Actions, a)
		}
	case "check":
		if override {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Can't override check blocks",
				Detail:   "Override files cannot override check blocks.",
				Subject:  block.DefRange.Ptr(),
			}}
		}
		c, d := decodeCheckBlock(block, file.flavour)
		diags = d
		if c != nil {
			file.Checks = append(file.Checks, c)
		}
	}
	return diags
}

// cantOverride is error C9 for a nested block an override file may not hold.
func cantOverride(block *hcl.Block) *hcl.Diagnostic {
	return errorDiag(fmt.Sprintf("Can't override %s blocks", block.Type), fmt.Sprintf("Override files cannot override %q blocks.", block.Type), block.DefRange.Ptr())
}

// sourceOnly returns what a loaded module keeps of a parsed file once its
// declarations are decoded: the bytes, for diagnostics' snippets and the
// renderer's expression text, and navigation ("in resource "a" "b"") that
// parses the file again the first time a diagnostic asks for it. The syntax
// tree itself is dropped: the decoded declarations hold the expressions
// they need, and the tree's blocks and bodies were most of a loaded
// configuration's memory (tofu keeps them; it uses about as much memory
// again).
func sourceOnly(f *hcl.File, name string) *hcl.File {
	if f == nil || f.Nav == nil {
		return f
	}
	return &hcl.File{
		Body:  missingItemBody{Body: hcl.EmptyBody(), missing: f.Body.MissingItemRange()},
		Bytes: f.Bytes,
		Nav:   &lazyNav{name: name, src: f.Bytes},
	}
}

// missingItemBody is an empty body that keeps the parsed body's missing
// item range (hcled.ContextDefRange falls back to it).
type missingItemBody struct {
	hcl.Body
	missing hcl.Range
}

func (b missingItemBody) MissingItemRange() hcl.Range { return b.missing }

// lazyNav answers hcled's navigation questions by parsing the file again,
// once, on first use. In native syntax it finds the enclosing top-level
// block by binary search, where hclsyntax's navigation tries every block
// (many diagnostics in a large file were quadratic); the answers are the
// same.
type lazyNav struct {
	name string
	src  []byte
	once sync.Once
	nav  any
	// blocks are the top-level blocks of a native file, in source order.
	blocks hclsyntax.Blocks
}

func (n *lazyNav) parsed() any {
	n.once.Do(func() {
		if f, _ := parseFile(n.name, n.src); f != nil {
			n.nav = f.Nav
			if body, ok := f.Body.(*hclsyntax.Body); ok {
				n.blocks = body.Blocks
			}
		}
	})
	return n.nav
}

// block returns the top-level block of a native file holding offset.
func (n *lazyNav) block(offset int) (*hclsyntax.Block, bool) {
	i := sort.Search(len(n.blocks), func(i int) bool { return n.blocks[i].Range().End.Byte > offset })
	if i < len(n.blocks) && n.blocks[i].Range().ContainsOffset(offset) {
		return n.blocks[i], true
	}
	return nil, false
}

// ContextString is hcled.ContextString on the parsed file.
func (n *lazyNav) ContextString(offset int) string {
	nav := n.parsed()
	if n.blocks != nil {
		b, ok := n.block(offset)
		if !ok {
			return ""
		}
		var out strings.Builder
		out.WriteString(b.Type)
		for _, l := range b.Labels {
			fmt.Fprintf(&out, " %q", l)
		}
		return out.String()
	}
	if c, ok := nav.(interface{ ContextString(int) string }); ok {
		return c.ContextString(offset)
	}
	return ""
}

// ContextDefRange is hcled.ContextDefRange on the parsed file (an empty
// range when it has none).
func (n *lazyNav) ContextDefRange(offset int) hcl.Range {
	nav := n.parsed()
	if n.blocks != nil {
		if b, ok := n.block(offset); ok {
			return b.DefRange()
		}
		return hcl.Range{}
	}
	if c, ok := nav.(interface{ ContextDefRange(int) hcl.Range }); ok {
		return c.ContextDefRange(offset)
	}
	return hcl.Range{}
}
