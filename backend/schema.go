package backend

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfdeps/tfdeps/flavour"
)

// Schema is the configuration schema of one backend type: the arguments
// and nested blocks its block accepts.
type Schema struct {
	Attributes map[string]*Attribute
	Blocks     map[string]*NestedBlock
}

// Attribute is one argument of a backend's schema.
type Attribute struct {
	// Type is the type an argument's value converts to; an object type
	// may mark attributes optional (arguments whose value is an object
	// of nested arguments, such as s3's endpoints).
	Type cty.Type
	// Required arguments must have a value once -backend-config has been
	// merged in; the block itself may leave them out.
	Required   bool
	Sensitive  bool
	Deprecated bool
}

// Nesting is how a nested block type repeats.
type Nesting int

const (
	// NestingSingle is at most one block, an object (null when absent).
	NestingSingle Nesting = iota + 1
	// NestingGroup is at most one block, an object with all its
	// attributes null when absent.
	NestingGroup
	// NestingList is any number of blocks, a list of objects.
	NestingList
	// NestingSet is any number of blocks, a set of objects.
	NestingSet
	// NestingMap is blocks with one label each, a map of objects.
	NestingMap
)

// NestedBlock is one nested block type of a backend's schema.
type NestedBlock struct {
	Nesting  Nesting
	MinItems int
	MaxItems int
	Schema
}

//go:embed schemas/*.json
var schemaFiles embed.FS

// catalogue holds each flavour's backend schemas, read once from the
// embedded data files.
type catalogue struct {
	once    sync.Once
	file    string
	schemas map[string]*Schema
	err     error
}

var catalogues = map[flavour.Flavour]*catalogue{
	flavour.OpenTofu:  {file: "schemas/opentofu.json"},
	flavour.Terraform: {file: "schemas/terraform.json"},
}

func (c *catalogue) load() (map[string]*Schema, error) {
	c.once.Do(func() {
		src, err := schemaFiles.ReadFile(c.file)
		if err != nil {
			c.err = err
			return
		}
		c.schemas, c.err = parseSchemas(src)
	})
	return c.schemas, c.err
}

// Lookup returns the configuration schema of the backend type typ as the
// flavour builds it in; "cloud" is the schema of the cloud block. The
// schemas are data read from the products' source code and checked
// against their binaries.
func Lookup(f flavour.Flavour, typ string) (*Schema, bool) {
	c, ok := catalogues[f]
	if !ok {
		return nil, false
	}
	schemas, err := c.load()
	if err != nil {
		// The embedded data is checked by the tests; a broken build is
		// the only way here.
		panic(fmt.Sprintf("backend: embedded schema data %s: %v", c.file, err))
	}
	s, ok := schemas[typ]
	return s, ok
}

// Types lists the backend types the flavour builds in, sorted, "cloud"
// included.
func Types(f flavour.Flavour) []string {
	var out []string
	if c, ok := catalogues[f]; ok {
		schemas, _ := c.load()
		for name := range schemas {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// ImpliedType is the type of a configuration value of the schema: an
// object with an attribute for every argument and nested block type.
func (s *Schema) ImpliedType() cty.Type {
	atys := make(map[string]cty.Type, len(s.Attributes)+len(s.Blocks))
	for name, a := range s.Attributes {
		atys[name] = a.Type.WithoutOptionalAttributesDeep()
	}
	for name, b := range s.Blocks {
		atys[name] = b.impliedType()
	}
	return cty.Object(atys)
}

func (b *NestedBlock) impliedType() cty.Type {
	ety := b.Schema.ImpliedType()
	switch b.Nesting {
	case NestingList:
		if ety.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.List(ety)
	case NestingSet:
		return cty.Set(ety)
	case NestingMap:
		if ety.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.Map(ety)
	}
	return ety
}

// decoderSpec is the hcldec specification that decodes a block body into
// a value of the schema's implied type. Every argument and nested block
// is optional, as the products decode backend blocks: required arguments
// may come from -backend-config and are checked after the merge.
func (s *Schema) decoderSpec() hcldec.ObjectSpec {
	spec := hcldec.ObjectSpec{}
	for name, a := range s.Attributes {
		spec[name] = &hcldec.AttrSpec{Name: name, Type: a.Type}
	}
	for name, b := range s.Blocks {
		if _, taken := spec[name]; taken {
			continue
		}
		nested := b.Schema.decoderSpec()
		dynamic := b.Schema.ImpliedType().HasDynamicTypes()
		switch b.Nesting {
		case NestingSingle:
			spec[name] = &hcldec.BlockSpec{TypeName: name, Nested: nested}
		case NestingGroup:
			spec[name] = &hcldec.DefaultSpec{
				Primary: &hcldec.BlockSpec{TypeName: name, Nested: nested},
				Default: &hcldec.LiteralSpec{Value: b.Schema.emptyValue()},
			}
		case NestingList:
			if dynamic {
				spec[name] = &hcldec.BlockTupleSpec{TypeName: name, Nested: nested}
			} else {
				spec[name] = &hcldec.BlockListSpec{TypeName: name, Nested: nested}
			}
		case NestingSet:
			spec[name] = &hcldec.BlockSetSpec{TypeName: name, Nested: nested}
		case NestingMap:
			if dynamic {
				spec[name] = &hcldec.BlockObjectSpec{TypeName: name, Nested: nested, LabelNames: []string{"key"}}
			} else {
				spec[name] = &hcldec.BlockMapSpec{TypeName: name, Nested: nested, LabelNames: []string{"key"}}
			}
		}
	}
	return spec
}

// emptyValue is the value of a group block that is absent: every
// argument null, nested blocks empty.
func (s *Schema) emptyValue() cty.Value {
	vals := make(map[string]cty.Value, len(s.Attributes)+len(s.Blocks))
	for name, a := range s.Attributes {
		vals[name] = cty.NullVal(a.Type.WithoutOptionalAttributesDeep())
	}
	for name, b := range s.Blocks {
		ty := b.impliedType()
		switch b.Nesting {
		case NestingGroup:
			vals[name] = b.Schema.emptyValue()
		case NestingList:
			if ty == cty.DynamicPseudoType {
				vals[name] = cty.EmptyTupleVal
			} else {
				vals[name] = cty.ListValEmpty(ty.ElementType())
			}
		case NestingSet:
			vals[name] = cty.SetValEmpty(ty.ElementType())
		case NestingMap:
			if ty == cty.DynamicPseudoType {
				vals[name] = cty.EmptyObjectVal
			} else {
				vals[name] = cty.MapValEmpty(ty.ElementType())
			}
		default:
			vals[name] = cty.NullVal(ty)
		}
	}
	return cty.ObjectVal(vals)
}

// schemaJSON is the data file's form of a schema: types in cty's JSON
// type notation ("string", ["list","string"], ...).
type schemaJSON struct {
	Attributes map[string]attributeJSON `json:"attributes,omitempty"`
	Blocks     map[string]blockJSON     `json:"blocks,omitempty"`
}

type attributeJSON struct {
	Type       json.RawMessage `json:"type"`
	Required   bool            `json:"required,omitempty"`
	Optional   bool            `json:"optional,omitempty"`
	Computed   bool            `json:"computed,omitempty"`
	Sensitive  bool            `json:"sensitive,omitempty"`
	Deprecated bool            `json:"deprecated,omitempty"`
}

type blockJSON struct {
	Nesting  string     `json:"nesting"`
	MinItems int        `json:"min_items,omitempty"`
	MaxItems int        `json:"max_items,omitempty"`
	Block    schemaJSON `json:"block"`
}

var nestingNames = map[string]Nesting{
	"NestingSingle": NestingSingle,
	"NestingGroup":  NestingGroup,
	"NestingList":   NestingList,
	"NestingSet":    NestingSet,
	"NestingMap":    NestingMap,
}

func parseSchemas(src []byte) (map[string]*Schema, error) {
	var raw map[string]schemaJSON
	if err := json.Unmarshal(src, &raw); err != nil {
		return nil, err
	}
	out := make(map[string]*Schema, len(raw))
	for name, r := range raw {
		s, err := r.schema()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = s
	}
	return out, nil
}

func (r schemaJSON) schema() (*Schema, error) {
	s := &Schema{Attributes: map[string]*Attribute{}, Blocks: map[string]*NestedBlock{}}
	for name, a := range r.Attributes {
		ty, err := ctyjson.UnmarshalType(a.Type)
		if err != nil {
			return nil, fmt.Errorf("argument %s: %w", name, err)
		}
		s.Attributes[name] = &Attribute{Type: ty, Required: a.Required, Sensitive: a.Sensitive, Deprecated: a.Deprecated}
	}
	for name, b := range r.Blocks {
		nesting, ok := nestingNames[b.Nesting]
		if !ok {
			return nil, fmt.Errorf("block %s: unknown nesting %q", name, b.Nesting)
		}
		inner, err := b.Block.schema()
		if err != nil {
			return nil, fmt.Errorf("block %s: %w", name, err)
		}
		s.Blocks[name] = &NestedBlock{Nesting: nesting, MinItems: b.MinItems, MaxItems: b.MaxItems, Schema: *inner}
	}
	return s, nil
}
