package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// endpoint is what a moved or removed block's from/to address names: a
// module (call or instance) or a resource (or one of its instances).
type endpoint struct {
	Module   bool
	Resource resourceAddr
}

// addrError is OpenTofu's error for a malformed address part.
func addrError(summary, detail string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{errorDiag(summary, detail, &rng)}
}

// stepName is the name of a root or attribute step ("" for others).
func stepName(s hcl.Traverser) (string, bool) {
	switch st := s.(type) {
	case hcl.TraverseRoot:
		return st.Name, true
	case hcl.TraverseAttr:
		return st.Name, true
	}
	return "", false
}

// moduleStep reads "module.NAME" at the start of tr: isModule is false when
// tr does not start with the module keyword.
func moduleStep(tr hcl.Traversal) (isModule bool, diags hcl.Diagnostics) {
	if len(tr) == 0 {
		return false, nil
	}
	next, ok := stepName(tr[0])
	if !ok {
		return false, addrError("Invalid address operator", "Module address prefix must be followed by dot and then a name.", tr[0].SourceRange())
	}
	if next != "module" {
		return false, nil
	}
	if len(tr) == 1 {
		return false, addrError("Invalid address operator", `Prefix "module." must be followed by a module name.`, tr[0].SourceRange())
	}
	if _, ok := tr[1].(hcl.TraverseAttr); !ok {
		return false, addrError("Invalid address operator", `Prefix "module." must be followed by a module name.`, tr[1].SourceRange())
	}
	return true, nil
}

// moduleInstancePrefix skips module.NAME[KEY] steps (keys allowed).
func moduleInstancePrefix(tr hcl.Traversal) (steps int, remain hcl.Traversal, diags hcl.Diagnostics) {
	remain = tr
	for len(remain) > 0 {
		isModule, d := moduleStep(remain)
		diags = append(diags, d...)
		if !isModule || diags.HasErrors() {
			break
		}
		remain = remain[2:]
		steps++
		if len(remain) > 0 {
			if idx, ok := remain[0].(hcl.TraverseIndex); ok {
				remain = remain[1:]
				switch idx.Key.Type() {
				case cty.String:
				case cty.Number:
					if err := checkInstanceKey(idx.Key); err != nil {
						diags = append(diags, addrError("Invalid address operator", fmt.Sprintf("Invalid module index: %s.", err), idx.SourceRange())...)
					}
				default:
					diags = append(diags, addrError("Invalid address operator", "Invalid module key: must be either a string or an integer.", idx.SourceRange())...)
				}
			}
		}
	}
	return steps, remain, diags
}

// modulePrefix reads module.NAME steps (module.a.module.b); instance keys
// are errors.
func modulePrefix(tr hcl.Traversal) (module string, remain hcl.Traversal, diags hcl.Diagnostics) {
	remain = tr
	for len(remain) > 0 {
		isModule, d := moduleStep(remain)
		diags = append(diags, d...)
		if !isModule || diags.HasErrors() {
			break
		}
		name := remain[1].(hcl.TraverseAttr).Name
		remain = remain[2:]
		if len(remain) > 0 {
			if _, ok := remain[0].(hcl.TraverseIndex); ok {
				return module, remain, append(diags, addrError("Module instance address with keys is not allowed", `Module address cannot be a module instance (e.g. "module.a[0]"), it must be a module instead (e.g. "module.a").`, remain[0].SourceRange())...)
			}
		}
		if module != "" {
			module += "."
		}
		module += "module." + name
	}
	return module, remain, diags
}

// resourceUnderModule reads a resource address without instance key.
func resourceUnderModule(remain hcl.Traversal) (resourceAddr, hcl.Diagnostics) {
	addr, rest, diags := resourceTypeAndName(remain)
	if diags.HasErrors() {
		return addr, diags
	}
	switch len(rest) {
	case 0:
		return addr, diags
	case 1:
		return addr, append(diags, addrError("Resource instance address with keys is not allowed", `Resource address cannot be a resource instance (e.g. "null_resource.a[0]"), it must be a resource instead (e.g. "null_resource.a").`, rest[0].SourceRange())...)
	}
	return addr, append(diags, addrError("Invalid address", "Unexpected extra operators after address.", rest[1].SourceRange())...)
}

// parseConfigResource is OpenTofu's ParseConfigResource; it returns the
// address as text (module.a.test.x).
func parseConfigResource(tr hcl.Traversal) (string, hcl.Diagnostics) {
	module, remain, diags := modulePrefix(tr)
	if diags.HasErrors() {
		return "", diags
	}
	if len(remain) == 0 {
		return "", append(diags, addrError("Module address is not allowed", "Expected reference to either resource or data block. Provided reference appears to be a module.", tr.SourceRange())...)
	}
	addr, d := resourceUnderModule(remain)
	diags = append(diags, d...)
	if module != "" {
		return module + "." + addr.String(), diags
	}
	return addr.String(), diags
}

// parseModuleAddr is OpenTofu's ParseModule: module.a.module.b only.
func parseModuleAddr(tr hcl.Traversal) (string, hcl.Diagnostics) {
	module, remain, diags := modulePrefix(tr)
	if !diags.HasErrors() && len(remain) != 0 {
		diags = append(diags, addrError("Module address expected", "It's not allowed to reference anything other than module here.", remain[0].SourceRange())...)
	}
	return module, diags
}

// resourceTypeAndName reads [data.|ephemeral.]TYPE.NAME.
func resourceTypeAndName(remain hcl.Traversal) (resourceAddr, hcl.Traversal, hcl.Diagnostics) {
	addr := resourceAddr{Mode: ManagedResourceMode}
	first, _ := stepName(remain[0])
	switch first {
	case "data":
		addr.Mode, remain = DataResourceMode, remain[1:]
	case "ephemeral":
		addr.Mode, remain = EphemeralResourceMode, remain[1:]
	}
	if len(remain) < 2 {
		// An empty remainder ("data" alone) has an empty range, as in OpenTofu.
		return addr, nil, addrError("Invalid address", "Resource specification must include a resource type and name.", remain.SourceRange())
	}
	typ, ok := stepName(remain[0])
	if !ok {
		detail := map[ResourceMode]string{
			ManagedResourceMode:   "A resource type name is required.",
			DataResourceMode:      "A data source name is required.",
			EphemeralResourceMode: "An ephemeral resource name is required.",
		}[addr.Mode]
		return addr, nil, addrError("Invalid address", detail, remain[0].SourceRange())
	}
	name, ok := remain[1].(hcl.TraverseAttr)
	if !ok {
		return addr, nil, addrError("Invalid address", "A resource name is required.", remain[1].SourceRange())
	}
	addr.Type, addr.Name = typ, name.Name
	return addr, remain[2:], nil
}

// parseMoveEndpoint is OpenTofu's ParseMoveEndpoint: a module instance or a
// resource instance, possibly inside module instances.
func parseMoveEndpoint(tr hcl.Traversal) (*endpoint, hcl.Diagnostics) {
	_, remain, diags := moduleInstancePrefix(tr)
	if diags.HasErrors() {
		return nil, diags
	}
	if len(remain) == 0 {
		return &endpoint{Module: true}, diags
	}
	addr, rest, d := resourceTypeAndName(remain)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return nil, diags
	}
	switch len(rest) {
	case 0:
	case 1:
		idx, ok := rest[0].(hcl.TraverseIndex)
		if !ok {
			return nil, append(diags, addrError("Invalid address", "Resource instance key must be given in square brackets.", rest[0].SourceRange())...)
		}
		if err := checkInstanceKey(idx.Key); err != nil {
			return nil, append(diags, addrError("Invalid address", fmt.Sprintf("Invalid resource instance key: %s.", err), rest[0].SourceRange())...)
		}
	default:
		return nil, append(diags, addrError("Invalid address", "Unexpected extra operators after address.", rest[1].SourceRange())...)
	}
	return &endpoint{Resource: addr}, diags
}

// parseRemoveEndpoint is OpenTofu's ParseRemoveEndpoint: a module or a
// managed resource, without instance keys.
func parseRemoveEndpoint(tr hcl.Traversal) (*endpoint, hcl.Diagnostics) {
	_, remain, diags := modulePrefix(tr)
	if diags.HasErrors() {
		return nil, diags
	}
	if len(remain) == 0 {
		return &endpoint{Module: true}, diags
	}
	addr, d := resourceUnderModule(remain)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return nil, diags
	}
	switch addr.Mode {
	case DataResourceMode:
		return nil, append(diags, addrError("Data source address is not allowed", "Data sources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove data sources from the state, you should remove the data source block from the configuration.", tr.SourceRange())...)
	case EphemeralResourceMode:
		return nil, append(diags, addrError("Ephemeral resource address is not allowed", "Ephemeral resources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove ephemeral resources from the state, you should remove the ephemeral resource block from the configuration.", tr.SourceRange())...)
	}
	return &endpoint{Resource: addr}, diags
}
