package cli

import (
	"fmt"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/workdir"
)

// noConfigurationFiles is the error "tofu providers" gives for a working
// directory (or root module dir, "" for the working directory) without configuration files (test files do not count); nil
// when there are some. Of the commands tfdeps shares with OpenTofu, only
// providers reports it: init says it initialised an empty directory,
// providers lock and providers mirror go on with no requirements.
func noConfigurationFiles(m *Meta, dir string) hcl.Diagnostics {
	if !workdir.IsEmptyDir(dir, m.Flavour) {
		return nil
	}
	abs := filepath.Join(absWorkingDir(m), dir)
	return hcl.Diagnostics{errorDiag("No configuration files", fmt.Sprintf("The directory %s contains no %s configuration files.", abs, m.Flavour.Product()))}
}
