package config

import (
	"fmt"
	"math"
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// refKind classifies what a reference in an expression points at, as far
// as configuration decoding needs to know (OpenTofu's addrs.ParseRef).
type refKind int

const (
	refInvalid refKind = iota
	refOther
	refResource
	refResourceInstance
	refCount
	refEach
	refVariable
)

// reference is one parsed reference: its kind, the name of a count, each
// or var attribute, or the resource it names.
type reference struct {
	Kind     refKind
	Name     string
	Resource resourceAddr
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

// parseReference interprets a traversal found in an expression as OpenTofu
// does. An invalid reference (Kind refInvalid) comes with error diagnostics.
func parseReference(tr hcl.Traversal) (reference, hcl.Diagnostics) {
	root := tr.RootName()
	rootRange := tr[0].SourceRange()
	switch root {
	case "count":
		return singleAttrRef(tr, refCount)
	case "each":
		return singleAttrRef(tr, refEach)
	case "var":
		return singleAttrRef(tr, refVariable)
	case "local", "path", "terraform", "tofu":
		return singleAttrRef(tr, refOther)
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
		return resourceRef(mode, tr[1:])
	case "module":
		return moduleRef(tr)
	case "self":
		return reference{Kind: refOther}, nil
	case "template", "lazy", "arg":
		return reference{}, hcl.Diagnostics{errorDiag("Reserved symbol name", fmt.Sprintf("The symbol name %q is reserved for use in a future OpenTofu version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name.", root), &rootRange)}
	}
	return resourceRef(ManagedResourceMode, tr)
}

func singleAttrRef(tr hcl.Traversal, kind refKind) (reference, hcl.Diagnostics) {
	root := tr.RootName()
	if len(tr) < 2 {
		return reference{Kind: kind}, invalidRef(fmt.Sprintf("The %q object cannot be accessed directly. Instead, access one of its attributes.", root), tr[0].SourceRange())
	}
	if attr, ok := tr[1].(hcl.TraverseAttr); ok {
		return reference{Kind: kind, Name: attr.Name}, nil
	}
	return reference{Kind: kind}, invalidRef(fmt.Sprintf("The %q object does not support this operation.", root), tr[1].SourceRange())
}

func resourceRef(mode ResourceMode, tr hcl.Traversal) (reference, hcl.Diagnostics) {
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
	ref := reference{Kind: refResource, Resource: resourceAddr{Mode: mode, Type: typeName, Name: attr.Name}}
	if len(tr) == 2 {
		return ref, nil
	}
	ref.Kind = refResourceInstance
	if idx, ok := tr[2].(hcl.TraverseIndex); ok {
		if err := checkInstanceKey(idx.Key); err != nil {
			return reference{}, hcl.Diagnostics{errorDiag("Invalid index key", fmt.Sprintf("Invalid index for resource instance: %s.", err), &idx.SrcRange)}
		}
	}
	return ref, nil
}

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
		if err := checkInstanceKey(idx.Key); err != nil {
			return reference{}, hcl.Diagnostics{errorDiag("Invalid index key", fmt.Sprintf("Invalid index for module instance: %s.", err), &idx.SrcRange)}
		}
		remain = remain[1:]
		if len(remain) == 0 {
			return ref, nil
		}
	}
	if _, ok := remain[0].(hcl.TraverseAttr); ok {
		return ref, nil
	}
	return reference{}, invalidRef("Module instance objects do not support this operation.", remain[0].SourceRange())
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
