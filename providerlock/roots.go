package providerlock

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
)

// FindRootModules returns the root modules at or below dir, sorted, as
// paths relative to dir ("." for dir itself). A directory is a root module
// when it holds configuration files (.tf, .tofu, .tf.json, .tofu.json) and
// either a .terraform.lock.hcl file or a terraform block with
// required_providers, unless it has no lock file and another module under
// dir calls it as a local child module ("./…" or "../…" source). Hidden
// directories (".terraform", ".git", …) are not searched. Files that do
// not parse are ignored here; loading the module reports them.
func FindRootModules(dir string) ([]string, error) {
	var mods []moduleInfo
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path != dir && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if m, ok := inspectModule(path); ok {
			mods = append(mods, m)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	children := map[string]bool{}
	for _, m := range mods {
		for _, c := range m.children {
			children[c] = true
		}
	}
	var roots []string
	for _, m := range mods {
		abs, _ := filepath.Abs(m.dir)
		if !m.hasLock && (!m.requiresProviders || children[abs]) {
			continue
		}
		rel, err := filepath.Rel(dir, m.dir)
		if err != nil {
			rel = m.dir
		}
		roots = append(roots, filepath.ToSlash(rel))
	}
	slices.Sort(roots)
	return roots, nil
}

// moduleInfo is what FindRootModules learns about one directory.
type moduleInfo struct {
	dir               string
	hasLock           bool
	requiresProviders bool
	children          []string // absolute directories of local module calls
}

var (
	rootFileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "terraform"}, {Type: "module", LabelNames: []string{"name"}},
	}}
	terraformSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "required_providers"}}}
	moduleSchema    = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "source"}}}
)

// inspectModule reads the configuration files of dir, if any.
func inspectModule(dir string) (moduleInfo, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return moduleInfo{}, false
	}
	m := moduleInfo{dir: dir}
	parser := hclparse.NewParser()
	found := false
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			continue
		}
		if name == ".terraform.lock.hcl" {
			m.hasLock = true
			continue
		}
		file := parseConfigFile(parser, filepath.Join(dir, name))
		if file == nil {
			continue
		}
		found = true
		m.inspectFile(file)
	}
	return m, found
}

func parseConfigFile(parser *hclparse.Parser, path string) *hcl.File {
	name := filepath.Base(path)
	switch {
	case strings.HasSuffix(name, ".tf"), strings.HasSuffix(name, ".tofu"):
		f, _ := parser.ParseHCLFile(path)
		return orEmpty(f)
	case strings.HasSuffix(name, ".tf.json"), strings.HasSuffix(name, ".tofu.json"):
		f, _ := parser.ParseJSONFile(path)
		return orEmpty(f)
	}
	return nil
}

// orEmpty keeps a file that failed to parse as a configuration file with
// nothing in it.
func orEmpty(f *hcl.File) *hcl.File {
	if f == nil || f.Body == nil {
		return &hcl.File{Body: hcl.EmptyBody()}
	}
	return f
}

func (m *moduleInfo) inspectFile(file *hcl.File) {
	content, _, _ := file.Body.PartialContent(rootFileSchema)
	if content == nil {
		return
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "terraform":
			tc, _, _ := b.Body.PartialContent(terraformSchema)
			if tc != nil && len(tc.Blocks) > 0 {
				m.requiresProviders = true
			}
		case "module":
			if src := moduleSource(b); strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../") {
				abs, _ := filepath.Abs(filepath.Join(m.dir, filepath.FromSlash(src)))
				m.children = append(m.children, abs)
			}
		}
	}
}

func moduleSource(b *hcl.Block) string {
	mc, _, _ := b.Body.PartialContent(moduleSchema)
	if mc == nil || mc.Attributes["source"] == nil {
		return ""
	}
	v, diags := mc.Attributes["source"].Expr.Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || !v.Type().Equals(cty.String) {
		return ""
	}
	return v.AsString()
}
