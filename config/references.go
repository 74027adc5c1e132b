package config

import (
	"fmt"
	"math"
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/flavour"
)

// refKind classifies what a reference in an expression points at
// (OpenTofu's addrs.ParseRef), for both configuration decoding and static
// evaluation.
type refKind int

const (
	refInvalid refKind = iota
	refOther
	refResource
	refResourceInstance
	refCount
	refEach
	refVariable
	refLocal
	refPath
	refTerraform
	refModuleOutput
	refProviderFunction
)

// reference is one parsed reference. Root is the first name (var, local,
// module, data, ...); Name the attribute after it for the single-attribute
// kinds and module calls; Resource the resource a resource reference names
// and Key its instance key (cty.NilVal when none). Subject is the
// referenced object as OpenTofu writes it in messages (aws_instance.x[0],
// module.a.out, each.key) and Range its source range.
type reference struct {
	Kind     refKind
	Root     string
	Name     string
	Resource resourceAddr
	Key      cty.Value
	Subject  string
	Range    hcl.Range
}

// resourceAddr is a resource's address within its module.
type resourceAddr struct {
	Mode       ResourceMode
	Type, Name string
}

// String is TYPE.NAME, data.TYPE.NAME or ephemeral.TYPE.NAME.
func (a resourceAddr) String() string {
	switch a.Mode {
	case DataResourceMode:
		return "data." + a.Type + "." + a.Name
	case EphemeralResourceMode:
		return "ephemeral." + a.Type + "." + a.Name
	}
	return a.Type + "." + a.Name
}

func invalidRef(detail string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{errorDiag("Invalid reference", detail, &rng)}
}

// singleAttrKinds are the kinds of the ROOT.NAME references.
var singleAttrKinds = map[string]refKind{
	"count": refCount, "each": refEach, "var": refVariable, "local": refLocal,
	"path": refPath, "terraform": refTerraform, "tofu": refTerraform,
}

// parseReference interprets a traversal found in an expression as OpenTofu
// does. Errors come with error diagnostics (in flavour f's words) and,
// except for a malformed ROOT.NAME reference (see singleAttrRef), a
// reference of kind refInvalid.
func parseReference(tr hcl.Traversal, f flavour.Flavour) (reference, hcl.Diagnostics) {
	root := tr.RootName()
	rootRange := tr[0].SourceRange()
	if kind, ok := singleAttrKinds[root]; ok {
		return singleAttrRef(tr, kind)
	}
	switch root {
	case "data", "ephemeral", "resource":
		if len(tr) < 3 {
			detail := map[string]string{
				"data":      `The "data" object must be followed by two attribute names: the data source type and the resource name.`,
				"ephemeral": `The "ephemeral" object must be followed by two attribute names: the ephemeral resource type and its name.`,
				"resource":  `The "resource" object must be followed by two attribute names: the resource type and the resource name.`,
			}[root]
			return reference{}, invalidRef(detail, tr.SourceRange())
		}
		mode := map[string]ResourceMode{"data": DataResourceMode, "ephemeral": EphemeralResourceMode, "resource": ManagedResourceMode}[root]
		return resourceRef(mode, root, rootRange, tr[1:])
	case "module":
		return moduleRef(tr)
	case "self":
		return reference{Kind: refOther, Root: root, Subject: "self", Range: rootRange}, nil
	case "template", "lazy", "arg":
		return reference{}, hcl.Diagnostics{errorDiag("Reserved symbol name", fmt.Sprintf("The symbol name %q is reserved for use in a future %s version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name.", root, f.Product()), &rootRange)}
	}
	return resourceRef(ManagedResourceMode, root, rootRange, tr)
}

// singleAttrRef reads ROOT.NAME. Like OpenTofu, a malformed one is an error
// that still yields a reference of its kind to ROOT.<empty name> without a
// source range: static evaluation then tries to resolve it (Undefined
// variable var.) and replace_triggered_by checks its name.
func singleAttrRef(tr hcl.Traversal, kind refKind) (reference, hcl.Diagnostics) {
	root := tr.RootName()
	rootRange := tr[0].SourceRange()
	bogus := reference{Kind: kind, Root: root, Subject: root + "."}
	if len(tr) < 2 {
		return bogus, invalidRef(fmt.Sprintf("The %q object cannot be accessed directly. Instead, access one of its attributes.", root), rootRange)
	}
	attr, ok := tr[1].(hcl.TraverseAttr)
	if !ok {
		return bogus, invalidRef(fmt.Sprintf("The %q object does not support this operation.", root), tr[1].SourceRange())
	}
	return reference{Kind: kind, Root: root, Name: attr.Name, Subject: root + "." + attr.Name, Range: hcl.RangeBetween(rootRange, attr.SrcRange)}, nil
}

// resourceRef reads TYPE.NAME[KEY] (tr starts at TYPE; root and start are
// the reference's first name and its range, data or ephemeral included).
func resourceRef(mode ResourceMode, root string, start hcl.Range, tr hcl.Traversal) (reference, hcl.Diagnostics) {
	if len(tr) < 2 {
		return reference{}, invalidRef("A reference to a resource type must be followed by at least one attribute access, specifying the resource name.", hcl.RangeBetween(tr[0].SourceRange(), tr[len(tr)-1].SourceRange()))
	}
	var typeName string
	switch st := tr[0].(type) {
	case hcl.TraverseRoot:
		typeName = st.Name
	case hcl.TraverseAttr:
		typeName = st.Name
	default:
		return reference{}, invalidRef(`The "data" object does not support this operation.`, tr[0].SourceRange())
	}
	attr, ok := tr[1].(hcl.TraverseAttr)
	if !ok {
		what := "a resource type"
		switch mode {
		case DataResourceMode:
			what = "a data source"
		case EphemeralResourceMode:
			what = "an ephemeral resource"
		}
		return reference{}, invalidRef(fmt.Sprintf("A reference to %s must be followed by at least one attribute access, specifying the resource name.", what), tr[1].SourceRange())
	}
	addr := resourceAddr{Mode: mode, Type: typeName, Name: attr.Name}
	ref := reference{Kind: refResource, Root: root, Resource: addr, Subject: addr.String(), Range: hcl.RangeBetween(start, attr.SrcRange)}
	if len(tr) == 2 {
		return ref, nil
	}
	ref.Kind = refResourceInstance
	if idx, ok := tr[2].(hcl.TraverseIndex); ok {
		return ref.withKey(idx, "resource instance")
	}
	return ref, nil
}

// moduleRef reads module.NAME[KEY].OUTPUT; without OUTPUT it is a
// reference of kind refOther to the module call's instances.
func moduleRef(tr hcl.Traversal) (reference, hcl.Diagnostics) {
	ref, diags := singleAttrRef(tr, refOther)
	if diags.HasErrors() {
		return reference{}, diags
	}
	remain := tr[2:]
	if len(remain) == 0 {
		return ref, nil
	}
	if idx, ok := remain[0].(hcl.TraverseIndex); ok {
		if ref, diags = ref.withKey(idx, "module instance"); diags.HasErrors() {
			return ref, diags
		}
		remain = remain[1:]
		if len(remain) == 0 {
			return ref, nil
		}
	}
	if attr, ok := remain[0].(hcl.TraverseAttr); ok {
		ref.Kind = refModuleOutput
		ref.Subject += "." + attr.Name
		ref.Range = hcl.RangeBetween(ref.Range, attr.SrcRange)
		return ref, nil
	}
	return reference{}, invalidRef("Module instance objects do not support this operation.", remain[0].SourceRange())
}

// withKey is ref with the instance key idx, or an Invalid index key error
// (what is "resource instance" or "module instance") and no reference.
func (ref reference) withKey(idx hcl.TraverseIndex, what string) (reference, hcl.Diagnostics) {
	if err := checkInstanceKey(idx.Key); err != nil {
		return reference{}, hcl.Diagnostics{errorDiag("Invalid index key", fmt.Sprintf("Invalid index for %s: %s.", what, err), &idx.SrcRange)}
	}
	ref.Key = idx.Key
	ref.Subject += instanceKey(idx.Key)
	ref.Range = hcl.RangeBetween(ref.Range, idx.SrcRange)
	return ref, nil
}

// checkInstanceKey is OpenTofu's ParseInstanceKey: a string, or a whole
// number.
func checkInstanceKey(key cty.Value) error {
	switch key.Type() {
	case cty.String:
		return nil
	case cty.Number:
		if key.IsKnown() && !key.IsNull() {
			bf := key.AsBigFloat()
			if _, acc := bf.Int64(); bf.IsInt() && acc == big.Exact {
				return nil
			}
		}
		return fmt.Errorf("value must be a whole number, between %d and %d", math.MinInt64, math.MaxInt64)
	}
	return fmt.Errorf("either a string or an integer is required")
}

// instanceKey writes an index key as OpenTofu's instance addresses do.
func instanceKey(key cty.Value) string {
	if !key.IsKnown() || key.IsNull() {
		return "[?]"
	}
	switch key.Type() {
	case cty.String:
		return fmt.Sprintf("[%q]", key.AsString())
	case cty.Number:
		bf := key.AsBigFloat()
		if i, acc := bf.Int64(); acc == 0 {
			return fmt.Sprintf("[%d]", i)
		}
	}
	return "[?]"
}
