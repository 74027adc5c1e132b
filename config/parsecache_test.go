package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/flavour"
)

// parseCacheTree writes roots r0…r(n-1), each with its own main.tf, all
// calling modules/shared (two files, one with a syntax error) and
// modules/other.
func parseCacheTree(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"modules/shared/main.tf":   "variable \"x\" {}\noutput \"y\" { value = var.x }\n",
		"modules/shared/broken.tf": "resource \"a\" \"b\" {\n  x = \n}\n",
		"modules/other/main.tf":    "terraform {\n  required_providers {\n    null = { source = \"hashicorp/null\" }\n  }\n}\n",
	}
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("r%d/main.tf", i)] = fmt.Sprintf("module \"s\" {\n  source = \"../modules/shared\"\n  x = %d\n}\nmodule \"o\" { source = \"../modules/other\" }\n", i)
	}
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// loadRoot loads a root and the modules it calls (relative to the tree's
// directory, as one root per process would name them), returning its
// diagnostics as text.
func loadRoot(dir, root string, opts ...Option) []string {
	opts = append([]Option{WithFileSystem(OSFileSystem{Root: dir})}, opts...)
	var diags hcl.Diagnostics
	for _, d := range []string{root, "modules/shared", "modules/other"} {
		_, ds := LoadDir(d, opts...)
		diags = append(diags, ds...)
	}
	var out []string
	for _, d := range diags {
		out = append(out, fmt.Sprintf("%s: %s: %s (%v)", d.Subject, d.Summary, d.Detail, d.Extra))
	}
	return out
}

// TestParseCacheConcurrentRoots: roots loaded at the same time through one
// cache parse each distinct file once and report exactly the diagnostics
// they report without it, in both flavours.
func TestParseCacheConcurrentRoots(t *testing.T) {
	const roots = 12
	dir := parseCacheTree(t, roots)
	for _, fl := range []flavour.Flavour{flavour.OpenTofu, flavour.Terraform} {
		t.Run(fl.String(), func(t *testing.T) {
			want := make([][]string, roots)
			for i := range want {
				want[i] = loadRoot(dir, fmt.Sprintf("r%d", i), WithFlavour(fl))
			}
			if len(want[0]) == 0 {
				t.Fatal("the broken file gave no diagnostic")
			}
			cache := NewParseCache(0)
			got := make([][]string, roots)
			var wg sync.WaitGroup
			for i := range got {
				wg.Add(1)
				go func() {
					defer wg.Done()
					got[i] = loadRoot(dir, fmt.Sprintf("r%d", i), WithFlavour(fl), WithParseCache(cache))
				}()
			}
			wg.Wait()
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("diagnostics (-without cache +with):\n%s", diff)
			}
			// 12 roots' main.tf, and the three module files once.
			if got, want := cache.Parses(), roots+3; got != want {
				t.Errorf("%d files parsed, want %d", got, want)
			}
		})
	}
}

func TestParseCacheKeys(t *testing.T) {
	tests := []struct {
		name       string
		maxBytes   int64
		loads      []struct{ name, src string }
		wantParses int
	}{
		{
			name:       "same name and content: parsed once",
			loads:      []struct{ name, src string }{{"a.tf", "locals {}\n"}, {"a.tf", "locals {}\n"}},
			wantParses: 1,
		},
		{
			name:       "same content under another name: parsed again (names are in ranges)",
			loads:      []struct{ name, src string }{{"a.tf", "locals {}\n"}, {"b/a.tf", "locals {}\n"}},
			wantParses: 2,
		},
		{
			name:       "changed content: parsed again",
			loads:      []struct{ name, src string }{{"a.tf", "locals {}\n"}, {"a.tf", "locals { x = 1 }\n"}, {"a.tf", "locals {}\n"}},
			wantParses: 2,
		},
		{
			name:       "over the limit: the oldest is let go",
			maxBytes:   12,
			loads:      []struct{ name, src string }{{"a.tf", "locals {}\n"}, {"b.tf", "locals {}\n"}, {"a.tf", "locals {}\n"}},
			wantParses: 3,
		},
		{
			name:       "larger than the limit: never kept",
			maxBytes:   4,
			loads:      []struct{ name, src string }{{"a.tf", "locals {}\n"}, {"a.tf", "locals {}\n"}},
			wantParses: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewParseCache(tt.maxBytes)
			for _, l := range tt.loads {
				f, diags := c.parse(l.name, []byte(l.src))
				if f == nil || diags.HasErrors() {
					t.Fatalf("parse %s: %v", l.name, diags)
				}
			}
			if got := c.Parses(); got != tt.wantParses {
				t.Errorf("%d parses, want %d", got, tt.wantParses)
			}
		})
	}
}

// TestParseCacheDiagnosticsCopied: a load changing its diagnostics does
// not change another load's.
func TestParseCacheDiagnosticsCopied(t *testing.T) {
	c := NewParseCache(0)
	_, d1 := c.parse("x.tf", []byte("locals {\n"))
	if len(d1) == 0 {
		t.Fatal("no diagnostic for an unclosed block")
	}
	markSyntax(d1)
	d1[0].Summary = "changed"
	_, d2 := c.parse("x.tf", []byte("locals {\n"))
	if d2[0].Summary == "changed" || d2[0].Extra != nil {
		t.Errorf("second load's diagnostic was changed by the first: %+v", d2[0])
	}
}
