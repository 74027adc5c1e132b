package backend

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tfdeps/tfdeps/internal/regfile"
)

// maxOverrideFileSize bounds a -backend-config file read into memory.
const maxOverrideFileSize = 16 << 20

// overrideBody builds, from the -backend-config values in command-line
// order, the body that is merged over the backend block: each file is a
// body of its own, and each run of NAME=VALUE pairs between files one
// synthetic body, later bodies winning over earlier ones. A single empty
// value clears every override (an empty, non-nil body). nil means no
// -backend-config at all.
func overrideBody(values []string, s *Schema, o *Options) (hcl.Body, hcl.Diagnostics) {
	if len(values) == 0 {
		return nil, nil
	}
	if len(values) == 1 && values[0] == "" {
		return synthBody{filename: "-backend-config=''"}, nil
	}
	var ret hcl.Body
	var diags hcl.Diagnostics
	pending := map[string]cty.Value{}
	merge := func(b hcl.Body) {
		if ret == nil {
			ret = b
		} else {
			ret = mergeBody{base: ret, override: b}
		}
	}
	flush := func() {
		if len(pending) > 0 {
			merge(synthBody{filename: "-backend-config=...", values: pending})
			pending = map[string]cty.Value{}
		}
	}
	for _, v := range values {
		name, raw, isPair := strings.Cut(v, "=")
		if !isPair {
			body, fileDiags := loadOverrideFile(v, s, o)
			diags = append(diags, fileDiags...)
			if fileDiags.HasErrors() {
				continue
			}
			flush()
			merge(body)
			continue
		}
		a := s.Attributes[name]
		if a == nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid backend configuration argument",
				Detail:   fmt.Sprintf("The backend configuration argument %q given on the command line is not expected for the selected backend type.", name),
			})
			continue
		}
		val, valDiags := valueFromCLI(fmt.Sprintf("-backend-config=%q", v), raw, a.Type)
		diags = append(diags, valDiags...)
		if !valDiags.HasErrors() {
			pending[name] = val
		}
	}
	flush()
	return ret, diags
}

// valueFromCLI types a NAME=VALUE value: for an argument of a primitive
// type the text converts to it (so "true" is a bool and "10" a number);
// any other type reads the text as an HCL expression without variables.
func valueFromCLI(synthName, raw string, ty cty.Type) (cty.Value, hcl.Diagnostics) {
	if ty.IsPrimitiveType() {
		val, err := convert.Convert(cty.StringVal(raw), ty)
		if err != nil {
			return cty.DynamicVal, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid backend configuration value",
				Detail:   fmt.Sprintf("Invalid backend configuration argument %s: %s", synthName, err),
			}}
		}
		return val, nil
	}
	expr, diags := hclsyntax.ParseExpression([]byte(raw), synthName, hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	val, valDiags := expr.Value(nil)
	diags = append(diags, valDiags...)
	if valDiags.HasErrors() {
		return cty.DynamicVal, diags
	}
	return val, diags
}

// loadOverrideFile reads a -backend-config file (JSON when its name ends
// in .json, native syntax otherwise) and checks that it holds only the
// schema's arguments and block types.
func loadOverrideFile(name string, s *Schema, o *Options) (hcl.Body, hcl.Diagnostics) {
	path := name
	if o.Dir != "" && !filepath.IsAbs(path) {
		path = filepath.Join(o.Dir, path)
	}
	src, err := regfile.ReadFileMax(path, maxOverrideFileSize)
	if err != nil {
		detail := fmt.Sprintf("The file %q could not be read.", name)
		if notRegular := (*regfile.NotRegularError)(nil); errors.As(err, &notRegular) {
			detail = notRegular.Detail(fmt.Sprintf("The file %q", name))
		}
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read file",
			Detail:   detail,
		}}
	}
	parser := o.Parser
	if parser == nil {
		parser = hclparse.NewParser()
	}
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(name, ".json") {
		f, diags = parser.ParseJSON(src, name)
	} else {
		f, diags = parser.ParseHCL(src, name)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	if f == nil || f.Body == nil {
		return hcl.EmptyBody(), diags
	}
	_, contentDiags := f.Body.Content(s.headerSchema())
	diags = append(diags, contentDiags...)
	return f.Body, diags
}

// headerSchema is the shape a -backend-config file must have: the
// schema's argument names (none required) and its block types, a map
// block type taking one label.
func (s *Schema) headerSchema() *hcl.BodySchema {
	out := &hcl.BodySchema{}
	for _, name := range sortedKeys(s.Attributes) {
		out.Attributes = append(out.Attributes, hcl.AttributeSchema{Name: name})
	}
	for _, name := range sortedKeys(s.Blocks) {
		h := hcl.BlockHeaderSchema{Type: name}
		if s.Blocks[name].Nesting == NestingMap {
			h.LabelNames = []string{"key"}
		}
		out.Blocks = append(out.Blocks, h)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// mergeBody lays override over base: an argument of override replaces
// base's, and a block type present in override replaces all of base's
// blocks of that type. Arguments neither body's schema knows are not
// reported, as the products merge backend bodies.
type mergeBody struct {
	base, override hcl.Body
}

var _ hcl.Body = mergeBody{}

func (b mergeBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	content, _, diags := b.PartialContent(schema)
	return content, diags
}

func (b mergeBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	base, baseRest, diags := b.base.PartialContent(schema)
	over, overRest, overDiags := b.override.PartialContent(optionalSchema(schema))
	diags = append(diags, overDiags...)
	merged := &hcl.BodyContent{Attributes: hcl.Attributes{}, MissingItemRange: base.MissingItemRange}
	for name, a := range base.Attributes {
		merged.Attributes[name] = a
	}
	for name, a := range over.Attributes {
		merged.Attributes[name] = a
	}
	replaced := map[string]bool{}
	for _, blk := range over.Blocks {
		replaced[blk.Type] = true
	}
	for _, blk := range base.Blocks {
		if !replaced[blk.Type] {
			merged.Blocks = append(merged.Blocks, blk)
		}
	}
	merged.Blocks = append(merged.Blocks, over.Blocks...)
	return merged, mergeBody{base: baseRest, override: overRest}, diags
}

func (b mergeBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	ret, diags := b.base.JustAttributes()
	over, overDiags := b.override.JustAttributes()
	diags = append(diags, overDiags...)
	if ret == nil {
		ret = hcl.Attributes{}
	}
	for name, a := range over {
		ret[name] = a
	}
	return ret, diags
}

func (b mergeBody) MissingItemRange() hcl.Range { return b.base.MissingItemRange() }

// optionalSchema is schema with nothing required: an override may set
// any part of a body.
func optionalSchema(schema *hcl.BodySchema) *hcl.BodySchema {
	out := &hcl.BodySchema{Blocks: schema.Blocks}
	for _, a := range schema.Attributes {
		a.Required = false
		out.Attributes = append(out.Attributes, a)
	}
	return out
}

// synthBody is a body of literal arguments given on the command line.
type synthBody struct {
	filename string
	values   map[string]cty.Value
}

var _ hcl.Body = synthBody{}

func (b synthBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	content, rest, diags := b.PartialContent(schema)
	for _, name := range sortedKeys(rest.(synthBody).values) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported attribute",
			Detail:   fmt.Sprintf("An attribute named %q is not expected here.", name),
			Subject:  b.rng().Ptr(),
		})
	}
	return content, diags
}

func (b synthBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	content := &hcl.BodyContent{Attributes: hcl.Attributes{}, MissingItemRange: b.rng()}
	rest := map[string]cty.Value{}
	for name, v := range b.values {
		rest[name] = v
	}
	for _, a := range schema.Attributes {
		delete(rest, a.Name)
		v, ok := b.values[a.Name]
		if !ok {
			if a.Required {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Missing required attribute",
					Detail:   fmt.Sprintf("The attribute %q is required, but no definition was found.", a.Name),
					Subject:  b.rng().Ptr(),
				})
			}
			continue
		}
		content.Attributes[a.Name] = b.attribute(a.Name, v)
	}
	return content, synthBody{filename: b.filename, values: rest}, diags
}

func (b synthBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	ret := hcl.Attributes{}
	for name, v := range b.values {
		ret[name] = b.attribute(name, v)
	}
	return ret, nil
}

func (b synthBody) MissingItemRange() hcl.Range { return b.rng() }

func (b synthBody) attribute(name string, v cty.Value) *hcl.Attribute {
	r := b.rng()
	return &hcl.Attribute{Name: name, Expr: &hclsyntax.LiteralValueExpr{Val: v, SrcRange: r}, Range: r, NameRange: r}
}

func (b synthBody) rng() hcl.Range {
	return hcl.Range{Filename: b.filename, Start: hcl.Pos{Line: 1, Column: 1}, End: hcl.Pos{Line: 1, Column: 1}}
}
