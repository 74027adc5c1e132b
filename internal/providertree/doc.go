// Package providertree draws the text "tofu providers" prints: the module
// tree of a configuration, each module with the providers it requires and
// their constraints, its test files and their runs, then the providers
// only the state requires. The Terraform flavour draws the tree's
// continuing branches as Terraform's tree library does.
//
// It only draws: the requirements are collected by package requirements,
// and the command decides whether to draw (no errors) and prints the
// diagnostics. Groups are sorted, where OpenTofu's order is random.
package providertree
