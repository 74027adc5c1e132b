package cli

import (
	"fmt"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
)

// noConfigurationFiles is the error "tofu providers" gives for a working
// directory without configuration files (test files do not count); nil
// when there are some. Of the commands tfdeps shares with OpenTofu, only
// providers reports it: init says it initialised an empty directory,
// providers lock and providers mirror go on with no requirements.
func noConfigurationFiles(m *Meta) hcl.Diagnostics {
	files, diags := config.DiscoverFiles(config.OSFileSystem{}, ".", "")
	if diags.HasErrors() || !files.Empty() {
		return nil
	}
	dir, err := m.Getwd()
	if err != nil || dir == "" {
		dir = "."
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "No configuration files",
		Detail:   fmt.Sprintf("The directory %s contains no OpenTofu configuration files.", dir),
	}}
}
