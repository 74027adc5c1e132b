package cli

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// noConfigurationFiles is the error "tofu providers" gives for a working
// directory without configuration files (test files do not count); nil
// when there are some. Of the commands tfdeps shares with OpenTofu, only
// providers reports it: init says it initialised an empty directory,
// providers lock and providers mirror go on with no requirements.
func noConfigurationFiles(m *Meta) hcl.Diagnostics {
	if !workingDirIsEmpty(m.Flavour) {
		return nil
	}
	return hcl.Diagnostics{errorDiag("No configuration files", fmt.Sprintf("The directory %s contains no %s configuration files.", absWorkingDir(m), m.Flavour.Product()))}
}
