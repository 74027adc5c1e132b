package config

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// TestConformanceReferenceMeta compares meta-arguments of resources, module
// calls, provider configurations, imports and checks with reference.json.
func TestConformanceReferenceMeta(t *testing.T) {
	eachReferenceFixture(t, func(t *testing.T, raw []byte, in string) {
		var ref struct {
			Module map[string]json.RawMessage `json:"module"`
		}
		if err := json.Unmarshal(raw, &ref); err != nil {
			t.Fatal(err)
		}
		m, _ := LoadDir(".", WithFileSystem(OSFileSystem{Root: in}))
		want := map[string]any{}
		var objs map[string]map[string]any
		for _, key := range []string{"managed_resources", "data_resources", "ephemeral_resources"} {
			objs = nil
			_ = json.Unmarshal(ref.Module[key], &objs)
			for k, o := range objs {
				w := map[string]any{"count": at(o["count"]), "for_each": at(o["for_each"]), "enabled": at(o["enabled"]),
					"provider": o["provider"], "depends_on": o["depends_on"], "preconditions": count(o["preconditions"]),
					"postconditions": count(o["postconditions"]), "replace_triggered_by": count(o["replace_triggered_by"])}
				if ref, ok := o["provider_config_ref"].(map[string]any); ok {
					w["provider_ref"] = ref["string"]
				} else {
					w["provider_ref"] = nil
				}
				if mg, ok := o["managed"].(map[string]any); ok {
					provs := []any{}
					for _, p := range mg["provisioners"].([]any) {
						provs = append(provs, p.(map[string]any)["at"])
					}
					w["managed"] = map[string]any{"connection": at(mg["connection"]), "create_before_destroy": mg["create_before_destroy"],
						"ignore_all_changes": mg["ignore_all_changes"], "ignore_changes": mg["ignore_changes"], "prevent_destroy": at(mg["prevent_destroy"]),
						"destroy": at(mg["destroy"]), "provisioners": provs}
				}
				want[key+" "+k] = w
			}
		}
		objs = nil
		_ = json.Unmarshal(ref.Module["module_calls"], &objs)
		for k, o := range objs {
			provs := []any{}
			for _, p := range o["providers"].([]any) {
				pm := p.(map[string]any)
				provs = append(provs, pm["in_child"].(map[string]any)["string"].(string)+"="+pm["in_parent"].(map[string]any)["string"].(string))
			}
			want["module "+k] = map[string]any{"count": at(o["count"]), "for_each": at(o["for_each"]), "depends_on": o["depends_on"],
				"source": at(o["source"]), "source_addr": o["source_addr"], "providers": provs}
		}
		objs = nil
		_ = json.Unmarshal(ref.Module["provider_configs"], &objs)
		for k, o := range objs {
			var version any
			if v, ok := o["version"].(map[string]any); ok {
				version = v["constraint"]
			}
			want["provider "+k] = map[string]any{"alias": o["alias"], "for_each": at(o["for_each"]), "version": version}
		}
		var imports []map[string]any
		_ = json.Unmarshal(ref.Module["import"], &imports)
		for i, o := range imports {
			want["import "+string(rune('0'+i))] = map[string]any{"at": o["at"], "to": at(o["to"]), "id": at(o["id"]), "provider": o["provider"], "resolved_to": o["resolved_to"]}
		}
		objs = nil
		_ = json.Unmarshal(ref.Module["checks"], &objs)
		for k, o := range objs {
			want["check "+k] = map[string]any{"at": o["at"], "data": o["data_resource"], "asserts": count(o["asserts"])}
		}

		got := map[string]any{}
		res := func(key string, rs map[string]*Resource) {
			for k, r := range rs {
				g := map[string]any{"count": exprAt(r.Count), "for_each": exprAt(r.ForEach), "enabled": exprAt(r.Enabled),
					"provider": r.Provider.String(), "depends_on": traversalStrings(r.DependsOn), "preconditions": len(r.Preconditions),
					"postconditions": len(r.Postconditions), "replace_triggered_by": len(r.TriggersReplacement), "provider_ref": nil}
				if r.ProviderConfigRef != nil {
					g["provider_ref"] = r.ProviderConfigRef.String()
				}
				if mg := r.Managed; mg != nil {
					var conn any
					if mg.Connection != nil {
						conn = subjectString(&mg.Connection.DeclRange)
					}
					ign := []any{}
					for _, tr := range mg.IgnoreChanges {
						ign = append(ign, "."+traversalString(tr))
					}
					provs := []any{}
					for _, p := range mg.Provisioners {
						provs = append(provs, subjectString(&p.DeclRange))
					}
					g["managed"] = map[string]any{"connection": conn, "create_before_destroy": mg.CreateBeforeDestroy,
						"ignore_all_changes": mg.IgnoreAllChanges, "ignore_changes": ign, "prevent_destroy": exprAt(mg.PreventDestroy),
						"destroy": exprAt(mg.Destroy), "provisioners": provs}
				}
				got[key+" "+k] = g
			}
		}
		res("managed_resources", m.ManagedResources)
		res("data_resources", m.DataResources)
		res("ephemeral_resources", m.EphemeralResources)
		for k, mc := range m.ModuleCalls {
			provs := []any{}
			for _, p := range mc.Providers {
				provs = append(provs, p.InChild.String()+"="+p.InParent.String())
			}
			got["module "+k] = map[string]any{"count": exprAt(mc.Count), "for_each": exprAt(mc.ForEach), "depends_on": traversalStrings(mc.DependsOn),
				"source": exprAt(mc.SourceExpr), "source_addr": mc.SourceAddr, "providers": provs}
		}
		for k, p := range m.ProviderConfigs {
			var version any
			if p.VersionSet {
				version = p.Version
			}
			got["provider "+k] = map[string]any{"alias": p.Alias, "for_each": exprAt(p.ForEach), "version": version}
		}
		for i, imp := range m.Imports {
			var resolved any
			if imp.ResolvedTo != "" {
				resolved = imp.ResolvedTo
			}
			got["import "+string(rune('0'+i))] = map[string]any{"at": subjectString(&imp.DeclRange), "to": exprAt(imp.To), "id": exprAt(imp.ID),
				"provider": imp.Provider.String(), "resolved_to": resolved}
		}
		for k, c := range m.Checks {
			var data any
			if c.DataResource != nil {
				data = "data." + c.DataResource.Type + "." + c.DataResource.Name
			}
			got["check "+k] = map[string]any{"at": subjectString(&c.DeclRange), "data": data, "asserts": len(c.Asserts)}
		}
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		var wn, gn any
		_ = json.Unmarshal(wj, &wn)
		_ = json.Unmarshal(gj, &gn)
		if diff := cmp.Diff(wn, gn); diff != "" {
			t.Errorf("meta (-reference +got):\n%s", diff)
		}
	})
}

func at(v any) any {
	if m, ok := v.(map[string]any); ok {
		return m["at"]
	}
	return nil
}

func count(v any) int {
	l, _ := v.([]any)
	return len(l)
}

func exprAt(e hcl.Expression) any {
	if e == nil {
		return nil
	}
	r := e.Range()
	return subjectString(&r)
}
