package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/requirements"
)

// lockFileName is the dependency lock file, in the working directory.
const lockFileName = ".terraform.lock.hcl"

const lockVerifyUsage = `
Usage: tfdeps [global options] lock verify

  Checks, without network access, that the dependency lock file
  .terraform.lock.hcl selects a version for every provider the configuration
  in the working directory requires, and that each selected version meets the
  configuration's version constraints. This is the check OpenTofu makes
  before commands that use providers without installing them.

  Exits with status 0 when the lock file is consistent with the
  configuration, 1 when it is not or when the configuration or the lock file
  has errors.
`

// runLockVerify implements "tfdeps lock verify".
func runLockVerify(m *Meta, args []string) int {
	fs := newFlagSet(m, "lock verify", lockVerifyUsage)
	vars := addVarFlags(m, fs)
	if code, ok := parseFlags(m, fs, args); !ok {
		return code
	}
	varOpts, varDiags := vars.configOptions(m)
	if varDiags.HasErrors() {
		return printVarErrors(m, vars, varDiags)
	}
	if fs.NArg() > 0 {
		return usageError(m, fs, unexpectedArgumentDiag())
	}
	diags, tree, ok := verifyLock(m, varOpts...)
	newDiagPrinter(m, snippetFiles(diags, treeFiles(tree))).Print(diags)
	if !ok {
		return 1
	}
	fmt.Fprintf(m.Stdout, "The dependency lock file %s is consistent with the configuration.\n", lockFileName)
	return 0
}

// verifyLock loads the configuration's requirements (configuration only,
// no state, as OpenTofu's check does) and the lock file and checks them
// against each other. It stops after the first step that has errors. A
// directory without configuration or without a lock file fails: there
// is nothing to call consistent.
func verifyLock(m *Meta, opts ...config.Option) (hcl.Diagnostics, *config.Tree, bool) {
	if diags := noConfigurationFiles(m); diags != nil {
		return diags, nil, false
	}
	res, diags := requirements.Load(".", requirements.Options{
		Config: m.configOptions(opts...),
	})
	if res == nil || diags.HasErrors() {
		return diags, resultTree(res), false
	}
	locks, _, lockDiags := lockfile.ReadFile(lockFileName, m.lockReadOptions())
	if lockDiags.HasErrors() {
		// As OpenTofu reports a broken lock file: one error.
		return append(diags, lockReadFailureDiag(lockDiags)), res.Tree, false
	}
	diags = append(diags, lockDiags...)
	consistency := lockfile.CheckConsistency(res.Providers, locks, lockfile.ConsistencyOptions{})
	diags = append(diags, consistency...)
	if !consistency.HasErrors() {
		if _, err := os.Stat(lockFileName); err != nil {
			diags = append(diags, errorDiag("No dependency lock file", fmt.Sprintf(
				"The directory %s has no dependency lock file %s. Run \"tofu init\" to create it.", absWorkingDir(m), lockFileName)))
		}
	}
	return diags, res.Tree, !diags.HasErrors()
}

// absWorkingDir is the working directory as an absolute path.
func absWorkingDir(m *Meta) string {
	dir, _ := m.Getwd()
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

func resultTree(res *requirements.Result) *config.Tree {
	if res == nil {
		return nil
	}
	return res.Tree
}
