package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/moduleaddr"
)

// Every declaration type below keeps Syntax, its block in the Document; the
// merge updates the typed fields and Syntax together.

// VariableParsingMode is how a variable's value from the environment or CLI
// is read: as a literal string or as an HCL expression.
type VariableParsingMode rune

const (
	VariableParseLiteral VariableParsingMode = 'L'
	VariableParseHCL     VariableParsingMode = 'H'
)

// Variable is an input variable declaration.
type Variable struct {
	Name        string
	Description string
	// Default is cty.NilVal when the variable has no default.
	Default cty.Value
	// ConstraintType is the type constraint as written (with optional
	// attribute markers); Type the same without them. cty.NilType means
	// unset (override files only).
	Type           cty.Type
	ConstraintType cty.Type
	TypeDefaults   *typeexpr.Defaults
	ParsingMode    VariableParsingMode
	Validations    []*CheckRule
	Sensitive      bool
	Ephemeral      bool
	Nullable       bool
	Const          bool
	Deprecated     string

	DescriptionSet, SensitiveSet, EphemeralSet, NullableSet, ConstSet bool

	DeclRange hcl.Range
	Syntax    *Block
}

// Required reports whether the variable has no default.
func (v *Variable) Required() bool { return v.Default == cty.NilVal }

// Local is one local value.
type Local struct {
	Name      string
	Expr      hcl.Expression
	DeclRange hcl.Range
	// Syntax is the attribute in the Document.
	Syntax *Attribute
	// block is the Document locals block that holds Syntax.
	block *Block
}

// Output is an output value declaration.
type Output struct {
	Name          string
	Description   string
	Expr          hcl.Expression
	DependsOn     []hcl.Traversal
	Sensitive     bool
	Ephemeral     bool
	Deprecated    string
	Preconditions []*CheckRule

	DescriptionSet, SensitiveSet, EphemeralSet bool

	DeclRange hcl.Range
	Syntax    *Block
}

// CheckRule is a validation, precondition, postcondition or assert block.
type CheckRule struct {
	Condition    hcl.Expression
	ErrorMessage hcl.Expression
	DeclRange    hcl.Range

	// conditionRefs are the condition's traversals, found once.
	conditionRefs []hcl.Traversal
}

// PassedProviderConfig is one entry of a module call's providers map.
type PassedProviderConfig struct {
	InChild  *ProviderConfigRef
	InParent *ProviderConfigRef
}

// ModuleCall is a module block.
type ModuleCall struct {
	Name string
	// SourceExpr is the source argument; SourceAddr the address decoded from
	// it after merging (local "./x", registry "host/ns/name/system", or a
	// remote address as written).
	SourceExpr hcl.Expression
	SourceSet  bool
	SourceAddr string
	// Source is the classified source address (moduleaddr.Local, Registry
	// or Remote); nil when the source was not evaluated or did not parse.
	Source moduleaddr.Source
	// SourceAddrRange is the range of the source argument's expression.
	SourceAddrRange hcl.Range
	VersionExpr     hcl.Expression
	Version         string
	HasVersion      bool
	Count, ForEach  hcl.Expression
	Providers       []PassedProviderConfig
	DependsOn       []hcl.Traversal
	DeclRange       hcl.Range
	Syntax          *Block
}

// Config returns the merged module input arguments (the body without
// meta-arguments).
func (mc *ModuleCall) Config() *Body {
	return configBody(mc.Syntax.Body, moduleMetaArgs, moduleMetaBlocks)
}

// ProviderConfigRef is a reference to a provider configuration, NAME or
// NAME.ALIAS.
type ProviderConfigRef struct {
	Name       string
	NameRange  hcl.Range
	Alias      string
	AliasRange *hcl.Range
	// KeyExpression is the instance key of NAME.ALIAS[KEY], a reference to
	// one instance of a provider configuration with for_each (nil if none).
	KeyExpression hcl.Expression
}

// String returns NAME or NAME.ALIAS.
func (r *ProviderConfigRef) String() string {
	if r == nil {
		return ""
	}
	if r.Alias != "" {
		return r.Name + "." + r.Alias
	}
	return r.Name
}

// ProviderConfig is a provider block.
type ProviderConfig struct {
	Name       string
	NameRange  hcl.Range
	Alias      string
	AliasRange *hcl.Range
	// Version is the deprecated version argument as written ("" if none).
	Version      string
	VersionSet   bool
	VersionRange hcl.Range
	ForEach      hcl.Expression
	DeclRange    hcl.Range
	Syntax       *Block
}

// Config returns the merged provider configuration arguments.
func (p *ProviderConfig) Config() *Body {
	return configBody(p.Syntax.Body, providerMetaArgs, providerMetaBlocks)
}

// Key is the module-unique key: NAME or NAME.ALIAS.
func (p *ProviderConfig) Key() string {
	if p.Alias != "" {
		return p.Name + "." + p.Alias
	}
	return p.Name
}

// RequiredProviders is the module's merged required_providers table.
type RequiredProviders struct {
	// RequiredProviders maps local name to entry; Order lists the local
	// names in declaration order (primary block first, then entries added by
	// override files).
	RequiredProviders map[string]*RequiredProvider
	Order             []string
	DeclRange         hcl.Range
	Syntax            *Block
}

// RequiredProvider is one required_providers entry.
type RequiredProvider struct {
	Name string
	// Source is the source string as written ("" when not given).
	Source string
	Type   addrs.Provider
	// Requirement is the version constraint as written.
	Requirement          VersionConstraint
	ConfigurationAliases []ProviderConfigRef
	// DeclRange is the entry's value; Requirement.DeclRange the whole
	// NAME = VALUE entry.
	DeclRange hcl.Range
	Syntax    *Attribute

	entryRange hcl.Range
}

// VersionConstraint is a version constraint kept as written.
type VersionConstraint struct {
	Required  string
	Set       bool
	DeclRange hcl.Range
}

// ProviderMeta is a terraform { provider_meta "NAME" {} } block.
type ProviderMeta struct {
	Provider  string
	DeclRange hcl.Range
	Syntax    *Block
}

// Backend is a terraform { backend "TYPE" {} } block.
type Backend struct {
	Type      string
	DeclRange hcl.Range
	TypeRange hcl.Range
	Syntax    *Block
	// Config is the block's body as parsed, for decoding against the
	// backend's schema.
	Config hcl.Body
}

// Cloud is a terraform { cloud {} } block.
type Cloud struct {
	DeclRange hcl.Range
	Syntax    *Block
	// Config is the block's body as parsed.
	Config hcl.Body
}

// Encryption is a terraform { encryption {} } block.
type Encryption struct {
	DeclRange hcl.Range
	Syntax    *Block
}

// ResourceMode tells managed resources, data sources and ephemeral
// resources apart.
type ResourceMode int

const (
	ManagedResourceMode ResourceMode = iota + 1
	DataResourceMode
	EphemeralResourceMode
)

// Resource is a resource, data or ephemeral block (also a data block nested
// in a check block).
type Resource struct {
	Mode           ResourceMode
	Type, Name     string
	Count, ForEach hcl.Expression
	// ProviderConfigRef is the provider argument (nil when absent); Provider
	// the provider address it resolves to.
	ProviderConfigRef *ProviderConfigRef
	Provider          addrs.Provider
	DependsOn         []hcl.Traversal
	Preconditions     []*CheckRule
	Postconditions    []*CheckRule
	// TriggersReplacement holds lifecycle replace_triggered_by elements.
	TriggersReplacement []hcl.Expression
	// Enabled is lifecycle { enabled }.
	Enabled hcl.Expression
	// Managed is set for managed resources only.
	Managed *ManagedResource
	// Container is the name of the check block holding a nested data block.
	Container string
	DeclRange hcl.Range
	TypeRange hcl.Range
	Syntax    *Block
}

// Config returns the merged resource configuration (the body without
// meta-arguments and meta-blocks).
func (r *Resource) Config() *Body {
	if r.Mode != ManagedResourceMode {
		return configBody(r.Syntax.Body, resourceMetaArgs, dataMetaBlocks)
	}
	return configBody(r.Syntax.Body, resourceMetaArgs, resourceMetaBlocks)
}

// Key is TYPE.NAME (data.TYPE.NAME for data sources).
func (r *Resource) Key() string {
	return resourceAddr{Mode: r.Mode, Type: r.Type, Name: r.Name}.String()
}

// ManagedResource holds what only managed resources have.
type ManagedResource struct {
	Connection             *Connection
	Provisioners           []*Provisioner
	CreateBeforeDestroy    bool
	CreateBeforeDestroySet bool
	PreventDestroy         hcl.Expression
	Destroy                hcl.Expression
	IgnoreChanges          []hcl.Traversal
	IgnoreAllChanges       bool
}

// Connection is a connection block.
type Connection struct {
	DeclRange hcl.Range
	Syntax    *Block
	// body is the block's body as parsed, for the destroy-provisioner
	// reference check.
	body hcl.Body
}

// Provisioner is a provisioner block.
type Provisioner struct {
	Type       string
	Connection *Connection
	When       string
	OnFailure  string
	DeclRange  hcl.Range
	Syntax     *Block
}

// Check is a check block.
type Check struct {
	Name         string
	DataResource *Resource
	Asserts      []*CheckRule
	DeclRange    hcl.Range
	Syntax       *Block
}

// Import is an import block.
type Import struct {
	To, ID, ForEach   hcl.Expression
	Identity          hcl.Expression
	ProviderConfigRef *ProviderConfigRef
	Provider          addrs.Provider
	// ResolvedTo is the static target address (e.g. null_resource.r), ""
	// when it is not static. ToType is the target resource type.
	ResolvedTo string
	ToType     string
	// StaticTo is the target resource's key in the module (TYPE.NAME or
	// data.TYPE.NAME, instance keys dropped), "" when the target is in a
	// child module or not a valid address.
	StaticTo string
	// ProviderDeclRange is the range of the provider argument, if any.
	ProviderDeclRange hcl.Range
	DeclRange         hcl.Range
	Syntax            *Block
	// toResource is the target resource with every instance key dropped
	// (module.a.TYPE.NAME), as Terraform names it in a duplicate's error.
	toResource string
}

// TargetResource is the resource the block imports into, every instance
// key dropped (module.a.TYPE.NAME); "" when the target is not a valid
// address.
func (i *Import) TargetResource() string { return i.toResource }

// Moved is a moved block.
type Moved struct {
	From, To  hcl.Expression
	DeclRange hcl.Range
	Syntax    *Block
}

// Removed is a removed block.
type Removed struct {
	From      hcl.Expression
	Destroy   hcl.Expression
	DeclRange hcl.Range
	Syntax    *Block
}

// Meta-arguments and meta-blocks that are not part of a block's
// configuration body.
var (
	resourceMetaArgs   = []string{"count", "for_each", "provider", "depends_on"}
	resourceMetaBlocks = []string{"lifecycle", "connection", "provisioner", "_", "locals"}
	dataMetaBlocks     = []string{"lifecycle", "_", "locals"}
	moduleMetaArgs     = []string{"source", "version", "count", "for_each", "depends_on", "providers"}
	moduleMetaBlocks   = []string{"lifecycle", "_", "locals", "provider"}
	providerMetaArgs   = []string{"alias", "version", "for_each", "count", "depends_on", "source"}
	providerMetaBlocks = []string{"_", "lifecycle", "locals"}
)

// configBody is body without meta-arguments, with the contents of the
// meta-argument escaping block "_" blended in (config-loading.md §7.9).
func configBody(body *Body, metaArgs, metaBlocks []string) *Body {
	out := body.without(metaArgs, metaBlocks)
	if esc := body.BlocksOfType("_"); len(esc) > 0 {
		out.Attributes = append(out.Attributes, esc[0].Body.Attributes...)
		out.Blocks = append(out.Blocks, esc[0].Body.Blocks...)
	}
	return out
}
