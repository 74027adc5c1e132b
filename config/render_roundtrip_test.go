package config

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/internal/conformance"
)

// conformanceConfigDir is where the shared conformance fixtures live,
// relative to this package; the fuzz test takes seeds from it when present.
var conformanceConfigDir = filepath.Join("..", "..", "shared", "conformance", "config")

// TestRenderRoundTrip is the property behind "tfdeps config": for every
// fixture that loads without errors, the rendered document (native and
// JSON), loaded alone as main.tf (main.tf.json) in an empty directory,
// gives the same module: the same objects with the same facts, the same
// syntax tree (attribute expressions compared by meaning) and the same
// rendering.
func TestRenderRoundTrip(t *testing.T) {
	root := conformance.Dir(t, "config")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	tested := 0
	for _, e := range entries {
		in := filepath.Join(root, e.Name(), "in")
		if _, err := os.Stat(in); err != nil {
			continue
		}
		mod, diags := LoadDir(".", WithFileSystem(OSFileSystem{Root: in}))
		if diags.HasErrors() {
			// A partial module renders too (the CLI does not print it).
			doc := mod.Document()
			doc.Render(RenderOptions{Explain: true})
			doc.RenderJSON()
			continue
		}
		tested++
		t.Run(e.Name(), func(t *testing.T) {
			doc := mod.Document()
			native := doc.Render(RenderOptions{})
			t.Run("native", func(t *testing.T) { checkRoundTrip(t, mod, "main.tf", native) })
			t.Run("json", func(t *testing.T) { checkRoundTrip(t, mod, "main.tf.json", doc.RenderJSON()) })
			t.Run("explain", func(t *testing.T) { checkRoundTrip(t, mod, "main.tf", doc.Render(RenderOptions{Explain: true})) })
		})
	}
	if tested == 0 {
		t.Fatal("no conformance fixture loaded without errors")
	}
}

func checkRoundTrip(t *testing.T, orig *Module, name string, rendered []byte) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), rendered, 0o666); err != nil {
		t.Fatal(err)
	}
	again, diags := LoadDir(".", WithFileSystem(OSFileSystem{Root: dir}))
	if diags.HasErrors() {
		t.Fatalf("loading the rendered document fails: %s\n%s", diags.Error(), rendered)
	}
	if diff := cmp.Diff(moduleFacts(orig), moduleFacts(again)); diff != "" {
		t.Errorf("module facts differ (-original +reloaded):\n%s\nrendered:\n%s", diff, rendered)
	}
	lenient := strings.HasSuffix(name, ".json")
	if diff := cmp.Diff(documentFacts(orig.Document(), lenient), documentFacts(again.Document(), lenient)); diff != "" {
		t.Errorf("documents differ (-original +reloaded):\n%s\nrendered:\n%s", diff, rendered)
	}
	want := orig.Document().Render(RenderOptions{})
	if !strings.HasSuffix(name, ".json") {
		if diff := cmp.Diff(withoutComments(want), withoutComments(again.Document().Render(RenderOptions{}))); diff != "" {
			t.Errorf("re-rendering differs (-original +reloaded):\n%s", diff)
		}
	}
}

// moduleFacts summarises what a module declares, one line per fact, from
// the loader's typed view.
func moduleFacts(m *Module) []string {
	var facts []string
	add := func(format string, args ...any) { facts = append(facts, fmt.Sprintf(format, args...)) }
	for n, v := range m.Variables {
		def := "none"
		if !v.Required() {
			def = v.Default.GoString()
		}
		add("variable %s type=%s default=%s desc=%q sensitive=%v ephemeral=%v nullable=%v const=%v deprecated=%q validations=%d",
			n, typeString(v), def, v.Description, v.Sensitive, v.Ephemeral, v.Nullable, v.Const, v.Deprecated, len(v.Validations))
	}
	for n := range m.Locals {
		add("local %s", n)
	}
	for n, o := range m.Outputs {
		add("output %s desc=%q sensitive=%v ephemeral=%v depends_on=%d", n, o.Description, o.Sensitive, o.Ephemeral, len(o.DependsOn))
	}
	for n, mc := range m.ModuleCalls {
		// With both set, OpenTofu uses count; the renderers leave for_each out.
		add("module %s source=%s version=%q providers=%d count=%v for_each=%v", n, mc.SourceAddr, mc.Version, len(mc.Providers), mc.Count != nil, mc.ForEach != nil && mc.Count == nil)
	}
	for k, p := range m.ProviderConfigs {
		add("provider %s version=%q", k, p.Version)
	}
	for n, rp := range m.RequiredProviders.RequiredProviders {
		add("required_provider %s source=%q type=%s version=%q aliases=%d", n, rp.Source, rp.Type, rp.Requirement.Required, len(rp.ConfigurationAliases))
	}
	if m.Backend != nil {
		add("backend %s", m.Backend.Type)
	}
	if m.Cloud != nil {
		add("cloud")
	}
	for p := range m.ProviderMetas {
		add("provider_meta %s", p)
	}
	for _, rs := range []map[string]*Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for k, r := range rs {
			add("resource %s provider=%s ref=%s container=%q depends_on=%d", k, r.Provider, r.ProviderConfigRef.String(), r.Container, len(r.DependsOn))
			if mr := r.Managed; mr != nil {
				add("resource %s lifecycle cbd=%v ignore=%d ignore_all=%v provisioners=%d connection=%v",
					k, mr.CreateBeforeDestroy, len(mr.IgnoreChanges), mr.IgnoreAllChanges, len(mr.Provisioners), mr.Connection != nil)
			}
		}
	}
	for n := range m.Checks {
		add("check %s", n)
	}
	add("moved=%d import=%d removed=%d encryption=%v", len(m.Moved), len(m.Imports), len(m.Removed), m.Encryption != nil)
	sort.Strings(facts)
	return facts
}

func typeString(v *Variable) string {
	if v.ConstraintType == cty.NilType {
		return "unset"
	}
	return typeexpr.TypeString(v.ConstraintType)
}

// withoutComments drops whole-line comments (notes the renderer adds) and
// formats again.
func withoutComments(src []byte) string {
	var kept []string
	for _, line := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			kept = append(kept, line)
		}
	}
	// A body that held only comments (an argument native syntax cannot
	// name is rendered as a comment) is an empty body.
	return emptyBody.ReplaceAllString(string(hclwrite.Format([]byte(strings.Join(kept, "\n")))), "{}")
}

var emptyBody = regexp.MustCompile(`\{\n[ \t]*\}`)
