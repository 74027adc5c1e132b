package cli

import (
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/versions"
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
	if code, ok := parseFlags(m, fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(m.Stderr, "\nError: Unexpected argument\n\nThe lock verify command expects no arguments, but got %q.\n\n", fs.Arg(0))
		return 1
	}
	diags, ok := verifyLock(m)
	newDiagPrinter(m, sourceFiles(diags)).Print(diags)
	if !ok {
		return 1
	}
	fmt.Fprintf(m.Stdout, "The dependency lock file %s is consistent with the configuration.\n", lockFileName)
	return 0
}

// verifyLock loads the requirements and the lock file and checks them
// against each other. It stops after the first step that has errors.
func verifyLock(m *Meta) (hcl.Diagnostics, bool) {
	reqs, diags := configRequirements(m, ".")
	if diags.HasErrors() {
		return diags, false
	}
	locks, _, lockDiags := lockfile.ReadFile(lockFileName, lockfile.ReadOptions{TofuVersion: m.TofuVersion})
	diags = append(diags, lockDiags...)
	if diags.HasErrors() {
		return diags, false
	}
	diags = append(diags, lockfile.CheckConsistency(reqs, locks, lockfile.ConsistencyOptions{})...)
	return diags, !diags.HasErrors()
}

// configRequirements collects the provider requirements of the module tree
// rooted at dir: required_providers entries, deprecated version arguments of
// provider blocks and the providers of resources, intersected per provider.
//
// TODO: use the requirements package once it exists; this stands in for it.
func configRequirements(m *Meta, dir string) (lockfile.Requirements, hcl.Diagnostics) {
	tree, rootDiags, buildDiags := config.LoadTree(dir, config.WithTofuVersion(m.TofuVersion))
	diags := append(rootDiags, buildDiags...)
	if tree == nil || diags.HasErrors() {
		return nil, diags
	}
	reqs := lockfile.Requirements{}
	add := func(p addrs.Provider, constraint string) {
		c, err := versions.ParseConstraints(constraint)
		if err != nil || p.IsZero() {
			return // the loader has reported invalid constraints
		}
		reqs[p] = versions.Intersect(reqs[p], c)
	}
	tree.Walk(func(t *config.Tree) {
		mod := t.Module
		if mod.RequiredProviders != nil {
			for _, rp := range mod.RequiredProviders.RequiredProviders {
				add(rp.Type, rp.Requirement.Required)
			}
		}
		for _, pc := range mod.ProviderConfigs {
			add(mod.ProviderForLocalName(pc.Name), pc.Version)
		}
		for _, rs := range []map[string]*config.Resource{mod.ManagedResources, mod.DataResources, mod.EphemeralResources} {
			for _, r := range rs {
				add(r.Provider, "")
			}
		}
	})
	return reqs, diags
}

// sourceFiles parses the files the diagnostics point into, so that the
// printer can show source snippets.
func sourceFiles(diags hcl.Diagnostics) map[string]*hcl.File {
	parser := hclparse.NewParser()
	files := map[string]*hcl.File{}
	for _, d := range diags {
		if d.Subject == nil || files[d.Subject.Filename] != nil {
			continue
		}
		name := d.Subject.Filename
		src, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		var f *hcl.File
		if len(name) > 5 && name[len(name)-5:] == ".json" {
			f, _ = parser.ParseJSON(src, name)
		} else {
			f, _ = parser.ParseHCL(src, name)
		}
		if f != nil {
			files[name] = f
		}
	}
	return files
}
