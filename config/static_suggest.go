package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty/function"
)

// sortedSuggestions rewrites the "Did you mean" of HCL's "Call to unknown
// function" errors so that it does not depend on map order. HCL suggests
// the first function name, in the order it ranges over the function
// table (a Go map, so OpenTofu's suggestion varies from run to run when
// two names are as close), within an edit distance of 3; tfdeps takes the
// first such name in sorted order, with HCL's texts.
func sortedSuggestions(diags hcl.Diagnostics, funcs map[string]function.Function) hcl.Diagnostics {
	for i, d := range diags {
		extra, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallUnknownDiagExtra](d)
		if !ok || d.Summary != "Call to unknown function" {
			continue
		}
		name, ns := extra.CalledFunctionName(), extra.CalledFunctionNamespace()
		names := make([]string, 0, len(funcs))
		for n := range funcs {
			if strings.HasPrefix(n, ns) {
				names = append(names, n)
			}
		}
		if ns != "" && len(names) == 0 {
			continue // "There are no functions in namespace": no suggestion
		}
		sort.Strings(names)
		suggestion := ""
		for _, n := range names {
			// As HCL: the name without its namespace against the full
			// name (so namespaced names rarely match).
			if levenshtein.Distance(name, n, nil) < 3 {
				suggestion = n
				break
			}
		}
		c := *d
		switch {
		case ns == "" && suggestion != "":
			c.Detail = fmt.Sprintf("There is no function named %q. Did you mean %q?", name, suggestion)
		case ns == "":
			c.Detail = fmt.Sprintf("There is no function named %q.", name)
		case suggestion != "":
			c.Detail = fmt.Sprintf("There is no function named %q in namespace %s. Did you mean %s%s?", name, ns, ns, suggestion)
		default:
			c.Detail = fmt.Sprintf("There is no function named %q in namespace %s.", name, ns)
		}
		diags[i] = &c
	}
	return diags
}
