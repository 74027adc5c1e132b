package config

import (
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/internal/nesting"
)

// checkNesting refuses a configuration file nested deeper than
// nesting.MaxDepth levels, with the file and line where the limit is
// exceeded.
func checkNesting(name string, src []byte) hcl.Diagnostics {
	syntax := nesting.HCL
	if strings.HasSuffix(name, ".json") {
		syntax = nesting.HCLJSON
	}
	return nesting.CheckDiagnostics(name, src, syntax, nesting.MaxDepth)
}
