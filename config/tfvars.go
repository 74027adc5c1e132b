package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"

	"github.com/tfdeps/tfdeps/internal/regfile"
)

// VarOption is one -var or -var-file command line option.
type VarOption struct {
	// File is true for -var-file.
	File bool
	// Value is NAME=VALUE for -var, the file name for -var-file.
	Value string
}

// VarSources are the places root module variable values are read from, as
// OpenTofu reads them at init: the environment's TF_VAR_NAME variables, the
// automatic variables files of Dir, then the options in command-line order.
type VarSources struct {
	// FS reads the variables files; nil means the operating system.
	FS FileSystem
	// Dir is the working directory ("." for the current one).
	Dir string
	// Environ is the environment as KEY=VALUE entries.
	Environ []string
	// Options are the -var and -var-file options in command-line order.
	Options []VarOption
}

// tfvarsName is OpenTofu's default variables file; auto files end with
// .auto.tfvars or .auto.tfvars.json.
const tfvarsName = "terraform.tfvars"

// CollectInputValues gathers the root module's variable values from src, a
// later source replacing an earlier one. The diagnostics are OpenTofu's for
// a malformed -var, an unreadable or invalid variables file, and variable
// declarations in a variables file; values are parsed only when a variable
// is used (RawValue.Parse).
func CollectInputValues(src VarSources) (*InputValues, hcl.Diagnostics) {
	fsys := src.FS
	if fsys == nil {
		fsys = OSFileSystem{}
	}
	dir := src.Dir
	if dir == "" {
		dir = "."
	}
	iv := NewInputValues()
	for _, kv := range src.Environ {
		rest, ok := strings.CutPrefix(kv, "TF_VAR_")
		if !ok {
			continue
		}
		if name, val, ok := strings.Cut(rest, "="); ok {
			iv.set(RawValue{Name: name, Source: FromEnvironment, String: val})
		}
	}
	var diags hcl.Diagnostics
	for _, name := range autoVarFiles(fsys, dir) {
		diags = append(diags, iv.readFile(fsys, name, FromAutoFile)...)
	}
	for _, opt := range src.Options {
		if opt.File {
			diags = append(diags, iv.readFile(fsys, opt.Value, FromNamedFile)...)
			continue
		}
		diags = append(diags, iv.setOption(opt.Value)...)
	}
	return iv, diags
}

// autoVarFiles lists terraform.tfvars, terraform.tfvars.json and the auto
// files of dir in name order, as names joined to dir.
func autoVarFiles(fsys FileSystem, dir string) []string {
	var names []string
	for _, n := range []string{tfvarsName, tfvarsName + ".json"} {
		if _, err := fsys.ReadFile(filepath.Join(dir, n)); err == nil || !errors.Is(err, fs.ErrNotExist) {
			names = append(names, filepath.Join(dir, n))
		}
	}
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		return names
	}
	for _, e := range entries {
		n := e.Name()
		if strings.HasSuffix(n, ".auto.tfvars") || strings.HasSuffix(n, ".auto.tfvars.json") {
			names = append(names, filepath.Join(dir, n))
		}
	}
	return names
}

// setOption records one -var NAME=VALUE option.
func (iv *InputValues) setOption(raw string) hcl.Diagnostics {
	name, val, ok := strings.Cut(raw, "=")
	if !ok {
		return hcl.Diagnostics{errorDiag("Invalid -var option", fmt.Sprintf("The given -var option %q is not correctly specified. Must be a variable name and value separated by an equals sign, like -var=\"key=value\".", raw), nil)}
	}
	if strings.HasSuffix(name, " ") {
		return hcl.Diagnostics{errorDiag("Invalid -var option", fmt.Sprintf("Variable name %q is invalid due to trailing space. Did you mean -var=\"%s=%s\"?", name, strings.TrimSuffix(name, " "), strings.TrimPrefix(val, " ")), nil)}
	}
	iv.set(RawValue{Name: name, Source: FromCommandLine, String: val})
	return nil
}

// readFile reads one variables file: JSON when its name ends in .json (or,
// for a name with neither .json nor .tfvars, when it starts with "{"),
// native syntax otherwise.
func (iv *InputValues) readFile(fsys FileSystem, name string, source ValueSource) hcl.Diagnostics {
	src, err := fsys.ReadFile(name)
	if err != nil {
		detail := fmt.Sprintf("Error while reading %s: %s.", name, err)
		if errors.Is(err, fs.ErrNotExist) {
			detail = fmt.Sprintf("Given variables file %s does not exist.", name)
		}
		if notRegular := (*regfile.NotRegularError)(nil); errors.As(err, &notRegular) {
			detail = notRegular.Detail("The variables file " + name)
		}
		return hcl.Diagnostics{errorDiag("Failed to read variables file", detail, nil)}
	}
	isJSON := strings.HasSuffix(name, ".json") ||
		(!strings.HasSuffix(name, ".tfvars") && strings.HasPrefix(strings.TrimSpace(string(src)), "{"))
	var f *hcl.File
	var diags hcl.Diagnostics
	if isJSON {
		f, diags = hcljson.Parse(src, name)
	} else {
		f, diags = hclsyntax.ParseConfig(src, name, hcl.Pos{Line: 1, Column: 1})
	}
	if f == nil || f.Body == nil {
		return diags
	}
	if iv.Files == nil {
		iv.Files = map[string]*hcl.File{}
	}
	iv.Files[name] = f
	content, _, _ := f.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "variable", LabelNames: []string{"name"}}}})
	for _, b := range content.Blocks {
		v := b.Labels[0]
		diags = append(diags, errorDiag("Variable declaration in .tfvars file",
			fmt.Sprintf("A .tfvars file is used to assign values to variables that have already been declared in .tf files, not to declare new variables. To declare variable %q, place this block in one of your .tf files, such as variables.tf.\n\nTo set a value for this variable in %s, use the definition syntax instead:\n    %s = <value>", v, b.TypeRange.Filename, v),
			b.TypeRange.Ptr()))
	}
	if diags.HasErrors() {
		return diags
	}
	attrs, attrDiags := f.Body.JustAttributes()
	diags = append(diags, attrDiags...)
	for _, n := range sortedAttrNames(attrs) {
		iv.set(RawValue{Name: n, Source: source, Expr: attrs[n].Expr})
	}
	return diags
}

func sortedAttrNames(attrs hcl.Attributes) []string {
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
