package difftest

import (
	"sort"
	"strings"
)

// sortProvidersTree puts the children of every node of the tree "tofu
// providers" prints in label order (tofu prints them in Go map order, so
// every order is one of its possible outputs), and sorts the lines of the
// "Required plugins are not installed" list, also in map order.
func sortProvidersTree(s string) string {
	lines := strings.Split(s, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		if lines[i] != "." || i == 0 || lines[i-1] != "Providers required by configuration:" {
			continue
		}
		j := i + 1
		for j < len(lines) && lines[j] != "" {
			j++
		}
		out = append(out, renderTree(parseTree(lines[i+1:j]), "")...)
		i = j - 1
	}
	sortRunsOf(out, func(l string) bool {
		return strings.HasPrefix(l, "  - ") && strings.Contains(l, ": there is no package for ")
	})
	return strings.Join(out, "\n")
}

type treeNode struct {
	label    string
	children []*treeNode
}

// parseTree reads lines drawn with "├── ", "└── ", "│   " and "    ".
func parseTree(lines []string) []*treeNode {
	var roots []*treeNode
	var stack []*treeNode // stack[d] is the last node at depth d
	for _, l := range lines {
		depth := 0
		rest := l
		for strings.HasPrefix(rest, "│   ") || strings.HasPrefix(rest, "    ") {
			if strings.HasPrefix(rest, "│   ") {
				rest = rest[len("│   "):]
			} else {
				rest = rest[4:]
			}
			depth++
		}
		label := strings.TrimPrefix(strings.TrimPrefix(rest, "├── "), "└── ")
		n := &treeNode{label: label}
		if depth == 0 || depth > len(stack) {
			roots = append(roots, n)
			stack = []*treeNode{n}
			continue
		}
		parent := stack[depth-1]
		parent.children = append(parent.children, n)
		stack = append(stack[:depth], n)
	}
	return roots
}

func renderTree(nodes []*treeNode, indent string) []string {
	sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].label < nodes[j].label })
	var out []string
	for i, n := range nodes {
		glyph, next := "├── ", "│   "
		if i == len(nodes)-1 {
			glyph, next = "└── ", "    "
		}
		out = append(out, indent+glyph+n.label)
		out = append(out, renderTree(n.children, indent+next)...)
	}
	return out
}

// sortRunsOf sorts each run of consecutive lines for which match holds.
func sortRunsOf(lines []string, match func(string) bool) {
	for i := 0; i < len(lines); {
		if !match(lines[i]) {
			i++
			continue
		}
		j := i
		for j < len(lines) && match(lines[j]) {
			j++
		}
		sort.Strings(lines[i:j])
		i = j
	}
}
