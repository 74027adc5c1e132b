package backend

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/flavour"
)

// Block is a root module's backend "TYPE" block, or its cloud block
// (Cloud set, Type "cloud").
type Block struct {
	Type      string
	Cloud     bool
	Body      hcl.Body
	TypeRange hcl.Range
	DeclRange hcl.Range
}

// BlockOf returns the backend or cloud block of a root module, or nil
// when it has neither (the implied local backend).
func BlockOf(m *config.Module) *Block {
	switch {
	case m == nil:
		return nil
	case m.Backend != nil && m.Backend.Config != nil:
		b := m.Backend
		return &Block{Type: b.Type, Body: b.Config, TypeRange: b.TypeRange, DeclRange: b.DeclRange}
	case m.Cloud != nil && m.Cloud.Config != nil:
		c := m.Cloud
		return &Block{Type: "cloud", Cloud: true, Body: c.Config, TypeRange: c.DeclRange, DeclRange: c.DeclRange}
	}
	return nil
}

// Options are the inputs of Configure besides the block.
type Options struct {
	// Overrides are the -backend-config values in command-line order:
	// NAME=VALUE pairs and names of files.
	Overrides []string
	// Dir is the directory relative file names are read from; "" is the
	// current directory. Diagnostics name files as given.
	Dir string
	// Parser, when not nil, parses the override files, so that the caller
	// holds their sources for the snippets of diagnostics.
	Parser *hclparse.Parser
	// EvalContext evaluates the block's expressions (nil: literals only).
	EvalContext *hcl.EvalContext
}

// Settings is a backend configuration as init saves it.
type Settings struct {
	Type   string
	Schema *Schema
	// Config is the block merged with the overrides, an object of the
	// schema's implied type with every argument present (null when unset).
	Config cty.Value
	// Hash identifies the block as written in the configuration, without
	// the overrides: later commands compare it with the saved hash to
	// tell whether the configuration changed since init.
	Hash uint64
}

// Configure decodes a backend or cloud block against its type's schema,
// merges the -backend-config overrides over it and computes its hash, as
// init does before it configures the backend. The diagnostics are the
// products' own: an unknown backend type, -backend-config values that do
// not fit the schema, arguments the block does not accept, values of the
// wrong type. Checks that each backend makes of its own values (required
// arguments, allowed values) are not made here.
func Configure(f flavour.Flavour, b *Block, o Options) (*Settings, hcl.Diagnostics) {
	if b.Type == "cloud" && !b.Cloud {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported backend type",
			Detail:   fmt.Sprintf("There is no explicit backend type named %q. To configure %s, declare a 'cloud' block instead.", b.Type, cloudName(f)),
			Subject:  b.TypeRange.Ptr(),
		}}
	}
	schema, ok := Lookup(f, b.Type)
	if !ok {
		detail := fmt.Sprintf("There is no backend type named %q.", b.Type)
		if msg, removed := removedBackends(f)[b.Type]; removed {
			detail = msg
		}
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported backend type",
			Detail:   detail,
			Subject:  b.TypeRange.Ptr(),
		}}
	}
	override, diags := overrideBody(o.Overrides, schema, &o)
	if diags.HasErrors() {
		return nil, diags
	}
	body := b.Body
	if override != nil {
		body = mergeBody{base: body, override: override}
	}
	spec := schema.decoderSpec()
	val, decDiags := hcldec.Decode(body, spec, o.EvalContext)
	diags = append(diags, decDiags...)
	if decDiags.HasErrors() {
		return nil, diags
	}
	if !val.IsWhollyKnown() {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unknown values within backend definition",
			Detail:   fmt.Sprintf("The `%s` configuration block should contain only concrete and static values. Another diagnostic should contain more information about which part of the configuration is problematic.", f.Command()),
		})
	}
	return &Settings{Type: b.Type, Schema: schema, Config: val, Hash: blockHash(b, schema, o.EvalContext)}, diags
}

// BlockHash is the hash Configure records for block b, computed even
// when the block does not decode (an argument the schema lacks, say): the
// tools compare it with the recorded hash before they decode the block,
// so a block whose hash is unchanged is not decoded at all. ok is false
// for a type the flavour does not build in.
func BlockHash(f flavour.Flavour, b *Block, o Options) (hash uint64, ok bool) {
	schema, ok := Lookup(f, b.Type)
	if !ok || (b.Type == "cloud" && !b.Cloud) {
		return 0, false
	}
	return blockHash(b, schema, o.EvalContext), true
}

// blockHash is the hash of the block as written: the type and the
// decoded body (without the overrides), hashed together as one cty
// tuple. Decoding problems do not stop it: what decodes is hashed, and
// a body that decodes to nothing hashes as an unknown object.
func blockHash(b *Block, s *Schema, ctx *hcl.EvalContext) uint64 {
	val, _ := hcldec.Decode(b.Body, s.decoderSpec(), ctx)
	if val == cty.NilVal {
		val = cty.UnknownVal(s.ImpliedType())
	}
	return uint64(cty.TupleVal([]cty.Value{cty.StringVal(b.Type), val}).Hash())
}

// Saved is the form of the settings kept in the state file.
func (s *Settings) Saved() (*SavedBackend, error) {
	raw, err := ctyjson.Marshal(s.Config, s.Schema.ImpliedType())
	if err != nil {
		return nil, err
	}
	return &SavedBackend{Type: s.Type, Config: raw, Hash: s.Hash}, nil
}

// SameConfig reports whether saved holds the same backend type and
// configuration values as s (the hash aside): init then reuses the
// saved backend without migrating state, only updating the hash.
func (s *Settings) SameConfig(saved *SavedBackend) bool {
	if saved == nil || saved.Type != s.Type {
		return false
	}
	v, err := saved.Value(s.Schema)
	if err != nil {
		return false
	}
	return v.RawEquals(s.Config)
}

func cloudName(f flavour.Flavour) string {
	if f == flavour.Terraform {
		return "HCP Terraform"
	}
	return "cloud backend"
}

// removedBackends are the backend types the product once had, with the
// detail of the error naming one.
func removedBackends(f flavour.Flavour) map[string]string {
	product := f.Product()
	gone := func(typ string) string {
		return fmt.Sprintf("The %q backend is not supported in %s v1.3 or later.", typ, product)
	}
	return map[string]string{
		"artifactory": gone("artifactory"),
		"azure":       `The "azure" backend name has been removed, please use "azurerm".`,
		"etcd":        gone("etcd"),
		"etcdv3":      gone("etcdv3"),
		"manta":       gone("manta"),
		"swift":       gone("swift"),
	}
}
