package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

func TestLoadRefusesDeepNesting(t *testing.T) {
	const n = 80000
	tests := []struct {
		name, file, src string
		want            hcl.Pos
	}{
		{"native tuple", "main.tf", "locals {\n  x = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n}\n",
			hcl.Pos{Line: 2, Column: 7 + 999, Byte: 15 + 999}},
		{"native object", "main.tf", "locals {\n  x = " + strings.Repeat("{a=", n) + "1" + strings.Repeat("}", n) + "\n}\n",
			hcl.Pos{Line: 2, Column: 7 + 3*999, Byte: 15 + 3*999}},
		{"json tuple", "main.tf.json", `{"locals": {"x": ` + strings.Repeat("[", n) + strings.Repeat("]", n) + "}}",
			hcl.Pos{Line: 1, Column: 18 + 998, Byte: 17 + 998}},
		{"json template", "main.tf.json", `{"locals": {"x": "${` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}"}}`,
			hcl.Pos{Line: 1, Column: 18, Byte: 17}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, diags := LoadDir(dir)
			if len(diags) != 1 || diags[0].Summary != "Nesting too deep" {
				t.Fatalf("diagnostics = %v, want one nesting error", diags)
			}
			want := &hcl.Range{Filename: filepath.Join(dir, tt.file), Start: tt.want,
				End: hcl.Pos{Line: tt.want.Line, Column: tt.want.Column + 1, Byte: tt.want.Byte + 1}}
			if diff := cmp.Diff(want, diags[0].Subject); diff != "" {
				t.Errorf("subject (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadFileTooLarge(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.tf")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, MaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	_, diags := LoadDir(dir)
	want := hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Configuration file too large",
		Detail:   fmt.Sprintf("The file %q is larger than 16 MiB, the most tfdeps reads of one configuration file.", path),
	}}
	if diff := cmp.Diff(want, diags); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestRenderDeepWithinLimit loads and renders values nested just inside
// the limit: deep levels are written on one line and read back the same.
func TestRenderDeepWithinLimit(t *testing.T) {
	for _, shape := range deepShapes {
		t.Run(shape.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, shape.file), []byte(shape.gen(990)), 0o644); err != nil {
				t.Fatal(err)
			}
			m, diags := LoadDir(dir)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			doc := m.Document()
			for name, out := range map[string][]byte{"main.tf": doc.Render(RenderOptions{}), "main.tf.json": doc.RenderJSON()} {
				// Indentation stops at prettyDepth levels: no line is
				// longer than the value itself plus that indentation.
				for _, line := range strings.Split(string(out), "\n") {
					if strings.HasPrefix(line, strings.Repeat(" ", 2*prettyDepth+8)) {
						t.Fatalf("%s: a line indented %d spaces", name, len(line)-len(strings.TrimLeft(line, " ")))
					}
				}
				back := t.TempDir()
				if err := os.WriteFile(filepath.Join(back, name), out, 0o644); err != nil {
					t.Fatal(err)
				}
				if _, diags := LoadDir(back); diags.HasErrors() {
					t.Fatalf("%s does not load again: %v", name, diags)
				}
			}
		})
	}
}

// TestLoadRefusesBinary: 10 MB of binary data is one error, not ten
// million "Invalid character" diagnostics (gigabytes of memory).
func TestLoadRefusesBinary(t *testing.T) {
	dir := t.TempDir()
	src := make([]byte, 10<<20)
	for i := range src {
		src[i] = byte(i * 7)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := LoadDir(dir)
	if len(diags) != 1 || diags[0].Summary != "Not a configuration file" || diags[0].Subject == nil {
		t.Fatalf("diagnostics = %v, want one", diags)
	}
}

// TestModuleCountLimit: a tree that doubles at every level without a cycle
// (each module calls the next twice, each level a new directory) stops at
// MaxModules calls with one error naming the limit and the call.
func TestModuleCountLimit(t *testing.T) {
	src := "module \"a\" {\n  source = \"./m\"\n}\nmodule \"b\" {\n  source = \"./m\"\n}\n"
	fsys := FS(fstest.MapFS{"main.tf": {Data: []byte(src)}})
	root, diags := LoadDir(".", WithFileSystem(fsys))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	leaf, diags := LoadDir(".", WithFileSystem(FS(fstest.MapFS{"main.tf": {Data: []byte("")}})))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// Levels 1 to 13 call the next level twice; level 14 calls nothing:
	// 2^15-2 = 32,766 calls in all.
	calls := 0
	w := ModuleWalkerFunc(func(req *ModuleRequest) (*Module, string, hcl.Diagnostics) {
		calls++
		if len(req.Path) == 14 {
			return leaf, "leaf", nil
		}
		return root, fmt.Sprintf("d%d", len(req.Path)), nil
	})
	tree, diags := BuildTree(root, w, WithFileSystem(fsys))
	if calls != MaxModules {
		t.Errorf("walker called %d times, want %d", calls, MaxModules)
	}
	nodes := 0
	tree.Walk(func(*Tree) { nodes++ })
	if nodes != MaxModules+1 {
		t.Errorf("tree has %d modules, want %d and the root", nodes, MaxModules)
	}
	// Call number 10,001 in depth-first order, names sorted.
	want := []string{"error Too many modules @main.tf:1,1 | The module call module.a.module.b.module.a.module.a.module.b.module.b.module.b.module.a.module.a.module.a.module.a.module.b.module.a.module.a (main.tf:1) is module call number 10001 of this configuration's module tree, more than tfdeps' limit of 10000. Check the configuration for module calls that repeat (each module calling the next more than once doubles the tree at every level)."}
	if diff := cmp.Diff(want, diagLines(diags)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestFileCountLimit: a module directory with more than MaxModuleFiles
// configuration files is refused before any file is read, with the
// directory and the limit in the error; other files do not count.
func TestFileCountLimit(t *testing.T) {
	files := fstest.MapFS{}
	for i := 0; i < MaxModuleFiles; i++ {
		files[fmt.Sprintf("f%05d.tf", i)] = &fstest.MapFile{Data: []byte("locals {}\n")}
		files[fmt.Sprintf("f%05d.txt", i)] = &fstest.MapFile{}
	}
	if _, diags := LoadDir(".", WithFileSystem(FS(files))); len(diags) != 0 {
		t.Fatalf("%d files: %v", MaxModuleFiles, diags)
	}
	files["z_override.tf.json"] = &fstest.MapFile{Data: []byte("{}")}
	_, diags := LoadDir(".", WithFileSystem(FS(files)))
	want := []string{"error Too many configuration files @- | The module directory . holds 10001 configuration files, more than tfdeps' limit of 10000 files in one module."}
	if diff := cmp.Diff(want, diagLines(diags)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
