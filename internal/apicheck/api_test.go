// Package apicheck holds the check that keeps tfdeps' exported Go API
// deliberate: every public package's exported declarations are listed, one
// per line, and compared with the listing committed under api/ at the
// module root. A change to the API therefore shows up in review as a change
// to those files; running the test with TFDEPS_UPDATE_API=1 rewrites them.
// Packages under internal/, commands and the benchmark and example programs
// are not part of the API.
package apicheck

import (
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/go/packages"
)

const modulePath = "github.com/tfdeps/tfdeps"

func TestPublicAPI(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes, Dir: root}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatalf("loading the module's packages: %v", err)
	}
	apiDir := filepath.Join(root, "api")
	update := os.Getenv("TFDEPS_UPDATE_API") == "1"
	want := map[string]bool{}
	for _, p := range pkgs {
		if !public(p) {
			continue
		}
		if len(p.Errors) > 0 {
			t.Fatalf("%s: %v", p.PkgPath, p.Errors[0])
		}
		file := baselineName(p.PkgPath)
		want[file] = true
		got := listing(p.Types)
		path := filepath.Join(apiDir, file)
		if update {
			if err := os.MkdirAll(apiDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no API baseline (%v); a new public package is a deliberate change: run TFDEPS_UPDATE_API=1 go test ./internal/apicheck and commit api/%s", p.PkgPath, err, file)
			continue
		}
		if d := cmp.Diff(strings.Split(string(old), "\n"), strings.Split(got, "\n")); d != "" {
			t.Errorf("the exported API of %s differs from api/%s (-baseline +now):\n%s\nIf the change is deliberate, run TFDEPS_UPDATE_API=1 go test ./internal/apicheck and commit api/.", p.PkgPath, file, d)
		}
	}
	entries, _ := os.ReadDir(apiDir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".txt") && !want[e.Name()] {
			if update {
				os.Remove(filepath.Join(apiDir, e.Name()))
				continue
			}
			t.Errorf("api/%s names a package that is no longer public; remove it (TFDEPS_UPDATE_API=1) if that is deliberate", e.Name())
		}
	}
}

// public reports whether p is part of the importable API.
func public(p *packages.Package) bool {
	rel := strings.TrimPrefix(p.PkgPath, modulePath)
	if rel == p.PkgPath || p.Name == "main" {
		return false
	}
	for _, part := range strings.Split(strings.Trim(rel, "/"), "/") {
		switch part {
		case "internal", "testdata", "bench", "examples", "cmd":
			return false
		}
	}
	return true
}

// baselineName is the file under api/ that lists the package at path:
// its path inside the module with "/" written as ".".
func baselineName(path string) string {
	rel := strings.Trim(strings.TrimPrefix(path, modulePath), "/")
	return strings.ReplaceAll(rel, "/", ".") + ".txt"
}

// listing is one line per exported declaration of pkg, sorted: constants,
// variables, functions and types with their exported fields and methods.
func listing(pkg *types.Package) string {
	qual := types.RelativeTo(pkg)
	var lines []string
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		lines = append(lines, types.ObjectString(obj, qual))
		tn, ok := obj.(*types.TypeName)
		if !ok {
			continue
		}
		lines = append(lines, members(tn, qual)...)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}

// members lists the exported fields (of a struct) or interface methods of
// the named type and the exported methods of its method set and its
// pointer's.
func members(tn *types.TypeName, qual types.Qualifier) []string {
	var out []string
	name := tn.Name()
	switch u := tn.Type().Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if f := u.Field(i); f.Exported() {
				out = append(out, "field "+name+"."+f.Name()+" "+types.TypeString(f.Type(), qual))
			}
		}
	case *types.Interface:
		for i := 0; i < u.NumMethods(); i++ {
			if m := u.Method(i); m.Exported() {
				out = append(out, "method ("+name+") "+m.Name()+strings.TrimPrefix(types.TypeString(m.Type(), qual), "func"))
			}
		}
		return out
	}
	named, ok := tn.Type().(*types.Named)
	if !ok || tn.IsAlias() {
		return out
	}
	for i := 0; i < named.NumMethods(); i++ {
		m := named.Method(i)
		if !m.Exported() {
			continue
		}
		recv := name
		if _, ptr := m.Type().(*types.Signature).Recv().Type().(*types.Pointer); ptr {
			recv = "*" + name
		}
		out = append(out, "method ("+recv+") "+m.Name()+strings.TrimPrefix(types.TypeString(m.Type(), qual), "func"))
	}
	return out
}
