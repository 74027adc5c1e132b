// Package archtest holds tests about the shape of the code base itself: which
// package may import which, as the layering table in the design notes says.
package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/tfdeps/tfdeps"

// allowed lists, for each package of the module, the module packages it may
// import. A package not listed here may import only what "*" allows.
var allowed = map[string][]string{
	"flavour":                {},
	"addrs":                  {"flavour"},
	"moduleaddr":             {"flavour"},
	"moduleinstall/manifest": {"moduleaddr", "internal/regfile"},
	"versions":               {},
	"hashes":                 {},
	"config":                 {"flavour", "addrs", "versions", "moduleaddr", "moduleinstall/manifest", "internal/nesting", "internal/regfile"},
	"lockfile":               {"flavour", "addrs", "versions", "hashes", "internal/nesting", "internal/regfile"},
	"backend":                {"flavour", "config", "internal/regfile"},
	"internal/cloudfake":     {},
	"internal/tfefake":       {"internal/registrytest"},
	"internal/ocimanifest":   {},
	"internal/ocitest":       {"internal/registrytest"},
	"internal/ociauth":       {"cliconfig"},
	"requirements":           {"flavour", "addrs", "versions", "config", "moduleinstall/manifest", "internal/regfile"},
	"cliconfig":              {"flavour", "addrs", "internal/nesting", "internal/regfile"},
	"internal/nesting":       {},
	"internal/regfile":       {},
	"registry":               {"flavour", "addrs", "versions", "hashes", "moduleaddr", "internal/nesting"},
	"internal/registrytest":  {"flavour", "addrs", "versions", "hashes", "moduleaddr"},
	"providersource":         {"internal/ocimanifest", "flavour", "addrs", "versions", "hashes", "registry", "cliconfig", "internal/nesting", "internal/ociauth"},
	"internal/inflate":       {},
	"providerinstall":        {"flavour", "addrs", "versions", "hashes", "lockfile", "providersource", "registry", "cliconfig", "internal/inflate"},
	"providermirror":         {"flavour", "addrs", "versions", "hashes", "providersource", "registry", "config", "lockfile", "requirements"},
	"moduleinstall":          {"internal/ocimanifest", "flavour", "addrs", "versions", "moduleaddr", "config", "moduleinstall/manifest", "registry", "internal/regfile"},
	"internal/serve/storage": {},
	"internal/diagrender":    {"config", "internal/regfile"},
	"internal/livedisplay":   {},
	"internal/providertree":  {"flavour", "addrs", "versions", "requirements"},
	// every library may take the flavour it emulates (package flavour is a leaf)
	"internal/serve":   {"flavour", "addrs", "versions", "hashes", "providersource", "registry", "internal/serve/storage"},
	"providerlock":     {"flavour", "addrs", "versions", "hashes", "lockfile", "providersource", "registry", "cliconfig", "providerinstall", "config", "requirements"},
	"workdir":          {"internal/ociauth", "flavour", "addrs", "versions", "hashes", "config", "lockfile", "cliconfig", "registry", "requirements", "moduleaddr", "moduleinstall", "moduleinstall/manifest", "providersource", "providerinstall", "backend", "internal/regfile"},
	"examples/library": {"workdir"},
	// init's run of one directory: workdir's steps and their rendering
	"internal/initrun": {"flavour", "addrs", "versions", "config", "lockfile", "cliconfig", "registry", "moduleinstall", "providersource", "providerinstall", "backend", "workdir", "internal/diagrender", "internal/livedisplay", "internal/regfile"},
	// the fleet shares work between roots; what a root does is passed in
	"fleet": {"flavour", "addrs", "versions", "registry", "config", "providerlock", "providersource", "providerinstall", "moduleinstall", "internal/registrytest"},
	// providers lock and mirror views: plain, JSON and live lines
	"internal/lockview":  {"flavour", "addrs", "versions", "registry", "providerlock", "providermirror", "internal/diagrender", "internal/initrun", "internal/livedisplay"},
	"internal/fleetview": {"fleet", "internal/livedisplay", "lockfile", "moduleinstall/manifest"},
	// outdated and upgrade: versions asked, constraints rewritten, init's steps reused
	"upgrade":              {"flavour", "addrs", "versions", "config", "lockfile", "moduleaddr", "moduleinstall/manifest", "providersource", "requirements", "workdir", "internal/regfile"},
	"internal/upgradeview": {"flavour", "versions", "upgrade"},
}

// anyModulePackage marks packages that may import every package of the module.
var anyModulePackage = map[string]bool{"internal/cli": true, "cmd/tfdeps": true, "internal/archtest": true, "internal/difftest": true}

func TestImportLayering(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	imports := moduleImports(t, root)
	var pkgs []string
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		if anyModulePackage[pkg] || strings.HasPrefix(pkg, "bench") {
			continue
		}
		ok := map[string]bool{pkg: true}
		for _, a := range allowed[pkg] {
			ok[a] = true
		}
		for _, imp := range imports[pkg] {
			if !ok[imp] {
				t.Errorf("package %s imports %s, which the layering does not allow", pkg, imp)
			}
		}
	}
}

// moduleImports maps each package directory (relative to root) to the module
// packages its non-test Go files import.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if strings.HasPrefix(p, module+"/") {
				out[rel] = appendUnique(out[rel], strings.TrimPrefix(p, module+"/"))
			}
		}
		if _, ok := out[rel]; !ok {
			out[rel] = nil
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
