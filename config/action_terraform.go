package config

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
)

// Action blocks (Terraform v1.15; OpenTofu has none): action "TYPE" "NAME"
// declares an action a provider implements, which resources' lifecycle
// action_trigger blocks invoke. An action needs its provider as a resource
// does: the one its provider argument names, else the one its type's
// prefix implies. Only the Terraform flavour reads them.

// Action is an action block.
type Action struct {
	Type, Name string
	// ProviderConfigRef is the provider argument (nil when absent).
	ProviderConfigRef *ProviderConfigRef
	// Provider is the provider the action needs, resolved in its module
	// (zero when its type implies no valid provider name).
	Provider  addrs.Provider
	DeclRange hcl.Range
	TypeRange hcl.Range
}

// Key is action.TYPE.NAME, the action's address in its module.
func (a *Action) Key() string { return "action." + a.Type + "." + a.Name }

var actionBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "for_each"}, {Name: "provider"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "config"}},
}

// decodeActionBlock reads an action block as Terraform does. It returns
// nil (the block is dropped) when the block has two config blocks.
func decodeActionBlock(block *hcl.Block) (*Action, hcl.Diagnostics) {
	a := &Action{Type: block.Labels[0], Name: block.Labels[1], DeclRange: block.DefRange, TypeRange: block.LabelRanges[0]}
	var diags hcl.Diagnostics
	if !hclsyntax.ValidIdentifier(a.Type) {
		diags = append(diags, errorDiag("Invalid action type name", badIdentifierDetail, &block.LabelRanges[0]))
	}
	if !hclsyntax.ValidIdentifier(a.Name) {
		diags = append(diags, errorDiag("Invalid action name", badIdentifierDetail, &block.LabelRanges[1]))
	}
	content, d := block.Body.Content(actionBlockSchema)
	diags = append(diags, d...)
	if _, hasCount := content.Attributes["count"]; hasCount {
		if attr, ok := content.Attributes["for_each"]; ok {
			diags = append(diags, errorDiag(`Invalid combination of "count" and "for_each"`, `The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used.`, &attr.NameRange))
		}
	}
	var config *hcl.Block
	for _, b := range content.Blocks {
		if config != nil {
			return nil, append(diags, errorDiag("Duplicate config block", "An action must contain only one nested \"config\" block.", b.DefRange.Ptr()))
		}
		config = b
	}
	if attr, ok := content.Attributes["provider"]; ok {
		ref, d := decodeProviderConfigRef(attr.Expr, "provider", flavour.Terraform)
		diags = append(diags, d...)
		a.ProviderConfigRef = ref
	}
	return a, diags
}

// resolveActionProvider sets a.Provider as Terraform resolves it in m.
func (m *Module) resolveActionProvider(a *Action) {
	if a.ProviderConfigRef != nil {
		a.Provider = m.ProviderForLocalName(a.ProviderConfigRef.Name)
		return
	}
	if p, ok := m.ImpliedProviderForResourceType(a.Type); ok {
		a.Provider = p
	}
}

// appendActions adds a primary file's actions to m, rejecting duplicates.
func (m *Module) appendActions(f *File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, a := range f.Actions {
		if existing, ok := m.Actions[a.Key()]; ok {
			diags = append(diags, errorDiag(fmt.Sprintf("Duplicate action %q configuration", existing.Type), fmt.Sprintf("An action named %q was already declared at %s. Resource names must be unique per type in each module.", existing.Name, existing.DeclRange), a.DeclRange.Ptr()))
			continue
		}
		if m.Actions == nil {
			m.Actions = map[string]*Action{}
		}
		m.Actions[a.Key()] = a
		m.resolveActionProvider(a)
	}
	return diags
}

// mergeActions applies an override file's actions: each must override one
// of the primary files; its provider argument replaces the primary's.
func (m *Module) mergeActions(f *File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, a := range f.Actions {
		existing, ok := m.Actions[a.Key()]
		if !ok {
			diags = append(diags, errorDiag("Missing resource to override", fmt.Sprintf("There is no action named %q. An override file can only override a resource block defined in a primary configuration file.", a.Name), a.DeclRange.Ptr()))
			continue
		}
		if a.ProviderConfigRef != nil {
			existing.ProviderConfigRef = a.ProviderConfigRef
			existing.Provider = m.ProviderForLocalName(a.ProviderConfigRef.Name)
		}
	}
	return diags
}

var actionTriggerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "events", Required: true}, {Name: "condition"}, {Name: "actions", Required: true}},
}

// actionTriggerEvents are the events an action_trigger accepts.
var actionTriggerEvents = []string{"before_create", "after_create", "before_update", "after_update"}

// decodeActionTrigger checks a resource's lifecycle action_trigger block as
// Terraform does: known, distinct events and at least one, and actions that
// each refer to exactly one action of this module.
func decodeActionTrigger(block *hcl.Block) hcl.Diagnostics {
	content, diags := block.Body.Content(actionTriggerSchema)
	events, actions := 0, 0
	if attr, ok := content.Attributes["events"]; ok {
		exprs, d := hcl.ExprList(attr.Expr)
		diags = append(diags, d...)
		var seen []string
		for _, expr := range exprs {
			kw := hcl.ExprAsKeyword(expr)
			switch {
			case !slices.Contains(actionTriggerEvents, kw):
				diags = append(diags, errorDiag(fmt.Sprintf("Invalid \"event\" value %s", kw), "The \"event\" argument supports the following values: before_create, after_create, before_update, after_update.", expr.Range().Ptr()))
			case slices.Contains(seen, kw):
				diags = append(diags, errorDiag(fmt.Sprintf("Duplicate %q event", kw), "The event is already defined in this action_trigger block.", expr.Range().Ptr()))
			default:
				seen = append(seen, kw)
			}
		}
		events = len(seen)
	}
	if attr, ok := content.Attributes["actions"]; ok {
		n, d := decodeActionRefs(attr.Expr)
		diags = append(diags, d...)
		actions = n
	}
	if actions == 0 {
		diags = append(diags, noActionsDiag(block.DefRange))
	}
	if events == 0 {
		diags = append(diags, errorDiag("No events specified", "At least one event must be specified for an action_trigger.", block.DefRange.Ptr()))
	}
	return diags
}

func noActionsDiag(rng hcl.Range) *hcl.Diagnostic {
	return errorDiag("No actions specified", "At least one action must be specified for an action_trigger.", rng.Ptr())
}

// decodeActionRefs checks an action_trigger's actions list; it returns the
// number of its elements (Terraform counts those that failed a check too).
func decodeActionRefs(expr hcl.Expression) (int, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(expr)
	if diags.HasErrors() {
		return 0, diags
	}
	for _, e := range exprs {
		e, d := unwrapJSONReference(e)
		diags = append(diags, d...)
		if diags.HasErrors() {
			continue
		}
		actions := 0
		for _, tr := range e.Variables() {
			switch root := tr.RootName(); {
			case root == "action":
				actions++
			case root == "module":
				diags = append(diags, errorDiag("Invalid reference to action outside this module", "Actions can only be referenced in the module they are declared in.", e.Range().Ptr()))
			case isSingleAttrRoot(root) || root == "self":
			default: // a resource: data.T.N, ephemeral.T.N, resource.T.N or T.N
				diags = append(diags, errorDiag("Invalid action argument inside action_triggers", "action_triggers.actions must only refer to actions in the current module.", e.Range().Ptr()))
			}
		}
		switch {
		case actions == 0:
			diags = append(diags, noActionsDiag(e.Range()))
		case actions > 1:
			diags = append(diags, errorDiag("Invalid action expression", "Multiple action references in actions expression.", e.Range().Ptr()))
		}
	}
	return len(exprs), diags
}

// actionDependsOn is Terraform's error for a depends_on entry that names
// an action.
func actionDependsOn(rng hcl.Range) *hcl.Diagnostic {
	return errorDiag("Invalid depends_on Action Reference", "The depends_on attribute cannot reference action blocks directly. You must reference a resource or data source instead.", rng.Ptr())
}

func isSingleAttrRoot(root string) bool {
	_, ok := singleAttrKinds[root]
	return ok
}

// jsonReferenceAsNative is jsonExprAsNative in flavour f: Terraform words
// the error for a value that is not a string its own way.
func jsonReferenceAsNative(expr hcl.Expression, f flavour.Flavour) (hcl.Expression, hcl.Diagnostics) {
	if f == flavour.Terraform {
		return unwrapJSONReference(expr)
	}
	return jsonExprAsNative(expr)
}

// unwrapJSONReference reads a JSON string expression as the native
// expression it holds (Terraform's wording when it is not a string); a
// native expression is returned as it is.
func unwrapJSONReference(expr hcl.Expression) (hcl.Expression, hcl.Diagnostics) {
	if !isJSONExpression(expr) {
		return expr, nil
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return nil, diags
	}
	if v.Type() != cty.String || v.IsNull() {
		return nil, append(diags, errorDiag("Invalid reference expression", "A single reference string is required.", expr.Range().Ptr()))
	}
	rng := expr.Range()
	native, d := hclsyntax.ParseExpression([]byte(v.AsString()), rng.Filename, rng.Start)
	return native, append(diags, d...)
}
