package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"encoding/json"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// This file evaluates the assertion paths of the conformance data
// (conformance/config/README.md) against a loaded Module.

// found is what a path names: nothing, an expression, or a plain value.
type found struct {
	exists   bool
	expr     hcl.Expression
	value    any
	hasValue bool
}

func none() found                       { return found{} }
func exprResult(e hcl.Expression) found { return found{exists: e != nil, expr: e} }
func valueResult(v any) found           { return found{exists: true, value: v, hasValue: true} }

// splitAssertionPath splits on dots outside double quotes.
func splitAssertionPath(p string) []string {
	var segs []string
	var cur strings.Builder
	quoted := false
	for _, r := range p {
		switch {
		case r == '"':
			quoted = !quoted
		case r == '.' && !quoted:
			segs = append(segs, cur.String())
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	return append(segs, cur.String())
}

func evalAssertionPath(m *Module, path string) (found, error) {
	segs := splitAssertionPath(path)
	need := func(n int) error {
		if len(segs) < n {
			return fmt.Errorf("path %q too short", path)
		}
		return nil
	}
	if err := need(2); err != nil {
		return none(), err
	}
	switch segs[0] {
	case "names":
		return valueResult(names(m, segs[1])), nil
	case "variable":
		v := m.Variables[segs[1]]
		if v == nil {
			return none(), nil
		}
		return variableField(v, segs[2:])
	case "local":
		l := m.Locals[segs[1]]
		if l == nil {
			return none(), nil
		}
		if len(segs) == 2 {
			return exprResult(l.Expr), nil
		}
		if segs[2] == "decl_file" {
			return valueResult(l.DeclRange.Filename), nil
		}
	case "output":
		o := m.Outputs[segs[1]]
		if o == nil {
			return none(), nil
		}
		return outputField(o, segs[2:])
	case "module":
		mc := m.ModuleCalls[segs[1]]
		if mc == nil {
			return none(), nil
		}
		return moduleField(mc, segs[2:])
	case "resource", "data", "ephemeral":
		if err := need(3); err != nil {
			return none(), err
		}
		var r *Resource
		switch segs[0] {
		case "resource":
			r = m.ManagedResources[segs[1]+"."+segs[2]]
		case "data":
			r = m.DataResources["data."+segs[1]+"."+segs[2]]
		default:
			r = m.EphemeralResources["ephemeral."+segs[1]+"."+segs[2]]
		}
		if r == nil {
			return none(), nil
		}
		return resourceField(r, segs[3:])
	case "provider":
		p := m.ProviderConfigs[segs[1]]
		if p == nil {
			return none(), nil
		}
		return providerField(p, segs[2:])
	case "terraform":
		return terraformField(m, segs[1:])
	case "check":
		c := m.Checks[segs[1]]
		if c == nil {
			return none(), nil
		}
		return checkField(c, segs[2:])
	case "import":
		n, err := strconv.Atoi(segs[1])
		if err != nil {
			return none(), err
		}
		if n >= len(m.Imports) {
			return none(), nil
		}
		return importField(m.Imports[n], segs[2:])
	}
	return none(), fmt.Errorf("unsupported path %q", path)
}

func names(m *Module, kind string) []string {
	out := []string{}
	switch kind {
	case "variable":
		for n := range m.Variables {
			out = append(out, n)
		}
	case "local":
		for n := range m.Locals {
			out = append(out, n)
		}
	case "output":
		for n := range m.Outputs {
			out = append(out, n)
		}
	case "module":
		for n := range m.ModuleCalls {
			out = append(out, n)
		}
	case "resource":
		for _, r := range m.ManagedResources {
			out = append(out, r.Type+"."+r.Name)
		}
	case "data":
		for _, r := range m.DataResources {
			out = append(out, r.Type+"."+r.Name)
		}
	case "ephemeral":
		for _, r := range m.EphemeralResources {
			out = append(out, r.Type+"."+r.Name)
		}
	case "provider":
		for n := range m.ProviderConfigs {
			out = append(out, n)
		}
	case "check":
		for n := range m.Checks {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func declFile(segs []string, r hcl.Range) (found, bool) {
	if len(segs) == 1 && segs[0] == "decl_file" {
		return valueResult(r.Filename), true
	}
	return none(), false
}

func variableField(v *Variable, segs []string) (found, error) {
	if len(segs) == 0 {
		return found{exists: true}, nil
	}
	if f, ok := declFile(segs, v.DeclRange); ok {
		return f, nil
	}
	switch segs[0] {
	case "default":
		if v.Default == cty.NilVal {
			return none(), nil
		}
		j, err := ctyToJSON(v.Default)
		return valueResult(j), err
	case "type":
		return valueResult(TypeString(v.ConstraintType)), nil
	case "description":
		return valueResult(v.Description), nil
	case "sensitive":
		return valueResult(v.Sensitive), nil
	case "ephemeral":
		return valueResult(v.Ephemeral), nil
	case "nullable":
		return valueResult(v.Nullable), nil
	case "const":
		return valueResult(v.Const), nil
	case "deprecated":
		return valueResult(v.Deprecated), nil
	case "required":
		return valueResult(v.Required()), nil
	case "validations":
		return valueResult(ruleMessages(v.Validations)), nil
	}
	return none(), fmt.Errorf("unknown variable field %v", segs)
}

func outputField(o *Output, segs []string) (found, error) {
	if len(segs) == 0 {
		return found{exists: true}, nil
	}
	if f, ok := declFile(segs, o.DeclRange); ok {
		return f, nil
	}
	switch segs[0] {
	case "value":
		return exprResult(o.Expr), nil
	case "description":
		return valueResult(o.Description), nil
	case "sensitive":
		return valueResult(o.Sensitive), nil
	case "ephemeral":
		return valueResult(o.Ephemeral), nil
	case "deprecated":
		return valueResult(o.Deprecated), nil
	case "depends_on":
		return valueResult(traversalStrings(o.DependsOn)), nil
	case "preconditions":
		return valueResult(ruleMessages(o.Preconditions)), nil
	}
	return none(), fmt.Errorf("unknown output field %v", segs)
}

func moduleField(mc *ModuleCall, segs []string) (found, error) {
	if len(segs) == 0 {
		return found{exists: true}, nil
	}
	if f, ok := declFile(segs, mc.DeclRange); ok {
		return f, nil
	}
	switch segs[0] {
	case "source":
		return exprResult(mc.SourceExpr), nil
	case "source_addr":
		return valueResult(mc.SourceAddr), nil
	case "version":
		if !mc.HasVersion {
			return none(), nil
		}
		return valueResult(mc.Version), nil
	case "providers":
		list := []string{}
		for _, p := range mc.Providers {
			list = append(list, p.InChild.String()+" = "+p.InParent.String())
		}
		return valueResult(list), nil
	case "count":
		return exprResult(mc.Count), nil
	case "for_each":
		return exprResult(mc.ForEach), nil
	case "depends_on":
		return valueResult(traversalStrings(mc.DependsOn)), nil
	}
	return bodyField(mc.Config(), segs)
}

func resourceField(r *Resource, segs []string) (found, error) {
	if len(segs) == 0 {
		return found{exists: true}, nil
	}
	if f, ok := declFile(segs, r.DeclRange); ok {
		return f, nil
	}
	switch segs[0] {
	case "provider":
		return valueResult(r.Provider.String()), nil
	case "provider_ref":
		if r.ProviderConfigRef == nil {
			return none(), nil
		}
		return valueResult(r.ProviderConfigRef.String()), nil
	case "count":
		return exprResult(r.Count), nil
	case "for_each":
		return exprResult(r.ForEach), nil
	case "enabled":
		return exprResult(r.Enabled), nil
	case "depends_on":
		return valueResult(traversalStrings(r.DependsOn)), nil
	case "preconditions":
		return valueResult(ruleMessages(r.Preconditions)), nil
	case "postconditions":
		return valueResult(ruleMessages(r.Postconditions)), nil
	case "lifecycle":
		if len(segs) < 2 {
			return none(), fmt.Errorf("lifecycle needs a field")
		}
		return lifecycleField(r, segs[1])
	case "connection":
		if r.Managed == nil || r.Managed.Connection == nil || r.Managed.Connection.Syntax == nil {
			return none(), nil
		}
		return bodyField(r.Managed.Connection.Syntax.Body, segs[1:])
	case "provisioners":
		list := []string{}
		if r.Managed != nil {
			for _, p := range r.Managed.Provisioners {
				list = append(list, p.Type)
			}
		}
		return valueResult(list), nil
	}
	return bodyField(r.Config(), segs)
}

func lifecycleField(r *Resource, field string) (found, error) {
	m := r.Managed
	if m == nil {
		return none(), nil
	}
	switch field {
	case "create_before_destroy":
		return valueResult(m.CreateBeforeDestroy), nil
	case "ignore_all_changes":
		return valueResult(m.IgnoreAllChanges), nil
	case "ignore_changes":
		list := []string{}
		for _, tr := range m.IgnoreChanges {
			list = append(list, traversalString(tr))
		}
		return valueResult(list), nil
	case "prevent_destroy":
		return exprResult(m.PreventDestroy), nil
	case "destroy":
		return exprResult(m.Destroy), nil
	case "replace_triggered_by":
		list := []string{}
		for _, e := range r.TriggersReplacement {
			list = append(list, exprSource(e))
		}
		return valueResult(list), nil
	}
	return none(), fmt.Errorf("unknown lifecycle field %q", field)
}

func providerField(p *ProviderConfig, segs []string) (found, error) {
	if len(segs) == 0 {
		return found{exists: true}, nil
	}
	if f, ok := declFile(segs, p.DeclRange); ok {
		return f, nil
	}
	switch segs[0] {
	case "version":
		if !p.VersionSet {
			return none(), nil
		}
		return valueResult(p.Version), nil
	case "for_each":
		return exprResult(p.ForEach), nil
	}
	return bodyField(p.Config(), segs)
}

func terraformField(m *Module, segs []string) (found, error) {
	switch segs[0] {
	case "backend":
		if m.Backend == nil {
			return none(), nil
		}
		if len(segs) == 1 {
			return found{exists: true}, nil
		}
		if f, ok := declFile(segs[1:], m.Backend.DeclRange); ok {
			return f, nil
		}
		if segs[1] == "type" {
			return valueResult(m.Backend.Type), nil
		}
		return bodyField(m.Backend.Syntax.Body, segs[1:])
	case "cloud":
		if m.Cloud == nil {
			return none(), nil
		}
		if len(segs) == 1 {
			return found{exists: true}, nil
		}
		if f, ok := declFile(segs[1:], m.Cloud.DeclRange); ok {
			return f, nil
		}
		return bodyField(m.Cloud.Syntax.Body, segs[1:])
	case "required_providers":
		if len(segs) < 2 {
			return none(), fmt.Errorf("required_providers needs a name")
		}
		rp := m.RequiredProviders.RequiredProviders[segs[1]]
		if rp == nil {
			return none(), nil
		}
		return requiredProviderField(rp, segs[2:])
	case "provider_meta":
		if len(segs) < 2 {
			return none(), fmt.Errorf("provider_meta needs a name")
		}
		for _, pm := range m.ProviderMetas {
			if pm.Provider == segs[1] {
				if len(segs) == 2 {
					return found{exists: true}, nil
				}
				if f, ok := declFile(segs[2:], pm.DeclRange); ok {
					return f, nil
				}
				return bodyField(pm.Syntax.Body, segs[2:])
			}
		}
		return none(), nil
	}
	return none(), fmt.Errorf("unknown terraform field %v", segs)
}

func requiredProviderField(rp *RequiredProvider, segs []string) (found, error) {
	if len(segs) == 0 {
		return found{exists: true}, nil
	}
	if f, ok := declFile(segs, rp.DeclRange); ok {
		return f, nil
	}
	switch segs[0] {
	case "source":
		return valueResult(rp.Source), nil
	case "fqn":
		return valueResult(rp.Type.String()), nil
	case "version":
		if !rp.Requirement.Set {
			return none(), nil
		}
		return valueResult(rp.Requirement.Required), nil
	case "configuration_aliases":
		list := []string{}
		for _, a := range rp.ConfigurationAliases {
			list = append(list, a.String())
		}
		return valueResult(list), nil
	}
	return none(), fmt.Errorf("unknown required_providers field %v", segs)
}

func checkField(c *Check, segs []string) (found, error) {
	if len(segs) == 0 {
		return found{exists: true}, nil
	}
	if f, ok := declFile(segs, c.DeclRange); ok {
		return f, nil
	}
	switch segs[0] {
	case "data":
		if c.DataResource == nil {
			return none(), nil
		}
		return valueResult("data." + c.DataResource.Type + "." + c.DataResource.Name), nil
	case "asserts":
		return valueResult(ruleMessages(c.Asserts)), nil
	}
	return none(), fmt.Errorf("unknown check field %v", segs)
}

func importField(i *Import, segs []string) (found, error) {
	if len(segs) == 0 {
		return found{exists: true}, nil
	}
	if f, ok := declFile(segs, i.DeclRange); ok {
		return f, nil
	}
	switch segs[0] {
	case "to":
		return exprResult(i.To), nil
	case "id":
		return exprResult(i.ID), nil
	case "provider":
		return valueResult(i.Provider.String()), nil
	}
	return none(), fmt.Errorf("unknown import field %v", segs)
}

// bodyField evaluates attr.NAME, blocks and block.TYPE.N[...] on a body.
func bodyField(b *Body, segs []string) (found, error) {
	if len(segs) == 0 {
		return found{exists: b != nil}, nil
	}
	switch segs[0] {
	case "attr":
		if len(segs) != 2 {
			return none(), fmt.Errorf("attr needs a name")
		}
		a := b.Attribute(segs[1])
		if a == nil {
			return none(), nil
		}
		return exprResult(a.Expr), nil
	case "blocks":
		list := []string{}
		for _, blk := range b.Blocks {
			list = append(list, strings.Join(append([]string{blk.Type}, blk.Labels...), " "))
		}
		return valueResult(list), nil
	case "block":
		if len(segs) < 3 {
			return none(), fmt.Errorf("block needs a type and an index")
		}
		n, err := strconv.Atoi(segs[2])
		if err != nil {
			return none(), err
		}
		of := b.BlocksOfType(segs[1])
		if n >= len(of) {
			return none(), nil
		}
		return bodyField(of[n].Body, segs[3:])
	}
	return none(), fmt.Errorf("unknown body field %v", segs)
}

func ruleMessages(rules []*CheckRule) []string {
	out := []string{}
	for _, r := range rules {
		if r.ErrorMessage != nil {
			out = append(out, exprSource(r.ErrorMessage))
		}
	}
	return out
}

func traversalStrings(trs []hcl.Traversal) []string {
	out := []string{}
	for _, tr := range trs {
		out = append(out, traversalString(tr))
	}
	return out
}

// sourceFiles lets exprSource read the bytes of an expression's range.
var sourceFiles = map[string][]byte{}

func exprSource(e hcl.Expression) string {
	r := e.Range()
	src := sourceFiles[r.Filename]
	if r.End.Byte > len(src) || r.Start.Byte > r.End.Byte {
		return ""
	}
	return string(src[r.Start.Byte:r.End.Byte])
}

func ctyToJSON(v cty.Value) (any, error) {
	if !v.IsWhollyKnown() {
		return nil, fmt.Errorf("value is unknown")
	}
	raw, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(raw, &out)
	return out, err
}
