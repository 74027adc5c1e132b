package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/requirements"
	"github.com/tfdeps/tfdeps/versions"
)

const providersHelp = `
Usage: tfdeps [global options] providers [options]

  Shows which providers the configuration needs and why: the module tree,
  each module with the providers and version constraints it declares or
  implies, then the providers used by resources in the local state. The
  layout is that of "tofu providers".

  Child modules, local ones included, are read through
  .terraform/modules/modules.json as written by "tofu init": a module that
  is not installed, or whose source or version constraint changed since,
  is an error (exit 1), as in "tofu providers".

Options:

  -json         Print the requirements as JSON: every provider with its
                canonical version constraints and the modules, files and
                declarations that require it; diagnostics are included and
                nothing is written to stderr.

  -state=PATH   The local state file whose resources' providers are listed.
                Default: terraform.tfstate, or the current workspace's
                terraform.tfstate.d/NAME/terraform.tfstate.

  -test-directory=DIR  The directory of test files besides the module's own
                (default "tests"); the providers test files require are
                shown as test.NAME branches.
`

// providersOptions are the flags of the providers command.
type providersOptions struct {
	json      bool
	statePath string
	testsDir  string
}

func runProviders(m *Meta, args []string) int {
	fs := newFlagSet(m, "providers", providersHelp)
	var opts providersOptions
	fs.BoolVar(&opts.json, "json", false, "")
	fs.StringVar(&opts.statePath, "state", "", "")
	fs.StringVar(&opts.testsDir, "test-directory", config.DefaultTestsDir, "")
	if code, ok := parseFlags(m, fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		newDiagPrinter(m, nil).Print(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Too many command line arguments",
			Detail:   "The providers command takes no arguments. To show the providers of another directory, use the global -chdir option: tfdeps -chdir=DIR providers",
		}})
		return 1
	}
	if opts.statePath == "" {
		opts.statePath = defaultStatePath(m)
	}

	res, diags := requirements.Load(".", requirements.Options{
		Config:    []config.Option{config.WithTofuVersion(m.TofuVersion), config.WithTestsDir(opts.testsDir)},
		StateFile: opts.statePath,
	})
	diags = append(diags, remoteStateWarning(res.Tree)...)
	if opts.json {
		return printProvidersJSON(m, res, diags)
	}
	printer := newDiagPrinter(m, treeFiles(res.Tree))
	if diags.HasErrors() {
		printer.Print(diags)
		return 1
	}
	printProvidersTree(m.Stdout, res)
	printer.Print(diags)
	return 0
}

// defaultStatePath is the local backend's state file for the current
// workspace (TF_WORKSPACE, else .terraform/environment, else default).
func defaultStatePath(m *Meta) string {
	ws := m.Getenv("TF_WORKSPACE")
	if ws == "" {
		if b, err := os.ReadFile(filepath.Join(".terraform", "environment")); err == nil {
			ws = strings.TrimSpace(string(b))
		}
	}
	if ws == "" || ws == "default" {
		return "terraform.tfstate"
	}
	return filepath.Join("terraform.tfstate.d", ws, "terraform.tfstate")
}

// remoteStateWarning says that a state kept by a non-local backend was not
// read.
func remoteStateWarning(tree *config.Tree) hcl.Diagnostics {
	if tree == nil || tree.Module == nil {
		return nil
	}
	var kind string
	var rng hcl.Range
	switch mod := tree.Module; {
	case mod.Cloud != nil:
		kind, rng = "cloud", mod.Cloud.DeclRange
	case mod.Backend != nil && mod.Backend.Type != "local":
		kind, rng = fmt.Sprintf("%q backend", mod.Backend.Type), mod.Backend.DeclRange
	default:
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "State not read",
		Detail:   fmt.Sprintf("This configuration keeps its state with the %s. tfdeps reads only local state files, so providers that only the state requires are not listed.", kind),
		Subject:  rng.Ptr(),
	}}
}

// printProvidersTree prints the output of "tofu providers": the module
// tree with each module's requirements, then the state's providers.
// Providers are listed by address and modules by name (OpenTofu's order is
// random).
func printProvidersTree(w io.Writer, res *requirements.Result) {
	var b strings.Builder
	b.WriteString("\nProviders required by configuration:\n.\n")
	if res.Root != nil {
		writeModuleTree(&b, res.Root, "")
	}
	b.WriteString("\n")
	if len(res.State) > 0 {
		b.WriteString("Providers required by state:\n\n")
		for _, p := range res.State {
			fmt.Fprintf(&b, "    provider[%s]\n\n", p.String())
		}
	}
	io.WriteString(w, b.String())
}

// writeModuleTree writes a module's providers, then its test files, then
// its children, as tree branches under prefix: the order of OpenTofu's
// tree, each group sorted (OpenTofu's order within a group is random).
func writeModuleTree(b *strings.Builder, mod *requirements.Module, prefix string) {
	var items []func(connector, indent string)
	for _, line := range providerLines(mod.Sorted(), mod.Providers) {
		items = append(items, leaf(b, prefix, line))
	}
	for _, tf := range mod.Tests {
		items = append(items, func(connector, indent string) {
			name := strings.ReplaceAll(strings.TrimSuffix(tf.Name, ".tftest.hcl"), "/", ".")
			b.WriteString(prefix + connector + "test." + name + "\n")
			writeTestTree(b, tf, prefix+indent)
		})
	}
	for _, child := range mod.Children {
		items = append(items, func(connector, indent string) {
			b.WriteString(prefix + connector + "module." + child.Name + "\n")
			writeModuleTree(b, child, prefix+indent)
		})
	}
	writeBranches(items)
}

// writeTestTree writes a test file's providers and its runs under prefix.
func writeTestTree(b *strings.Builder, tf *requirements.TestFile, prefix string) {
	var items []func(connector, indent string)
	for _, line := range providerLines(tf.Sorted(), tf.Providers) {
		items = append(items, leaf(b, prefix, line))
	}
	for _, run := range tf.Runs {
		items = append(items, func(connector, indent string) {
			b.WriteString(prefix + connector + "run." + run.Name + "\n")
			writeModuleTree(b, run, prefix+indent)
		})
	}
	writeBranches(items)
}

// writeBranches calls each item with its tree connector: the last one
// closes the branch.
func writeBranches(items []func(connector, indent string)) {
	for i, item := range items {
		if i == len(items)-1 {
			item("└── ", "    ")
		} else {
			item("├── ", "│   ")
		}
	}
}

func leaf(b *strings.Builder, prefix, line string) func(connector, indent string) {
	return func(connector, _ string) { b.WriteString(prefix + connector + line + "\n") }
}

// providerLines are "provider[ADDRESS] CONSTRAINTS" for each provider.
func providerLines(sorted []addrs.Provider, cons map[addrs.Provider]versions.Constraints) []string {
	lines := make([]string, 0, len(sorted))
	for _, p := range sorted {
		line := "provider[" + p.String() + "]"
		if c := cons[p].String(); c != "" {
			line += " " + c
		}
		lines = append(lines, line)
	}
	return lines
}

// treeFiles collects the parsed files of every module of the tree, for
// source snippets in diagnostics.
func treeFiles(tree *config.Tree) map[string]*hcl.File {
	files := map[string]*hcl.File{}
	if tree == nil {
		return files
	}
	tree.Walk(func(t *config.Tree) {
		if t.Module == nil {
			return
		}
		for name, f := range t.Module.ParsedFiles() {
			files[name] = f
		}
	})
	return files
}

// printProvidersJSON writes the requirements as one JSON document and
// returns the exit code.
func printProvidersJSON(m *Meta, res *requirements.Result, diags hcl.Diagnostics) int {
	enc := json.NewEncoder(m.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(newProvidersJSON(res, diags)); err != nil {
		fmt.Fprintf(m.Stderr, "Error: %s\n", err)
		return 1
	}
	if diags.HasErrors() {
		return 1
	}
	return 0
}

// providersJSON is the document "providers -json" prints.
type providersJSON struct {
	FormatVersion string                `json:"format_version"`
	Providers     []providerJSON        `json:"providers"`
	Modules       []moduleJSON          `json:"modules"`
	Diagnostics   []providersDiagnostic `json:"diagnostics"`
}

type providerJSON struct {
	Address     string `json:"address"`
	DisplayName string `json:"display_name"`
	// VersionConstraints is the canonical intersection of all constraints.
	VersionConstraints string           `json:"version_constraints"`
	Explicit           bool             `json:"explicit"`
	BuiltIn            bool             `json:"built_in"`
	InState            bool             `json:"in_state"`
	RequiredBy         []requiredByJSON `json:"required_by"`
}

type requiredByJSON struct {
	Module             string `json:"module"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	VersionConstraints string `json:"version_constraints,omitempty"`
	File               string `json:"file,omitempty"`
	Line               int    `json:"line,omitempty"`
}

type moduleJSON struct {
	Path      string            `json:"path"`
	Dir       string            `json:"dir"`
	Providers map[string]string `json:"providers"`
}

type providersDiagnostic struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	// Range is FILE:LINE,COLUMN-LINE,COLUMN; absent without a subject.
	Range string `json:"range,omitempty"`
}

func newProvidersJSON(res *requirements.Result, diags hcl.Diagnostics) providersJSON {
	doc := providersJSON{FormatVersion: "1.0", Providers: []providerJSON{}, Modules: []moduleJSON{}, Diagnostics: []providersDiagnostic{}}
	inState := map[string]bool{}
	for _, p := range res.State {
		inState[p.String()] = true
	}
	for _, p := range res.Sorted() {
		pj := providerJSON{
			Address:            p.String(),
			DisplayName:        p.ForDisplay(),
			VersionConstraints: res.Providers[p].String(),
			Explicit:           res.Explicit[p],
			BuiltIn:            p.IsBuiltIn(),
			InState:            inState[p.String()],
			RequiredBy:         []requiredByJSON{},
		}
		for _, src := range res.Sources[p] {
			rb := requiredByJSON{Module: src.Module, Kind: string(src.Kind), Name: src.Name, VersionConstraints: src.Constraints.String()}
			if src.Range.Filename != "" {
				rb.File, rb.Line = filepath.ToSlash(src.Range.Filename), src.Range.Start.Line
			}
			pj.RequiredBy = append(pj.RequiredBy, rb)
		}
		doc.Providers = append(doc.Providers, pj)
	}
	for _, mod := range res.Modules() {
		mj := moduleJSON{Path: mod.Path, Dir: filepath.ToSlash(mod.Dir), Providers: map[string]string{}}
		for p, c := range mod.Providers {
			mj.Providers[p.String()] = c.String()
		}
		doc.Modules = append(doc.Modules, mj)
	}
	for _, d := range sortDiagnostics(diags) {
		dj := providersDiagnostic{Severity: "warning", Summary: d.Summary, Detail: d.Detail}
		if d.Severity == hcl.DiagError {
			dj.Severity = "error"
		}
		if s := d.Subject; s != nil {
			dj.Range = fmt.Sprintf("%s:%d,%d-%d,%d", filepath.ToSlash(s.Filename), s.Start.Line, s.Start.Column, s.End.Line, s.End.Column)
		}
		doc.Diagnostics = append(doc.Diagnostics, dj)
	}
	return doc
}
