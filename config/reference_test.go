package config

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// TestConformanceReferenceBodies compares every merged configuration body
// (resources, module calls, providers, backend, cloud, provider_meta) and
// declaration range with the full OpenTofu result in reference.json.
func TestConformanceReferenceBodies(t *testing.T) {
	eachReferenceFixture(t, func(t *testing.T, raw []byte, in string) {
		var ref struct {
			Module map[string]json.RawMessage `json:"module"`
		}
		if err := json.Unmarshal(raw, &ref); err != nil {
			t.Fatal(err)
		}
		var opts []Option
		opts = append(opts, WithFileSystem(OSFileSystem{Root: in}))
		m, _ := LoadDir(".", opts...)
		want := map[string]any{}
		got := map[string]any{}
		collect := func(key string, into map[string]any, fn func(string, map[string]any)) {
			var objs map[string]map[string]any
			if raw := ref.Module[key]; raw != nil && string(raw) != "null" {
				_ = json.Unmarshal(raw, &objs)
			}
			for k, o := range objs {
				fn(key+" "+k, o)
			}
		}
		for _, key := range []string{"managed_resources", "data_resources", "ephemeral_resources", "module_calls", "provider_configs", "provider_metas"} {
			collect(key, want, func(k string, o map[string]any) {
				want[k] = map[string]any{"at": o["at"], "config": normaliseRefBody(o["config"])}
			})
		}
		for _, key := range []string{"backend", "cloud"} {
			var o map[string]any
			if raw := ref.Module[key]; raw != nil {
				_ = json.Unmarshal(raw, &o)
			}
			if o != nil {
				want[key] = map[string]any{"at": o["at"], "config": normaliseRefBody(o["config"])}
			}
		}
		add := func(k string, decl hcl.Range, b *Body) {
			got[k] = map[string]any{"at": subjectString(&decl), "config": bodyJSON(b)}
		}
		for k, r := range m.ManagedResources {
			add("managed_resources "+k, r.DeclRange, r.Config())
		}
		for k, r := range m.DataResources {
			add("data_resources "+k, r.DeclRange, r.Config())
		}
		for k, r := range m.EphemeralResources {
			add("ephemeral_resources "+k, r.DeclRange, r.Config())
		}
		for k, mc := range m.ModuleCalls {
			add("module_calls "+k, mc.DeclRange, mc.Config())
		}
		for k, p := range m.ProviderConfigs {
			add("provider_configs "+k, p.DeclRange, p.Config())
		}
		for p, pm := range m.ProviderMetas {
			add("provider_metas "+p.String(), pm.DeclRange, pm.Syntax.Body)
		}
		if m.Backend != nil {
			add("backend", m.Backend.DeclRange, m.Backend.Syntax.Body)
		}
		if m.Cloud != nil {
			add("cloud", m.Cloud.DeclRange, m.Cloud.Syntax.Body)
		}
		t.Logf("%d objects compared", len(want))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("bodies (-reference +got):\n%s", diff)
		}
	})
}

// normaliseRefBody keeps the "at" of attributes and blocks.
func normaliseRefBody(v any) any {
	b, _ := v.(map[string]any)
	out := map[string]any{}
	attrs := map[string]any{}
	if as, ok := b["attributes"].(map[string]any); ok {
		for n, a := range as {
			attrs[n] = a.(map[string]any)["at"]
		}
	}
	out["attributes"] = attrs
	blocks := []any{}
	if bs, ok := b["blocks"].([]any); ok {
		for _, x := range bs {
			blk := x.(map[string]any)
			labels := []any{}
			if ls, ok := blk["labels"].([]any); ok {
				labels = ls
			}
			blocks = append(blocks, map[string]any{"type": blk["type"], "labels": labels, "at": blk["at"], "body": normaliseRefBody(blk["body"])})
		}
	}
	out["blocks"] = blocks
	return out
}

func bodyJSON(b *Body) any {
	attrs := map[string]any{}
	for _, a := range b.Attributes {
		r := a.Expr.Range()
		attrs[a.Name] = subjectString(&r)
	}
	blocks := []any{}
	for _, blk := range b.Blocks {
		labels := []any{}
		for _, l := range blk.Labels {
			labels = append(labels, l)
		}
		blocks = append(blocks, map[string]any{"type": blk.Type, "labels": labels, "at": subjectString(&blk.DefRange), "body": bodyJSON(blk.Body)})
	}
	return map[string]any{"attributes": attrs, "blocks": blocks}
}
