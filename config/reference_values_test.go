package config

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestConformanceReferenceValues compares variables, outputs, locals and
// required_providers with reference.json field by field.
func TestConformanceReferenceValues(t *testing.T) {
	eachReferenceFixture(t, func(t *testing.T, raw []byte, in string) {
		var ref struct {
			Module struct {
				Variables map[string]map[string]any `json:"variables"`
				Outputs   map[string]map[string]any `json:"outputs"`
				Locals    map[string]map[string]any `json:"locals"`
				Required  struct {
					Providers map[string]map[string]any `json:"providers"`
				} `json:"required_providers"`
			} `json:"module"`
		}
		if err := json.Unmarshal(raw, &ref); err != nil {
			t.Fatal(err)
		}
		m, _ := LoadDir(".", WithFileSystem(OSFileSystem{Root: in}))
		for name, f := range m.Document().Files {
			sourceFiles[name] = f.Bytes
		}
		want, got := map[string]any{}, map[string]any{}
		pick := func(o map[string]any, keys ...string) map[string]any {
			out := map[string]any{}
			for _, k := range keys {
				out[k] = o[k]
			}
			return out
		}
		varKeys := []string{"at", "type", "constraint_type", "description", "sensitive", "ephemeral", "nullable", "const", "deprecated", "required", "parsing_mode", "default"}
		for n, v := range ref.Module.Variables {
			want["variable "+n] = pick(v, varKeys...)
		}
		for n, v := range m.Variables {
			var def any
			switch {
			case v.Default == cty.NilVal:
			case !v.Default.IsWhollyKnown():
				def = "<unknown>"
			default:
				def, _ = ctyToJSON(v.Default)
			}
			got["variable "+n] = map[string]any{
				"at": subjectString(&v.DeclRange), "type": TypeString(v.Type), "constraint_type": TypeString(v.ConstraintType),
				"description": v.Description, "sensitive": v.Sensitive, "ephemeral": v.Ephemeral, "nullable": v.Nullable,
				"const": v.Const, "deprecated": v.Deprecated, "required": v.Required(), "parsing_mode": string(v.ParsingMode), "default": def,
			}
		}
		for n, o := range ref.Module.Outputs {
			w := pick(o, "at", "description", "sensitive", "ephemeral", "deprecated")
			if val, ok := o["value"].(map[string]any); ok {
				w["value"] = val["at"]
			} else {
				w["value"] = nil
			}
			want["output "+n] = w
		}
		for n, o := range m.Outputs {
			var val any
			if o.Expr != nil {
				r := o.Expr.Range()
				val = subjectString(&r)
			}
			got["output "+n] = map[string]any{"at": subjectString(&o.DeclRange), "description": o.Description, "sensitive": o.Sensitive,
				"ephemeral": o.Ephemeral, "deprecated": o.Deprecated, "value": val}
		}
		for n, l := range ref.Module.Locals {
			want["local "+n] = map[string]any{"at": l["at"], "expr": l["expr"].(map[string]any)["at"]}
		}
		for n, l := range m.Locals {
			r := l.Expr.Range()
			got["local "+n] = map[string]any{"at": subjectString(&l.DeclRange), "expr": subjectString(&r)}
		}
		for n, p := range ref.Module.Required.Providers {
			w := pick(p, "at", "fqn", "source", "version")
			w["aliases"] = len(p["configuration_aliases"].([]any))
			want["required "+n] = w
		}
		for n, p := range m.RequiredProviders.RequiredProviders {
			var version any
			if p.Requirement.Set {
				version = map[string]any{"at": subjectString(&p.Requirement.DeclRange), "constraint": p.Requirement.Required}
			}
			got["required "+n] = map[string]any{"at": subjectString(&p.DeclRange), "fqn": p.Type.String(), "source": p.Source,
				"version": version, "aliases": len(p.ConfigurationAliases)}
		}
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		var wn, gn any
		_ = json.Unmarshal(wj, &wn)
		_ = json.Unmarshal(gj, &gn)
		if diff := cmp.Diff(wn, gn); diff != "" {
			t.Errorf("values (-reference +got):\n%s", diff)
		}
	})
}
