package providertree

import (
	"fmt"
	"io"
	"strings"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/requirements"
	"github.com/tfdeps/tfdeps/versions"
)

// Write writes the output of "tofu providers" (or, for flavour f,
// "terraform providers") for res: the module tree with each module's
// requirements, then the state's providers. Providers are listed by
// address and modules by name (OpenTofu's order is random).
func Write(w io.Writer, res *requirements.Result, f flavour.Flavour) error {
	b := &treeText{link: "│   "}
	if f == flavour.Terraform {
		// terraform's tree library (2016's treeprint) pads a branch's
		// vertical line with two no-break spaces and a space.
		b.link = "│\u00a0\u00a0 "
	}
	b.WriteString("\nProviders required by configuration:\n.\n")
	if res.Root != nil {
		writeModuleTree(b, res.Root, "")
	}
	b.WriteString("\n")
	if len(res.State) > 0 {
		b.WriteString("Providers required by state:\n\n")
		for _, p := range res.State {
			fmt.Fprintf(b, "    provider[%s]\n\n", p.String())
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeModuleTree writes a module's providers, then its test files, then
// its children, as tree branches under prefix: the order of OpenTofu's
// tree, each group sorted (OpenTofu's order within a group is random).
func writeModuleTree(b *treeText, mod *requirements.Module, prefix string) {
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
	b.branches(items)
}

// writeTestTree writes a test file's providers and its runs under prefix.
func writeTestTree(b *treeText, tf *requirements.TestFile, prefix string) {
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
	b.branches(items)
}

// treeText is the text of the tree being written; link
// is the indent under a branch that continues (the flavour's drawing).
type treeText struct {
	strings.Builder
	link string
}

// branches calls each item with its tree connector: the last one
// closes the branch.
func (b *treeText) branches(items []func(connector, indent string)) {
	for i, item := range items {
		if i == len(items)-1 {
			item("└── ", "    ")
		} else {
			item("├── ", b.link)
		}
	}
}

func leaf(b *treeText, prefix, line string) func(connector, indent string) {
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
